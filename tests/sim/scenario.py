"""Helpers that build game states at a chosen decision point for the rule tests.

A `State` is a plain value, so a scenario is built by driving a real game to a decision
point (chance from fixed labels, bots for seats) and then editing fields directly. Field
edits keep every cube accounted for (R-COMP-6) so `sim.invariants.violations` stays a
useful check after the engine has acted on the scenario.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterable

from sim import bots, game
from sim.tower import drop as tower
from sim.commands import (ACTIONS, PLAN_FIELDS, Chance, ChooseMove, Command, IllegalCommand,
                          OrderRevolts, PickSpecial, SubmitPlan, TowerSettled)
from sim.game import GameConfig, apply, new_game, pending, state_hash
from sim.invariants import violations
from sim.state import COLOURS, PEASANT, Decision, DecisionKind, Plan, RoundProgress, State
from sim.tower.drop import Cube, TowerContents


def seed(label: str | int) -> bytes:
    """A fixed 32-byte chance seed named by a label."""
    return hashlib.sha256(b"rule-tests/" + str(label).encode()).digest()


def chance(label: str | int = "x") -> Chance:
    return Chance(seed(label))


def feed_chance(state: State, label: str = "c", until: Callable[[State], bool] | None = None,
                events: list | None = None) -> State:
    """Apply labelled Chance commands (and the physics' drops) while the game waits for
    them (and `until` is false)."""
    n = 0
    while pending(state).kind in ("chance", "tower") and not (until and until(state)):
        d = pending(state)
        state, ev = apply(state, chance(f"{label}/{n}") if d.kind == "chance" else tower.settle(d))
        if events is not None:
            events.extend(ev)
        n += 1
    return state


def drive(state: State, until: Callable[[State], bool], label: str = "d", bot: str = "heuristic",
          limit: int = 2000, events: list | None = None) -> State:
    """Answer every decision (chance by label, seats by a bot) until `until(state)`."""
    for n in range(limit):
        if until(state):
            return state
        d = pending(state)
        if d.kind == "over":
            raise AssertionError("game ended before the scenario point was reached")
        if d.kind == "chance":
            cmd: Command = chance(f"{label}/{n}")
        elif d.kind == "tower":
            cmd = tower.settle(d)
        else:
            cmd = bots.choose(state, d.seats[0], bot, seed(f"{label}/bot/{n}"))
        state, ev = apply(state, cmd)
        if events is not None:
            events.extend(ev)
    raise AssertionError("scenario point not reached")


def kind_is(kind: str, purpose: str | None = None) -> Callable[[State], bool]:
    def check(state: State) -> bool:
        d = pending(state)
        return d.kind == kind and (purpose is None or d.purpose == purpose)
    return check


def start(players: int = 4, side: str = "sun", setup: str = "beginner") -> State:
    state, _ = new_game(GameConfig(players, side, setup))
    return state


def at_plan(players: int = 4, side: str = "sun", setup: str = "beginner",
            label: str = "plan") -> State:
    """The first round's planning decision (setup, tower fill, events and round laid out)."""
    return drive(start(players, side, setup), kind_is("plan"), label=label)


# ----------------------------------------------------------------------------- state edits

def place(state: State, name: str, owner: int | None, armies: int = 0,
          buildings: Iterable[str] = (), unrest: int = 0) -> None:
    """Set a province, moving armies between board and supplies so cubes are conserved."""
    prov = state.provinces[name]
    if prov.owner is not None:
        state.players[prov.owner].supply += prov.armies
    prov.owner, prov.armies = owner, 0
    if owner is not None:
        state.players[owner].supply -= armies
        assert state.players[owner].supply >= 0
        prov.armies = armies
    order = ("palace", "temple", "theatre")
    prov.buildings = tuple(b for b in order if b in set(buildings))
    prov.unrest = unrest


def clear_owner(state: State, seat: int, keep: Iterable[str] = ()) -> None:
    """Make every province of `seat` except `keep` neutral (armies back to supply)."""
    keep = set(keep)
    for name in state.cards_of(seat):
        if name not in keep:
            place(state, name, None)


def plan(seat: int, bid: int | str | None = 0, **actions: str) -> SubmitPlan:
    """A plan from keyword actions, e.g. plan(0, 2, tax="Settsu", deploy5="Omi")."""
    return SubmitPlan(seat, tuple(actions.get(a) for a in ACTIONS), bid)


def full_plan(state: State, seat: int, bid: int | str | None = 0,
              **actions: str) -> SubmitPlan:
    """A legal plan (R-PLAN-3) with the given actions; other fields get spare cards."""
    chosen = {a: actions.get(a) for a in ACTIONS}
    used = {p for p in chosen.values() if p} | ({bid} if isinstance(bid, str) else set())
    spare = [n for n in state.cards_of(seat) if n not in used]
    money_left = 5 - (1 if isinstance(bid, int) else 0)
    for a in ACTIONS:
        filled = sum(1 for p in chosen.values() if p)
        if 10 - filled <= money_left or not spare:
            break
        if chosen[a] is None:
            chosen[a] = spare.pop(0)
    return SubmitPlan(seat, tuple(chosen[a] for a in ACTIONS), bid)


def begin_exec(state: State, plans: dict[int, SubmitPlan], order: list[int] | None = None,
               event: int | None = None, actions: list[str] | None = None,
               specials: dict[int, str] | None = None, label: str = "exec") -> tuple[State, list]:
    """Jump a planning state straight to executing actions with everything chosen.

    Plans are set without the planning checks (seats not in `plans` plan nothing), turn
    order is `order`, the round's event is `event`, the action row is `actions` (all face
    up), specials per seat as given. Then the engine runs until its first decision.
    """
    s = state.copy()
    n = len(s.players)
    order = list(range(n)) if order is None else order
    specials = specials or {}
    for seat in range(n):
        p = s.players[seat]
        given = plans.get(seat, SubmitPlan(seat, (None,) * 10, 0))
        p.plan = Plan(tuple(given.actions), given.bid, (True,) * len(PLAN_FIELDS),
                      (False,) * len(PLAN_FIELDS), tuple(s.cards_of(seat)), p.money)
        p.position = order.index(seat) + 1
        p.special = specials.get(seat)
        p.bid_paid = 0
    s.turn_order = list(order)
    s.ranking = list(order)
    s.current_event = event
    if event is None:               # no event: none has an effect (nor leaves at round end)
        s.year_events = s.year_events[:3]
    elif event not in s.year_events:
        s.year_events = [event] + [e for e in s.year_events if e != event][:3]
    s.action_row = list(actions or ACTIONS)
    s.hidden_actions = [a for a in ACTIONS if a not in s.action_row]
    s.stage = "exec"
    s.round = RoundProgress(pick=n, pick_order=tuple(order), step="start")
    s.decision = Decision(DecisionKind.CHANCE, (), "exec-scenario")
    events: list = []
    game.advance(s, events)
    return s, events


def answer(state: State, moves: dict | None = None, label: str = "ans",
           until: Callable[[State], bool] | None = None, events: list | None = None,
           tower_out: dict[int, int] | list[dict[int, int]] | None = None) -> State:
    """Continue a scenario: chance by label, moves from `moves` {(seat, from): (target, count)},
    tower drops by the physics or, with `tower_out`, by a stated outcome (one for every
    drop, or a list used in turn).

    Stops at the first decision it has no answer for, or when `until` holds.
    """
    moves = moves or {}
    outs = list(tower_out) if isinstance(tower_out, list) else None
    for n in range(500):
        if until and until(state):
            return state
        d = pending(state)
        cmd: Command
        if d.kind == "tower":
            if outs is not None:
                cmd = stated(state, outs.pop(0)) if outs else tower.settle(d)
            elif isinstance(tower_out, dict):
                cmd = stated(state, tower_out)
            else:
                cmd = tower.settle(d)
        elif d.kind == "chance":
            cmd = chance(f"{label}/{n}")
        elif d.kind == "move" and (d.seats[0], d.detail["from"]) in moves:
            target, count = moves[(d.seats[0], d.detail["from"])]
            cmd = ChooseMove(d.seats[0], target, count)
        else:
            return state
        state, ev = apply(state, cmd)
        if events is not None:
            events.extend(ev)
    raise AssertionError("scenario did not settle")


def of(events: list, name: str) -> list[dict]:
    return [e for e in events if e["event"] == name]


def clean(state: State) -> None:
    problems = violations(state)
    assert not problems, problems


def expect_illegal(state: State, command: Command, rule: str) -> IllegalCommand:
    """The command is refused naming `rule`, and the state (value and object) is untouched."""
    import pytest
    before = state_hash(state)
    with pytest.raises(IllegalCommand) as info:
        apply(state, command)
    assert info.value.rule == rule, f"{info.value} is refused under {info.value.rule}, not {rule}"
    assert "R-" not in str(info.value), f"a player reads a rule id: {info.value}"
    assert state_hash(state) == before
    return info.value


# ----------------------------------------------------------------------------- tower control

def stated(state: State, out: dict[int, int]) -> TowerSettled:
    """The pending drop's outcome stated directly: `out` {colour: n} comes out, everything
    else that went in stays inside (placeholder poses), so cubes stay conserved (R-COMP-6)."""
    counts = dict(state.tower.counts())
    for c, n in enumerate(state.held()):
        counts[c] = counts.get(c, 0) + n
    for c, n in out.items():
        counts[c] = counts.get(c, 0) - n
        assert counts[c] >= 0, f"stated drop: {n} of colour {c} cannot come out"
    cubes: list[Cube] = []   # placeholder poses a cube's side apart (none overlap: R-BATTLE-1)
    for c in sorted(counts):
        cubes += [Cube(c, 500 + 1100 * (k % 10), 1000 + 1100 * (k // 10), 0)
                  for k in range(len(cubes), len(cubes) + counts[c])]
    return TowerSettled(tuple((c, n) for c, n in sorted(out.items()) if n),
                        TowerContents(tuple(cubes)))


def drop(state: State, out: dict[int, int], label: str = "drop") -> tuple[State, list]:
    """The pending drop: its seed by chance, then `out` as its stated outcome."""
    state, events = apply(state, chance(label))
    assert pending(state).kind == "tower", pending(state)
    state, more = apply(state, stated(state, out))
    return state, events + more


def held(state: State) -> dict[int, int]:
    """Cubes in hand for the coming drop, {colour: n} without zeros."""
    return {c: n for c, n in enumerate(state.held()) if n}


def extras(state: State) -> dict[str, int]:
    assert state.battle is not None, "no battle is under way"
    return dict(state.battle.extras)


def tray(**counts: int) -> list[int]:
    """A tray list from keywords s0..s4 and peasant."""
    t = [0] * COLOURS
    for k, v in counts.items():
        t[PEASANT if k == "peasant" else int(k[1:])] = v
    return t


__all__ = ["answer", "at_plan", "begin_exec", "chance", "clean", "clear_owner", "drive",
           "drop", "expect_illegal", "extras", "held", "stated", "feed_chance", "full_plan", "kind_is", "of",
           "place", "plan", "seed", "start", "tray", "OrderRevolts", "PickSpecial"]


# ----------------------------------------------------------------------------- whole games

_PLAYED: dict = {}


def played(players: int = 4, side: str = "sun", setup: str = "beginner",
           label: str = "game") -> tuple[list[State], list[dict]]:
    """A whole heuristic-bot game (cached per process): every state reached, all events.

    Whole games are the slow part of this suite (~0.5 s), so the rule tests share a few.
    """
    key = (players, side, setup, label)
    if key not in _PLAYED:
        state, events = new_game(GameConfig(players, side, setup))
        states = [state]
        n = 0
        while pending(state).kind != "over":
            d = pending(state)
            if d.kind == "chance":
                cmd: Command = chance(f"{label}/{n}")
            elif d.kind == "tower":
                cmd = tower.settle(d)
            else:
                cmd = bots.choose(state, d.seats[0], "heuristic", seed(f"{label}/bot/{n}"))
            state, ev = apply(state, cmd)
            states.append(state)
            events.extend(ev)
            n += 1
        _PLAYED[key] = (states, events)
    return _PLAYED[key]


def begin_winter(state: State, leftover: int, order: list[int] | None = None, year: int = 2,
                 rice: dict[int, int] | None = None) -> tuple[State, list]:
    """Jump to the start of winter with `leftover` as the year's last event card."""
    s = state.copy()
    n = len(s.players)
    s.turn_order = list(range(n)) if order is None else list(order)
    s.year, s.season, s.stage = year, 3, "winter"
    s.year_events = [leftover]
    s.current_event = None
    s.action_row, s.hidden_actions, s.specials_row = [None] * 10, [], []
    s.round, s.winter = None, None
    for seat, p in enumerate(s.players):
        p.plan, p.special, p.position, p.bid_paid = None, None, None, 0
        if rice is not None:
            p.rice = rice.get(seat, 0)
    s.decision = Decision(DecisionKind.CHANCE, (), "winter-scenario")
    events: list = []
    game.advance(s, events)
    return s, events
