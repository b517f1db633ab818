"""Plan messages from the other players: commitments, unlocks, echoes, opened cards.

Why apart from `net.lockstep.plan_steps`: receiving is where a cheat shows (two
different signed messages for one step, an opening that does not match its signed
commitment), so each handler here either files the message or proves the offence
(`on_cheated` with the pair); the plan steps then only read what was filed.

Tests: tests/net/lockstep/test_field_reveal.py, tests/net/lockstep/test_echo.py,
tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

from net.lockstep import commitment, echo
from net.lockstep.core_view import PlanMessagesCore, Receiver, receives
from net.lockstep.engine import PendingDecision
from net.lockstep.links import BeaconLinks
from net.lockstep.plan_steps import BID, PlanSteps
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from net.transport import message_records as records
from net.transport.message_records import (BidOpened, CommitsEchoed, FieldOpened, PlanCommitted,
                                           PlanUnlocked, as_wire)
from net.transport.messages import PLAN_FIELD_NAMES as FIELDS
from sim.state import DecisionKind

log = logging.getLogger("net.lockstep.core")

PLAN_KINDS = ("PlanCommitted", "PlanUnlocked", "CommitsEchoed", "BidOpened", "FieldOpened")


class PlanMessages:
    """Files the plan messages a step's inbox holds, refusing the ones that cheat."""

    def __init__(self, core: PlanMessagesCore, plans: PlanSteps, links: BeaconLinks) -> None:
        self.core = core
        self.plans = plans
        self.links = links

    def receivers(self) -> dict[str, Receiver]:
        """One receiver per plan kind; a harmless repeat is logged and goes no further."""
        handlers: dict[str, Receiver] = dict((
            receives(records.PlanCommitted, self.on_committed),
            receives(records.PlanUnlocked, self.on_unlocked),
            receives(records.CommitsEchoed, self.on_echoed),
            receives(records.BidOpened, self.on_bid_opened),
            receives(records.FieldOpened, self.on_field_opened)))
        return {kind: self._noting_repeats(kind, handle) for kind, handle in handlers.items()}

    @staticmethod
    def _noting_repeats(kind: str, handle: Receiver) -> Receiver:
        def receive(seat: int, msg: Wire, box: StepInbox, step: int) -> bool:
            if handle(seat, msg, box, step):
                return True
            log.info("ignored repeated %s for step %d from seat %d", kind, step, seat)
            return False
        return receive

    # ------------------------------------------------------------------ receivers
    def take_commit(self, box: StepInbox, seat: int, msg: Wire) -> bool:
        """A signed commitment of `seat` (sent by it, or carried by an echo)."""
        if msg["lock"] <= box.unlocked.get(seat, -1):
            return False                        # withdrawn already
        old = box.commits.get(seat)
        if old is not None:
            if old["lock"] == msg["lock"]:
                if old["fields"] != msg["fields"]:
                    self.core.host.cheated(seat, old, msg)
                    raise Offence(f"seat {seat} committed twice with different digests")
                return False
            if old["lock"] > msg["lock"]:
                return False
        own = box.echoes.get(seat, {}).get(seat)      # the seat's own lock in its echo
        if own is not None and msg["lock"] > own["lock"]:
            raise Offence(f"seat {seat} locked a new plan after every plan was locked")
        box.commits[seat] = as_wire(msg)
        self._compare_echoes(box, seat)
        return True

    def on_committed(self, seat: int, msg: PlanCommitted, box: StepInbox, step: int) -> bool:
        return self.take_commit(box, seat, as_wire(msg))

    def on_unlocked(self, seat: int, msg: PlanUnlocked, box: StepInbox, step: int) -> bool:
        own = box.echoes.get(seat, {}).get(seat)  # it echoed this lock: it held them all
        if own is not None and own["lock"] >= msg["lock"]:
            self.core.host.cheated(seat, box.echo_msgs.get(seat), msg)
            raise Offence(f"seat {seat} unlocked its plan after every plan was locked")
        held = box.commits.get(seat)
        if held is not None and held["lock"] > msg["lock"]:
            return False
        if held is not None and held["lock"] == msg["lock"]:
            del box.commits[seat]
        box.unlocked[seat] = max(box.unlocked.get(seat, -1), msg["lock"])
        return True

    def on_echoed(self, seat: int, msg: CommitsEchoed, box: StepInbox, step: int) -> bool:
        core = self.core
        content = self.echo_content(msg, step)
        before = box.echo_locks.get(seat)
        if before is not None and msg["lock"] <= before:
            if msg["lock"] == before and box.echoes.get(seat) != content:
                core.host.cheated(seat, box.echo_msgs.get(seat), msg)
                raise Offence(f"seat {seat} echoed two different sets of commitments")
            return False
        box.echoes[seat], box.echo_locks[seat], box.echo_msgs[seat] = content, msg["lock"], as_wire(msg)
        d = core.decision() if step == core.step else None
        for other, held in content.items():
            if other != core.my_seat and d is not None and d.kind == DecisionKind.PLAN \
                    and other in d.seats and other not in core.bots:
                mine = box.commits.get(other)
                if mine is None or mine["lock"] < held["lock"]:
                    try:        # a newer lock the echo carries, signed by its seat
                        self.take_commit(box, other, held)
                    except Offence as exc:
                        log.warning("echoed commitment of seat %d refused: %s", other, exc)
            self._compare_echoes(box, other)
        return True

    def on_bid_opened(self, seat: int, msg: BidOpened, box: StepInbox, step: int) -> bool:
        core = self.core
        if seat in box.reveals:
            if box.reveals[seat] != (msg["salt"], msg["card"]):
                core.host.cheated(seat, core.earlier(step, seat, "BidOpened"), msg)
                raise Offence(f"seat {seat} opened its bid twice differently")
            return False
        held = box.commits.get(seat)
        if held is None or held["lock"] != msg["lock"]:
            raise Offence(f"seat {seat} opened a bid it has not committed (step {step})")
        if self._i_plan(step) and core.my_seat not in box.commits:
            # not read before I commit; not an offence either: a peer whose side agreed
            # to give my seat to a bot has the bot's commitment before I take it over
            box.early_reveals[seat] = msg
            return False
        if not commitment.field_matches(held["fields"][BID], msg["salt"], seat, step,
                                        "bid", msg["card"]):
            core.host.cheated(seat, held, msg)
            raise Offence(f"seat {seat}'s opened bid does not match its commitment")
        self.links.take(box, seat, msg["link"], step)
        box.reveals[seat] = (msg["salt"], msg["card"])
        return True

    def read_early_reveals(self, box: StepInbox, step: int) -> None:
        """The bids opened before my seat committed at `step`, read now that it has (or a
        bot plays it); one that does not match its commitment is logged and dropped."""
        if not box.early_reveals or (self._i_plan(step) and self.core.my_seat not in box.commits):
            return
        held, box.early_reveals = box.early_reveals, {}
        for seat, msg in sorted(held.items()):
            try:
                self.on_bid_opened(seat, msg, box, step)
            except Offence as exc:
                log.warning("early bid of seat %d refused: %s", seat, exc)

    def on_field_opened(self, seat: int, msg: FieldOpened, box: StepInbox, step: int) -> bool:
        if box.opening is not None:
            if box.opening != msg:
                self.core.host.cheated(seat, box.opening, msg)
                raise Offence(f"seat {seat} opened two different cards for step {step}")
            return False
        if step == self.core.step:
            self.check_opening(seat, as_wire(msg))
        box.opening = as_wire(msg)
        return True

    # ------------------------------------------------------------------ checks
    def check_opening(self, seat: int, msg: Wire) -> None:
        """A `FieldOpened` for the current step: the card the engine asks for, matching
        the seat's signed commitment of this round. Raises Offence."""
        d = self.core.decision()
        field = msg["field"]
        if d.kind != DecisionKind.OPEN or seat not in d.seats or d.purpose != field:
            raise Offence(f"seat {seat} opened its {field} field, but the card to turn "
                          f"now is {d.purpose or d.kind}")
        held = self.plans.field_commits.get(seat)
        if held is None or held["step"] != msg["plan"] or held["lock"] != msg["lock"]:
            raise Offence(f"seat {seat} opened its {field} field of a plan it did not "
                          f"commit (step {msg['plan']}, lock {msg['lock']})")
        if not commitment.field_matches(held["fields"][FIELDS.index(field)], msg["salt"],
                                        seat, held["step"], field, msg["card"]):
            self.core.host.cheated(seat, held, msg)
            raise Offence(f"seat {seat}'s opened {field} field does not match its "
                          "commitment")

    def echo_content(self, msg: CommitsEchoed, step: int) -> dict[int, Wire]:
        """An echo's commitments, each checked against its seat's signature. A commitment
        equal, signature and all, to the one I hold for the seat (checked when it came,
        or my own) needs no second check: the same bytes verify the same way."""
        held = self.core.box(step).commits

        def verify(seat: int, full: Wire) -> bool:
            return held.get(seat) == full or self.core.host.verify(seat, full)
        try:
            return echo.content(msg, step, verify)
        except echo.EchoError as exc:
            raise Offence(str(exc)) from None

    def _compare_echoes(self, box: StepInbox, seat: int) -> None:
        """A commitment of `seat` that differs from one another player echoed is a proof
        that `seat` committed twice (each is signed)."""
        for mine, theirs in echo.differing(box.commits.get(seat), box.echoes, seat):
            self.core.host.cheated(seat, mine, theirs)

    def _i_plan(self, step: int) -> bool:
        """Must my seat commit at `step`? (A reveal before my commitment is premature.)"""
        core = self.core
        if core.my_seat is None or core.my_seat in core.bots or step < core.step:
            return False
        if step > core.step:
            return True        # nobody can hold my commitment for a step I have not reached
        d = core.decision()
        return d.kind == DecisionKind.PLAN and core.my_seat in d.seats

    def check_early(self, d: PendingDecision, box: StepInbox) -> list[tuple[int, str]]:
        """Echoes, commitments and an opened card that arrived before their step."""
        me, bad = self.core.my_seat, []
        for seat in list(box.echoes):
            if d.kind != DecisionKind.PLAN:
                if seat != me:
                    bad.append((seat, "commitment echo for a step that is not a plan"))
                del box.echoes[seat]
                box.echo_locks.pop(seat, None)
        for seat in list(box.commits):
            if d.kind != DecisionKind.PLAN or seat not in d.seats:
                if seat != me:
                    bad.append((seat, "plan commitment for a step that is not a plan"))
                del box.commits[seat]
                box.reveals.pop(seat, None)
        if box.opening is not None:
            seat = box.opening["seat"]
            try:
                self.check_opening(seat, box.opening)
            except Offence as exc:
                if seat != me:
                    bad.append((seat, str(exc)))
                box.opening = None
        return bad
