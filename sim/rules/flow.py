"""Small pieces every rule module uses: waiting for a decision, giving cubes back, and
the two records of an action's outcome (done or lapsed).

Why here: a stage either goes on (returns the next stage's name) or waits (returns a
`Decision`); these helpers build the waits so every module spells them the same way.

Tests: tests/sim/rules/ (every rule test goes through these helpers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Unpack

from sim.events import ActionDone, ActionLapsed, ActionOutcome, Events, recorded
from sim.snapshot import public_state
from sim.state import (PEASANT, Decision, DecisionKind, Plan, RoundProgress, Stage, State,
                       WinterProgress)

Next = Stage | Decision

__all__ = ["Events", "Next", "current_round", "current_winter", "done", "give_back", "lapse",
           "locked_plan", "snapshot", "wait", "wait_chance"]


def wait_chance(purpose: str, **detail: Any) -> Decision:
    """Wait for a `Chance` seed: something random becomes public now."""
    return Decision(DecisionKind.CHANCE, (), purpose, detail)


def wait(kind: DecisionKind, seats: Iterable[int], purpose: str = "", **detail: Any) -> Decision:
    """Wait for one or several seats."""
    return Decision(kind, tuple(seats), purpose, detail)


def current_round(s: State) -> RoundProgress:
    """The round under way: the stages from the bids to the round's end run inside one."""
    assert s.round is not None
    return s.round


def current_winter(s: State) -> WinterProgress:
    assert s.winter is not None
    return s.winter


def locked_plan(s: State, seat: int) -> Plan:
    """A seat's plan once planning is over (every seat locked one, R-PLAN-5)."""
    plan = s.players[seat].plan
    assert plan is not None
    return plan


def give_back(s: State, colour: int, n: int) -> None:
    """Cubes go back to their owner's supply (peasants to the general supply)."""
    if n == 0:
        return
    if colour == PEASANT:
        s.peasant_supply += n
    else:
        s.players[colour].supply += n


def lapse(events: Events, seat: int, action: str, province: str, rule: str, reason: str) -> None:
    lapsed: ActionLapsed = {"event": "ActionLapsed", "seat": seat, "action": action,
                            "province": province, "rule": rule, "reason": reason}
    events.append(lapsed)


def done(events: Events, seat: int, action: str, province: str, paid: int = 0,
         money: int = 0, rice: int = 0, armies: int = 0,
         **outcome: Unpack[ActionOutcome]) -> None:
    """The record of an action carried out; `outcome`'s keys follow, in the caller's order."""
    record: ActionDone = {"event": "ActionDone", "seat": seat, "action": action,
                          "province": province, "paid": paid, "money_gained": money,
                          "rice_gained": rice, "armies_placed": armies, **outcome}
    events.append(record)


def snapshot(s: State, events: Events) -> None:
    """The public state as a Snapshot event (left out of a look-ahead's `Unrecorded`)."""
    if recorded(events):
        events.append({"event": "Snapshot", "state": public_state(s)})
