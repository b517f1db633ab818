"""Checks that must hold in every reachable state; property tests call them after every step.

They are written from the rules (R-COMP-3/4/5/6, R-EXEC-12's counterpart that armies are
never negative), not from the engine's bookkeeping, so a bookkeeping slip shows up.

Tests: tests/sim/test_properties.py.
"""

from __future__ import annotations

from sim.board import board
from sim.state import (ARMIES_PER_PLAYER, BUILDING_STOCK, PEASANT, PEASANTS, UNREST_MARKERS,
                       State)


def violations(state: State) -> list[str]:
    problems: list[str] = []
    b = board()
    in_tower = state.tower.counts()
    held = dict(enumerate(state.held()))
    for seat, player in enumerate(state.players):
        on_board = sum(p.armies for p in state.provinces.values() if p.owner == seat)
        total = (player.supply + on_board + in_tower.get(seat, 0) + state.tray[seat]
                 + held.get(seat, 0))
        if total != ARMIES_PER_PLAYER:
            problems.append(f"R-COMP-6: seat {seat} has {total} cubes, not {ARMIES_PER_PLAYER}")
        if player.supply < 0:
            problems.append(f"R-COMP-6: seat {seat} supply is {player.supply}")
        if player.money < 0:
            problems.append(f"R-COMP-3: seat {seat} money is {player.money}")
        if player.rice < 0:
            problems.append(f"R-WINTER-1: seat {seat} rice is {player.rice}")
    peasants = (state.peasant_supply + in_tower.get(PEASANT, 0) + state.tray[PEASANT]
                + held.get(PEASANT, 0))
    if peasants != PEASANTS or state.peasant_supply < 0:
        problems.append(f"R-COMP-6: {peasants} peasants accounted for, not {PEASANTS}")
    for n in range(len(state.players), 5):
        if state.tray[n] or in_tower.get(n, 0):
            problems.append(f"R-COMP-1: cubes of absent seat {n}")
    for kind, stock in BUILDING_STOCK.items():
        if state.buildings_left(kind) < 0:
            problems.append(f"R-COMP-4: more than {stock} {kind}s on the board")
    if state.unrest_left() < 0:
        problems.append(f"R-COMP-5: more than {UNREST_MARKERS} unrest markers")
    excluded = set(b.names) - set(state.provinces)
    if state.config.players == 3 and len(excluded) != 8:
        problems.append("R-SETUP-2: 8 provinces must be out of play with 3 players")
    for name, p in state.provinces.items():
        if p.armies < 0:
            problems.append(f"{name}: negative armies")
        if len(p.buildings) > b.provinces[name].slots or len(set(p.buildings)) != len(p.buildings):
            problems.append(f"R-COMP-4: {name} holds {list(p.buildings)}")
        if p.owner is None and (p.armies or p.buildings or p.unrest):
            problems.append(f"R-BATTLE-7: neutral {name} still holds armies/buildings/unrest")
        if p.owner is not None and not 0 <= p.owner < len(state.players):
            problems.append(f"{name}: owner {p.owner} is not a seat")
        if p.owner is not None and p.armies == 0 and not (
                state.battle is not None and state.battle.province == name):
            problems.append(f"{name}: owned by seat {p.owner} with no army")
    return problems
