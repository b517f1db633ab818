"""Could a planned battle card force an attack the bot can only lose?

Why (issue 29): a battle/move card must be carried out when it can (R-EXEC-3, R-EXEC-10).
From a province whose neighbours in play are all someone else's, the only legal moves are
attacks, so a card planned there while the numbers looked good becomes a forced attack
if the defender reinforces first (a deploy or a move into the target in an earlier slot).
Logs showed the old bots attacking outnumbered that way (3 armies against 7) and losing
nearly every time. A bot asks `forced_loss` before placing a battle card, as an action it
wants and as a filler. At the move itself, `outnumbered` counts the cubes that will go in
(the hard bot leaves such attacks out of its candidates when anything else is legal).

The check is pessimistic on purpose: every rival that owns a target may deploy the most
its chests pay for and move its best neighbouring stacks in before the card's slot, unless
the face-up slots show that no such action comes first. Neutral targets do not reinforce.
Integer arithmetic only (same answer on every machine).

Tests: tests/sim/bots/test_battle_risk.py.
"""

from __future__ import annotations

from sim.board import board
from sim.cards import cards as card_facts
from sim.state import PEASANT, State

REINFORCING = ("deploy5", "deploy3", "deploy1", "battle_a", "battle_b")
MOVING = ("deploy1", "battle_a", "battle_b")
HIDDEN = 5      # `normal.slot_of` for a face-down action card


def slot_of(state: State, action: str) -> int:
    """The action's slot if face up (0-4), else `HIDDEN` (order unknown)."""
    row = state.action_row
    return row.index(action) if action in row[:5] else HIDDEN


def _early(state: State, action: str) -> list[str]:
    """The reinforcing actions that may come before `action` (or at its slot, earlier in
    turn order: a rival's own battle move)."""
    mine = slot_of(state, action)
    out = []
    for other in REINFORCING:
        slot = slot_of(state, other)
        if other == action or mine == HIDDEN or slot == HIDDEN or slot < mine:
            out.append(other)
    return out


def reinforcement(state: State, target: str, early: list[str]) -> int:
    """The most armies the target's owner can add to it before the battle: one deploy (a
    province takes one action a round), and moves from its neighbouring stacks, one per
    moving action that may come first."""
    owner = state.provinces[target].owner
    if owner is None:
        return 0
    money = state.players[owner].money
    supply = state.players[owner].supply
    deploy = 0
    if "deploy5" in early and money >= 3:
        deploy = 6
    elif "deploy3" in early and money >= 2:
        deploy = 3
    elif "deploy1" in early and money >= 1:
        deploy = 1
    deploy = min(deploy, supply)
    stacks = sorted((state.provinces[n].armies - 1
                     for n in board().neighbours[state.config.side][target]
                     if n in state.provinces and state.provinces[n].owner == owner
                     and state.provinces[n].armies > 1), reverse=True)
    moves = sum(1 for a in MOVING if a in early)
    return deploy + sum(stacks[:moves])


def forced_loss(state: State, seat: int, name: str, action: str) -> bool:
    """Could `action` (battle_a or battle_b) planned in `name` leave an attack while
    outnumbered as the only legal move? False when the province has a neighbour of its own
    to move to, too few armies to move (the card lapses), or a target it outnumbers or
    matches even after the defender's most reinforcement before that slot."""
    provinces = state.provinces
    movable = provinces[name].armies - 1
    if movable < 1:
        return False
    around = [n for n in board().neighbours[state.config.side][name] if n in provinces]
    if any(provinces[n].owner == seat for n in around):
        return False
    early = _early(state, action)
    for target in around:
        p = provinces[target]
        defence = p.armies + (1 if p.owner is None else 0)
        if p.owner is not None:
            defence += 1 if "palace" in p.buildings else 0
        if movable >= defence + reinforcement(state, target, early):
            return False
    return bool(around)


def cubes_thrown(state: State, seat: int, target: str, count: int) -> tuple[int, int]:
    """(the attacker's cubes, the cubes counting for the defender) if `seat` attacked
    `target` with `count` armies now, before the tower (R-BATTLE-2, R-BATTLE-3): the
    `+1 attack` / `+1 defence` cards, the palace events, the peasants of a neutral
    province, and the tray's cubes of either side (its peasants count for the defender
    when the province has no unrest). All of it is public at the move."""
    p = state.provinces[target]
    me = state.players[seat]
    event = card_facts().event(state.current_event)
    tray = state.tray
    mine = count + tray[seat] + (1 if me.special == "attack" and me.supply > 0 else 0)
    theirs = tray[PEASANT] if p.unrest == 0 else 0
    if p.owner is None:
        theirs += event.bound if event and event.effect == "neutral_peasants" else 1
    else:
        owner = state.players[p.owner]
        theirs += p.armies + tray[p.owner]
        theirs += 1 if owner.special == "defence" and owner.supply > 0 else 0
        if event and event.effect == "palace_defence" and "palace" in p.buildings:
            theirs += 1
    return mine, theirs


def outnumbered(state: State, seat: int, target: str, count: int) -> bool:
    """Would attacking `target` with `count` armies now throw fewer cubes than count for
    the defender? (A move into one's own province is no attack.)"""
    if state.provinces[target].owner == seat:
        return False
    mine, theirs = cubes_thrown(state, seat, target, count)
    return mine < theirs


def hopeless_fields(state: State, seat: int, actions: dict[str, str | None]) -> list[str]:
    """The battle actions of a plan (action -> province or None) that `forced_loss` flags."""
    out = []
    for action in ("battle_a", "battle_b"):
        name = actions.get(action)
        if name is not None and forced_loss(state, seat, name, action):
            out.append(action)
    return out


__all__ = ["cubes_thrown", "forced_loss", "hopeless_fields", "outnumbered", "reinforcement",
           "slot_of"]
