"""Battles and revolts through the tower: R-BATTLE-1...10 (counting: `sim/rules/battle_count.py`).

A battle gathers the cubes to throw (the attacker's, the defender's, peasants, the
tray's), waits for the drop's seed (chance), then for the drop's outcome (`TowerSettled`,
computed by `sim.tower.drop.settle` and agreed among peers), then counts the tray.

Tests: tests/sim/rules/test_battle.py.
"""

from __future__ import annotations


from sim.events import BattleResolved, BattleSide, DropReason, recorded
from sim.rules.battle_count import count_battle
from sim.cards import cards
from sim.chance import ChanceStream
from sim.commands import TowerSettled
from sim.rules.flow import Events, give_back, wait_chance
from sim.progress import evolve
from sim.progress import BattleKind, BattleResult
from sim.state import (COLOURS, NO_CUBES, PEASANT, Battle, BattleExtra, Decision, DecisionKind,
                       State, colour_map)

_REASON: dict[str, DropReason] = {"fill": "fill", "revolt": "revolt", "attack": "battle", "neutral": "battle"}


def settled(s: State) -> bool:
    return s.battle is not None and s.battle.settled


def drop_decision(s: State, reason: str | None = None) -> Decision:
    """Wait for the drop's seed, then for its outcome."""
    b = s.battle
    assert b is not None                     # a drop waits only for a battle under way
    reason = reason or _REASON[b.kind]
    detail = {"reason": reason}
    if b.province is not None:
        detail["province"] = b.province
    if b.seed is None:
        return wait_chance("tower", **detail)
    return Decision(DecisionKind.TOWER, (), reason,
                    {**detail, "seed": b.seed, "thrown": list(b.held), "before": s.tower.to_wire()})


def on_tower_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    assert s.battle is not None
    s.battle = evolve(s.battle, seed=bytes(seed))


def on_settled(s: State, cmd: TowerSettled, events: Events) -> None:
    """R-BATTLE-1: the thrown cubes (the tray's among them) went in; some came out."""
    b = s.battle
    assert b is not None and b.seed is not None    # the seed came before the outcome
    before = s.tower
    s.tower = cmd.contents
    out = cmd.out_counts()
    for colour, n in out.items():
        s.tray[colour] += n
    if recorded(events):     # (not for a look-ahead: `Unrecorded`)
        events.append({
            "event": "TowerDropped", "reason": _REASON[b.kind],
            "thrown": colour_map(b.held), "out": colour_map(out),
            "inside_after": colour_map(cmd.contents.counts()),
            "decided_by": cmd.decided_by,
            "replay": {"before": before.to_wire(),
                       "thrown": [[c, n] for c, n in enumerate(b.held) if n],
                       "seed": b.seed.hex()}})
    s.battle = evolve(b, held=NO_CUBES, thrown=b.held, settled=True)


def _throw_tray(s: State, held: list[int]) -> tuple[int, ...]:
    for c in range(COLOURS):
        held[c] += s.tray[c]
    s.tray = [0] * COLOURS
    return tuple(held)


def begin_attack(s: State, seat: int, origin: str, target: str, count: int, action: str) -> None:
    """R-BATTLE-2: gather the cubes thrown into the tower, the tray's among them."""
    prov = s.provinces[target]
    attacker = s.players[seat]
    event = cards().event(s.current_event)
    held = list(NO_CUBES)
    held[seat] = count
    extras: list[tuple[BattleExtra, int]] = []
    kind: BattleKind
    if attacker.special == "attack" and attacker.supply > 0:      # R-SPECIAL-1
        attacker.supply -= 1
        held[seat] += 1
        extras.append(("attack_card", 1))
    defender = prov.owner
    if defender is None:
        wanted = event.bound if event and event.effect == "neutral_peasants" else 1
        peasants = min(wanted, s.peasant_supply)
        s.peasant_supply -= peasants
        held[PEASANT] += peasants
        kind = "neutral"
    else:
        kind = "attack"
        held[defender] += prov.armies
        prov.armies = 0  # R-BATTLE-9
        dplayer = s.players[defender]
        if dplayer.special == "defence" and dplayer.supply > 0:
            dplayer.supply -= 1
            held[defender] += 1
            extras.append(("defence_card", 1))
        if (event and event.effect == "palace_defence" and "palace" in prov.buildings
                and dplayer.supply > 0):
            dplayer.supply -= 1
            held[defender] += 1
            extras.append(("palace_event", 1))
    s.battle = Battle(kind=kind, province=target, attacker=seat, defender=defender,
                      origin=origin, action=action, unrest=prov.unrest,
                      held=_throw_tray(s, held), extras=tuple(extras))


