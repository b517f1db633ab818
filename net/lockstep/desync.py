"""Desyncs: comparing the state hash every message carries, and what a mismatch voids.

Why a part of its own: a peer whose history differs from mine must not count towards
my steps (its commitments and links belong to another game), and a peer alone in its
history must be seen by the others even when it waits silently; both follow from one
comparison, made for every message, for the stated hashes and for the end of the game.

Tests: tests/net/lockstep/test_field_reveal.py (a desynced peer), tests/net/table/
(test_faults_random.py, test_session.py: desync and recovery over a network).
"""

from __future__ import annotations

from typing import Any, Mapping

from net.lockstep.core_view import DesyncCore
from net.lockstep.heard import Heard
from net.lockstep.outbox import Outbox
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from net.transport.message_records import GameFinished, HashStated


class DesyncWatch:
    """Compares hashes and forgets what a seat with another history said."""

    def __init__(self, core: DesyncCore, outbox: Outbox, heard: Heard) -> None:
        self.core = core
        self.outbox = outbox
        self.heard = heard

    # ------------------------------------------------------------------ receivers
    def on_hash_stated(self, seat: int, msg: HashStated, box: StepInbox, step: int) -> bool:
        """A seat's hash at a step I have not applied yet (`HashStated`)."""
        self._take_hash(seat, msg, box, step)
        return False

    def on_game_finished(self, seat: int, msg: GameFinished, box: StepInbox, step: int) -> bool:
        """The last step's hash, which no later message carries (`GameFinished`)."""
        if step == self.core.step and not self.core.ended:
            raise Offence(f"seat {seat} says the game ended at step {step}; it has not")
        self._take_hash(seat, msg, box, step)
        return False

    def _take_hash(self, seat: int, msg: HashStated | GameFinished, box: StepInbox,
                   step: int) -> None:
        box.hashes[seat] = msg["hash"]
        if step == self.core.step:
            self.compare(seat, msg["hash"])

    # ------------------------------------------------------------------ comparing
    def compare(self, seat: int, theirs: str | None) -> None:
        """A hash of the current step from `seat`: a different one is a desync."""
        core = self.core
        if theirs is not None and theirs != core.hash:
            self.forget(seat)
            core.host.desync_found(seat, core.step, core.hash, theirs)
            self._state_mine()

    def _state_mine(self) -> None:
        """A desync seen here: tell every player my hash at this step (`HashStated`), once.

        Why: a peer alone in its history drops the seat it differs from and may then wait
        silently on that seat's next card or command (single-seat steps follow each other:
        a card turned, then its move), so the others would never see its hash and never
        drop it; dropped by all, it rejoins and catches up from their history."""
        core = self.core
        me = core.my_seat
        if me is None or core.following or me in core.bots or core.ended:
            return
        if self.outbox.said(core.step, "HashStated"):
            return
        core.send({"type": "HashStated", "step": core.step, "seat": me, "hash": core.hash})

    def compare_logged(self, seat: int, step: int, theirs: str) -> None:
        """A stated hash for a step I have applied: compare it with my log's."""
        log = self.core.log
        entry = log[step] if 0 <= step < len(log) else None
        if entry is None or entry.get("step") != step or entry.get("hash") == theirs:
            return
        self.forget(seat)
        self.core.host.desync_found(seat, step, entry["hash"], theirs)

    def forget(self, seat: int) -> None:
        """Drop what a seat whose history differs from mine said for this step and later.

        Its commitments belong to another game; counting them would let the others
        reveal their plans on a commitment that is void, before the seat (back with the
        table's history) commits for real. Its links go too, so that the side that is
        alone in its history cannot play on with the others' links: it stops, is
        dropped by them all, and catches up from their history (see the session). A
        command stays: applying it moves me to a step where my own messages show the
        others my hash (otherwise a peer alone in its history might wait silently); so
        does an opened card."""
        core = self.core
        for step, box in core.inbox.items():
            if step < core.step:
                continue
            box.links.pop(seat, None)
            box.drop_plan_inputs(seat, opening=False)
            box.votes.pop(seat, None)
            box.hashes.pop(seat, None)
        self.heard.forget(seat, core.step)
