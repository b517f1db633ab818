"""The other players' messages: the checks every kind shares, then the kind's receiver.

Why in one place: whatever its kind, a message must come from the human seat it names,
for a step not long applied nor too far ahead, with the same hash as any other message
of that seat for that step, and fit the current decision (`TURN_RULES`); only
then does the receiver of its kind (the table built by `net.lockstep.core.Lockstep`)
look at it. What the receiver accepts is filed (`net.lockstep.heard`) and its hash
compared (`net.lockstep.desync`).

Tests: tests/net/lockstep/test_core.py, tests/net/trust/test_hostile.py,
tests/net/table/test_relays.py (relayed inputs).
"""

from __future__ import annotations

import logging
from typing import Callable

from net.lockstep.core_view import InputsCore, Receiver
from net.lockstep.desync import DesyncWatch
from net.lockstep.engine import PendingDecision
from net.lockstep.heard import Heard
from net.lockstep.plan_messages import PLAN_KINDS
from net.lockstep.step_inbox import STALE_GRACE, Offence, Wire
from sim.state import DecisionKind

log = logging.getLogger("net.lockstep.core")

AHEAD_LIMIT = 400     # messages further ahead than this are an offence

# what a relay may carry: every signed lockstep message a seat originates (a chain
# commitment is relayed by the session itself). Signed, each proves itself from any
# relayer; one kind left out here stalls a player that hears a seat only through relays.
RELAYABLE = frozenset({"LinkRevealed", "CommandSent", "TowerVoted", "HashStated",
                       "GameFinished", *PLAN_KINDS})


# ------------------------------------------------------------------ the turn rules
# Which message kinds the current decision allows, one rule per kind: a message for the
# current step that the step cannot use (a tower vote while a plan is pending, a command
# out of turn) is an offence before any receiver looks at it; each rule says why in the
# sentence the offender's log gets. Kinds without a rule (`HashStated`, `GameFinished`)
# are welcome at any step.

# (kind, decision, sender's seat) -> the offence, or None when the kind fits the turn
TurnRule = Callable[[str, PendingDecision, int], "str | None"]


def _plan_seat(kind: str, d: PendingDecision, seat: int) -> str | None:
    if d.kind != DecisionKind.PLAN or seat not in d.seats:
        return f"{kind} from seat {seat} but the step is {d.kind} for {list(d.seats)}"
    return None


def _echo(kind: str, d: PendingDecision, seat: int) -> str | None:
    return f"commitment echo but the step is {d.kind}" if d.kind != DecisionKind.PLAN else None


def _link(kind: str, d: PendingDecision, seat: int) -> str | None:
    if d.kind == DecisionKind.PLAN and seat in d.seats:
        return f"seat {seat} must reveal its link with its bid"
    if d.kind not in (DecisionKind.CHANCE, DecisionKind.PLAN):
        return f"LinkRevealed but the step is {d.kind}"
    return None


def _vote(kind: str, d: PendingDecision, seat: int) -> str | None:
    return f"tower vote but the step is {d.kind}" if d.kind != DecisionKind.TOWER else None


def _opening(kind: str, d: PendingDecision, seat: int) -> str | None:
    if d.kind != DecisionKind.OPEN or seat not in d.seats:
        return f"seat {seat} opened a card but the step is {d.kind} for {list(d.seats)}"
    return None


def _command(kind: str, d: PendingDecision, seat: int) -> str | None:
    if d.kind in (DecisionKind.CHANCE, DecisionKind.PLAN, DecisionKind.OVER, DecisionKind.TOWER, DecisionKind.OPEN) or seat not in d.seats:
        return f"command from seat {seat} out of turn ({d.kind} for {list(d.seats)})"
    return None


TURN_RULES: dict[str, TurnRule] = {
    "PlanCommitted": _plan_seat, "PlanUnlocked": _plan_seat, "BidOpened": _plan_seat,
    "CommitsEchoed": _echo, "LinkRevealed": _link, "TowerVoted": _vote,
    "FieldOpened": _opening, "CommandSent": _command,
}


