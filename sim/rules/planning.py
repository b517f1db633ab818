"""Planning: R-PLAN-1...5, and the ruling R-FORFEIT-1 (docs/sim-api.md).

Every player fills their action fields and bid field in secret. A plan arrives whole
(`SubmitPlan`, a local game: the engine holds it but `sim.view` shows no seat another's
unturned card) or as a bare commitment (`CommitPlan`, a network game: each field is opened
by its owner with `OpenField` only when that card is turned, R-PLAN-5). Once the round's
last action is done every card has been turned, and the whole plan goes into the record.
A card nobody can open (its owner left; the bot that took the seat over never held the
plan) is turned as a money card: `ForfeitField`, R-FORFEIT-1.

Tests: tests/sim/rules/test_plan.py, tests/sim/rules/test_reveal.py.
"""

from __future__ import annotations

from sim.commands import ACTIONS, PLAN_FIELDS, CommitPlan, ForfeitField, OpenField, SubmitPlan
from sim.rules.flow import Events, Next, locked_plan, wait
from sim.state import Decision, DecisionKind, Plan, State

_NONE_TURNED = (False,) * len(PLAN_FIELDS)


def stage_plan(s: State, events: Events) -> Next:
    waiting = tuple(i for i, p in enumerate(s.players) if p.plan is None)
    if waiting:
        return wait(DecisionKind.PLAN, waiting)
    return "event"


def on_submit(s: State, cmd: SubmitPlan, events: Events) -> None:
    player = s.players[cmd.seat]
    player.plan = Plan(tuple(cmd.actions), cmd.bid, (True,) * len(PLAN_FIELDS), _NONE_TURNED,
                       tuple(s.cards_of(cmd.seat)), player.money)
    events.append({"event": "PlanLocked", "seat": cmd.seat})


def on_commit(s: State, cmd: CommitPlan, events: Events) -> None:
    player = s.players[cmd.seat]
    player.plan = Plan((None,) * len(ACTIONS), None, _NONE_TURNED, _NONE_TURNED,
                       tuple(s.cards_of(cmd.seat)), player.money)
    events.append({"event": "PlanLocked", "seat": cmd.seat})


def on_open(s: State, cmd: OpenField, events: Events) -> None:
    s.players[cmd.seat].plan = locked_plan(s, cmd.seat).opened(PLAN_FIELDS.index(cmd.field),
                                                               cmd.card)


def on_forfeit(s: State, cmd: ForfeitField, events: Events) -> None:
    """R-FORFEIT-1 (a ruling): a card nobody can open counts as a money card."""
    index = PLAN_FIELDS.index(cmd.field)
    s.players[cmd.seat].plan = locked_plan(s, cmd.seat).opened(
        index, 0 if cmd.field == "bid" else None)
    events.append({"event": "FieldForfeited", "seat": cmd.seat, "field": cmd.field})


def field_to_open(seat: int, field: str) -> Decision:
    """Wait for the owner of a card that must be turned and that this state lacks."""
    return wait(DecisionKind.OPEN, (seat,), field, field=field)


def reveal_plans(s: State, events: Events) -> None:
    """The round's last action is done: each whole plan, for the record (PlanRevealed)."""
    for seat in range(len(s.players)):
        plan = locked_plan(s, seat)
        events.append({"event": "PlanRevealed", "seat": seat,
                       "actions": dict(zip(ACTIONS, plan.actions)),
                       "bid": "province" if isinstance(plan.bid, str) else plan.bid})
