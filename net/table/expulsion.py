"""Expelling a cheater: proofs of cheating checked, passed on, and acted on.

Why a separate part of the session: it is one idea — who may remove a seat from the
table, on what evidence. A proof (two different signed messages of one seat for one
step) convinces every peer by itself: all expel the cheater. A claim ("I dropped seat
3 for offences") cannot be checked by anyone else, so it needs a majority
(`net.table.drop_claims`).

Tests: tests/net/trust/test_hostile.py, tests/net/trust/test_signature_checks.py,
tests/net/trust/test_tower_proofs.py, tests/net/trust/test_tower_attacks.py.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping, TYPE_CHECKING

from net.lockstep import signatures
from net.table.seat_signer import SeatSigner
from net.table.shared import Roster, StartRecord, TableSetting, TableState
from net.transport import messages
from net.transport.message_records import CheatingProved, as_wire

if TYPE_CHECKING:
    from net.table.takeover import Takeover
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Expulsion:
    """Proofs of cheating: checked, passed on, and the cheater expelled."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 start: StartRecord, signer: SeatSigner, takeover: Takeover) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._start = start
        self._signer = signer
        self._takeover = takeover

    def cheated(self, seat: int, first: Mapping[str, object] | None,
                second: Mapping[str, object]) -> bool:
        """Two different signed messages from `seat` for one step, or one signed message
        that is a proof by itself (`first` is `second`: a tower vote that breaks the rules
        or contradicts the deterministic drop, `net.lockstep.tower_vote`): if they really
        are a proof (checked here, whoever found it), log it, pass it on, and expel the
        seat: its connection closes, it may never rejoin, and a bot plays it from the
        proof's step (every peer holding the proof is stuck at that step: the echo before
        the reveal lets no one past a commitment that differs between players; a drop's
        vote is void at once, so its seat goes from the step after the drop)."""
        table = self._shared
        if first is None or seat == table.my_seat or not self._start.started:
            return False
        reason = self._reason(seat, first, second)
        if not reason or not (self._signer.signed_by_seat(seat, first)
                              and self._signer.signed_by_seat(seat, second)):
            return False
        if seat in table.expelled:
            return True
        table.expelled.add(seat)

        def show(m: Mapping[str, object]) -> dict[str, object]:
            return {k: (v.hex()[:16] if isinstance(v, bytes) else v)
                    for k, v in m.items()
                    if k not in ("hash", "sig", "commits", "fields", "outcome")}
        log.error("CHEATING PROVED: %s (%s, then %s); seat %d is expelled and a bot plays it",
                  reason, show(first), show(second), seat)
        self._setting.callbacks.on_error(f"seat {seat} ({self._start.name_of_seat(seat)}) cheated: "
                                 f"{reason}; it is expelled and a bot plays its seat")
        self._roster.broadcast({"type": "CheatingProved", "seat": seat, "first": first,
                         "second": second})
        step = second.get("step")
        if second.get("type") == "TowerVoted" and isinstance(step, int):
            if table.lockstep is not None:
                table.lockstep.tower.void(seat, step, reason)
            step += 1
            if table.lockstep is not None and step >= table.lockstep.step:
                # taken over as the step after the drop begins, on every peer alike,
                # however far the expulsion below lets me run on before it happens
                table.lockstep.box(step).takeovers.add(seat)
        self._setting.reactor.callLater(0, self._expel, seat, step, reason)
        return True

    def _reason(self, seat: int, first: Mapping[str, object],
                second: Mapping[str, object]) -> str | None:
        """What `first` and `second` prove against `seat`: a conflict between them, or
        (a tower vote) one of them alone, or it against the vote I heard from the seat.
        "" when a tower vote is a proof I cannot check here (my platform build)."""
        reason = signatures.conflict(first, second)
        lockstep = self._shared.lockstep
        if reason is not None or lockstep is None or second.get("type") != "TowerVoted":
            return reason
        vote = as_wire(second)        # a signed TowerVoted, checked where it came
        heard = lockstep.earlier(vote["step"], seat, "TowerVoted")
        if heard is not None and heard is not second and self._signer.signed_by_seat(seat, heard):
            reason = signatures.conflict(heard, second)
            if reason is not None:
                return reason
        return lockstep.tower.proves(vote) if first == second else None

    def _expel(self, seat: int, step: int | None, reason: str) -> None:
        table = self._shared
        conn = self._roster.conn_for_seat(seat)
        if conn is not None:
            conn.drop(f"you are expelled: {reason}"[:500], offender=False)
        self._takeover.cancel_timeout(seat)
        if table.lockstep is not None and not table.over():
            table.lockstep.take_over(seat, max(table.lockstep.step, step or 0))
            self._takeover.maybe_resumed()

    def cheating_proved(self, conn: PeerConnection, msg: CheatingProved) -> None:
        """A `CheatingProved` from another player: checked here before it counts."""
        table = self._shared
        if conn.seat is None or conn.role == "spectator" or conn is self._roster.source:
            conn.offence("CheatingProved from a connection without a seat")
            return
        seat = msg["seat"]
        if seat in table.expelled or seat == table.my_seat:
            return          # known already; or about me (I know what I signed)
        try:
            first, second = messages.check(msg["first"]), messages.check(msg["second"])
        except messages.BadMessage as exc:
            conn.offence(f"CheatingProved holds a malformed message: {exc}")
            return
        if first.get("seat") != seat or not self.cheated(seat, first, second):
            if first.get("seat") == seat and self._reason(seat, first, second) == "":
                log.warning("seat %s says seat %d signed a wrong tower outcome for the "
                            "deterministic build; this platform build cannot check it",
                            conn.seat, seat)
                return
            conn.offence(f"CheatingProved proves nothing against seat {seat}")