def turn_offence(kind: str, d: PendingDecision, seat: int) -> str | None:
    """Why a `kind` message from `seat` does not fit decision `d`, or None."""
    rule = TURN_RULES.get(kind)
    return rule(kind, d, seat) if rule is not None else None


class Inputs:
    """Checks a message from a seat and hands it to the receiver of its kind."""

    def __init__(self, core: InputsCore, heard: Heard, desync: DesyncWatch,
                 receivers: dict[str, Receiver]) -> None:
        self.core = core
        self.heard = heard
        self.desync = desync
        self.receivers = receivers

    def receive(self, seat: int, msg: Wire, resent: bool = False) -> None:
        """A checked game message from the player owning `seat`. Raises Offence.

        `resent`: the connection is a rejoin, whose first messages may repeat steps we
        already applied; those are ignored. Otherwise an old step is a replay.
        """
        core = self.core
        if core.following:
            raise Offence("a spectator takes no lockstep messages")
        kind = msg["type"]
        if kind == "ChainCommitted":
            raise Offence("chain commitment after the game started")
        if msg["seat"] != seat:
            raise Offence(f"forged seat: message for seat {msg['seat']} from seat {seat}")
        if core.kinds.get(seat) != "human" or seat in core.bots:
            raise Offence(f"seat {seat} is not a human seat in play")
        step = msg["step"]
        if kind == "HashStated" and step < core.step:
            self.desync.compare_logged(seat, step, msg["hash"])
            return
        if step < core.step:
            earlier = core.earlier(step, seat, kind)
            if earlier == msg:
                # the same signed message again: it reached me through another player
                # first (`net.table.missed_inputs`), or was resent; nothing to do
                log.info("ignored %s for step %d from seat %d: already had it", kind, step,
                         seat)
                return
            if earlier is not None and earlier != msg and core.host.cheated(seat, earlier, msg):
                return      # a second, different signed message for a step I applied: a proof
            if resent and step >= core.step - STALE_GRACE:
                log.info("ignored stale %s for step %d from seat %d (now at %d)",
                         kind, step, seat, core.step)
                return
            raise Offence(f"replayed {kind} for step {step}, long applied (now {core.step})")
        if step > core.step + AHEAD_LIMIT:
            raise Offence(f"{kind} for step {step} is too far ahead of step {core.step}")
        receiver = self.receivers.get(kind)
        if receiver is None:
            raise Offence(f"unexpected {kind}")
        box = core.box(step)
        known = box.hashes.get(seat)
        if known is not None and known != msg["hash"]:
            raise Offence(f"seat {seat} sent two different hashes for step {step}")
        if step == core.step:
            problem = turn_offence(kind, core.decision(), seat)
            if problem is not None:
                raise Offence(problem)
        if not receiver(seat, msg, box, step):
            return
        self.heard.file(step, seat, msg)
        box.hashes[seat] = msg["hash"]          # kept only once the message was accepted
        if step == core.step:
            self.desync.compare(seat, msg.get("hash"))
        core.advance()

    def receive_relayed(self, seat: int, msg: Wire) -> None:
        """A dropped seat's message, relayed by another player (its signature was checked
        by the session, so it proves itself whoever relays it).

        Why: a peer that dropped mid-broadcast may have reached some players and not
        others; without the relay the ones that got its input would be a step ahead of a
        take-over and the table would fork.
        """
        if msg["type"] not in RELAYABLE or msg["seat"] != seat:
            raise Offence(f"relayed {msg['type']} for seat {msg.get('seat')} is not relayable")
        if seat in self.core.bots or msg["step"] < self.core.step:
            return
        if msg["type"] == "BidOpened" and seat not in self.core.box(msg["step"]).commits:
            return                  # nothing to check it against (yet)
        try:
            self.receive(seat, msg, resent=True)
        except Offence as exc:      # an honest relay repeats what the seat really sent
            raise Offence(f"relayed input refused: {exc}") from None