def begin_revolt(s: State, name: str, extra: int, then: str) -> None:
    """R-BATTLE-4: the owner's armies, a peasant per unrest marker (+ winter extras), the tray."""
    prov = s.provinces[name]
    owner = prov.owner
    assert owner is not None                 # only owned provinces revolt
    held = list(NO_CUBES)
    held[owner] = prov.armies
    prov.armies = 0
    peasants = min(prov.unrest + extra, s.peasant_supply)
    s.peasant_supply -= peasants
    held[PEASANT] = peasants
    s.battle = Battle(kind="revolt", province=name, attacker=PEASANT, defender=owner,
                      action=then, unrest=prov.unrest, held=_throw_tray(s, held),
                      extras=(("peasants", peasants),))


def resolve(s: State, events: Events) -> tuple[Battle, BattleResult]:
    """Count the tray (R-BATTLE-3...8) and settle the province. Returns the battle and
    its result (attacker / defender / draw)."""
    bt = s.battle
    assert bt is not None
    kind, name = bt.kind, bt.province
    attacker, defender = bt.attacker, bt.defender
    assert name is not None and attacker is not None     # a fought battle has both
    assert kind != "fill"                                 # the set-up's drop is no battle
    prov = s.provinces[name]
    outcome = count_battle(kind, attacker, defender, s.tray, bt.unrest)
    out = list(s.tray)
    for colour, n in outcome.returned.items():
        give_back(s, colour, n)
    s.tray = list(outcome.tray_after)
    new_owner = prov.owner
    if outcome.result == "draw" or (kind == "revolt" and outcome.result == "attacker"):
        neutralise(s, name)  # R-BATTLE-7 / R-BATTLE-8
        new_owner = None
    elif outcome.result == "attacker":
        if prov.owner is not None and prov.owner != attacker:
            mark_changed(s, name)  # R-EXEC-4
        prov.owner, prov.armies = attacker, outcome.survivors
        new_owner = attacker
    else:
        prov.armies = outcome.survivors if kind != "neutral" else 0

    if recorded(events):
        resolved: BattleResolved = {
            "event": "BattleResolved", "kind": kind, "province": name,
            "attacker": _side(attacker), "defender": _side(defender), "unrest": bt.unrest,
            "thrown": colour_map(bt.thrown), "out": colour_map(out),
            "attacker_count": outcome.attacker_count, "defender_count": outcome.defender_count,
            "result": outcome.result, "survivors": outcome.survivors, "new_owner": new_owner}
        for extra, n in bt.extras:
            resolved[extra] = n
        events.append(resolved)
    s.battle = None
    return bt, outcome.result


def _side(colour: int | None) -> BattleSide:
    """A battle's side as the log names it: a seat, or "peasant" (a neutral defender too)."""
    return "peasant" if colour == PEASANT or colour is None else colour


def mark_changed(s: State, name: str) -> None:
    """R-EXEC-4: the card moves at once; the old owner's action there lapses this round."""
    if s.round is not None and name not in s.round.changed:
        s.round = evolve(s.round, changed=tuple(sorted(s.round.changed + (name,))))


def neutralise(s: State, name: str) -> None:
    prov = s.provinces[name]
    if prov.owner is not None:
        mark_changed(s, name)
    prov.owner, prov.armies, prov.buildings, prov.unrest = None, 0, (), 0
