"""The hard bot's candidates for a plan or a move (`search.ranked` scores them in sampled
futures). Why few and sensible rather than every legal choice: a plan has thousands of
legal forms, and the search's futures are few; candidates near the normal bot's choice,
each differing in one idea (a bid, a habit, a runner-up pair), are where a better plan is
likely and where the paired test can see it.

Tests: tests/sim/bots/test_search.py, tests/sim/bots/test_battle_risk.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sim.bots import heuristic, normal
from sim.bots.battle_risk import hopeless_fields, outnumbered
from sim.chance import ChanceStream
from sim.commands import ACTIONS, ChooseMove, Command, SubmitPlan
from sim.legal import plan_problems
from sim.state import State

if TYPE_CHECKING:   # search imports this module; the settings are only read here
    from sim.bots.search import Settings


def plan_candidates(seen: State, seat: int, rng: ChanceStream, st: Settings) -> list[Command]:
    """The normal plan first; then other bids; the normal plan with a habit switched off
    (no winter reserve); its next-best neighbours (each of its chosen (action, province)
    pairs ruled out in turn, so the greedy picks the runner-up there); the normal plan
    without the majority count; the heuristic's plan. With `safe`, a candidate whose
    battle card could force a hopeless attack is left out (`battle_risk`)."""
    off = st.normal_off
    out: list[Command] = []

    def add(cmd: SubmitPlan) -> None:
        if len(out) >= st.plan_candidates or cmd in out or plan_problems(seen, cmd):
            return
        if st.safe and out and hopeless_fields(seen, seat, cmd.action_map()):
            return
        out.append(cmd)

    base = normal.plan(seen, seat, rng, off=off)
    add(base)
    money = seen.players[seat].money
    for bid in st.bids:
        if bid != base.bid and bid <= money:
            add(replace(base, bid=bid) if not isinstance(base.bid, str)
                else _with_money_bid(base, bid))
    add(normal.plan(seen, seat, rng, off=off | {"rice"}))
    chosen = [(a, c) for a, c in zip(ACTIONS, base.actions) if c is not None]
    for pair in chosen[:st.plan_candidates]:
        add(normal.plan(seen, seat, rng, off=off, forbid=frozenset({pair})))
    add(normal.plan(seen, seat, rng, off=off | {"majority"}))
    add(heuristic.plan(seen, seat, rng))
    return out


def _with_money_bid(plan: SubmitPlan, bid: int) -> SubmitPlan:
    """A province-card bid swapped for money: the card goes on a free action field."""
    actions = list(plan.actions)
    card = plan.bid
    assert isinstance(card, str)             # the caller swaps province-card bids only
    if None in actions:
        actions[actions.index(None)] = card
    return SubmitPlan(plan.seat, tuple(actions), bid)


def move_candidates(seen: State, seat: int, rng: ChanceStream, st: Settings) -> list[Command]:
    """The heuristic's move first; then staying (when allowed) and each target with all or
    half the armies, the weakest target first. With `safe`, an attack while outnumbered
    (`battle_risk.outnumbered`) is left out whenever anything else is legal (issue 29)."""
    d = seen.decision.detail
    first = heuristic.move(seen, seat, rng)
    out: list[Command] = [first]
    options: list[Command] = []
    if d["optional"]:
        options.append(ChooseMove(seat, None, 0))
    for target in sorted(d["targets"], key=lambda t: (seen.provinces[t].armies, t)):
        most = d["targets"][target]
        for count in sorted({most, (most + 1) // 2}, reverse=True):
            options.append(ChooseMove(seat, target, count))
    for cmd in options:
        if cmd not in out and len(out) < st.move_candidates:
            out.append(cmd)
    if st.safe:   # no attack while outnumbered when anything else is legal (issue 29)
        fair = [c for c in out + options if isinstance(c, ChooseMove) and (
            c.target is None or not outnumbered(seen, seat, c.target, c.count))]
        if fair:
            kept: list[Command] = []
            for c in fair:
                if c not in kept and len(kept) < st.move_candidates:
                    kept.append(c)
            return kept
    return out


__all__ = ["move_candidates", "plan_candidates"]
