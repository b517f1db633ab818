"""Signing what my seat says, checking what others' seats say, and expelling a cheater.

Why a separate part of the session: it is one idea — a seat is its key — and it needs
only a few things of the session (the pinned keys in `start_info`, the connections, the
lockstep). `TableSession` inherits it.
"""

from __future__ import annotations

import logging
from typing import Any

from net import messages, signatures

log = logging.getLogger("net.session")


class SignedSeats:
    """Mixed into `TableSession`: signatures and cheating proofs."""

    start_info: dict | None
    seat_key: Any
    my_seat: int | None
    expelled: set[int]
    _saved_table: bytes | None

    def sign(self, msg: dict) -> dict:
        """My seat's signature on a message I originate (`net.signatures`)."""
        table = self.start_info["table"] if self.start_info is not None else self._saved_table
        if self.seat_key is None or table is None \
                or msg.get("type") not in signatures.SIGNED or msg.get("seat") != self.my_seat:
            return msg
        return signatures.sign(self.seat_key, table, msg)

    def signed_by_seat(self, seat: int, msg: dict) -> bool:
        """`msg` carries `seat`'s signature under the key pinned in GameStarted."""
        entry = self._seat_entry(seat)
        return entry is not None and signatures.signed_by(entry.get("key"),
                                                          self.start_info["table"], msg)

    def _cheated(self, seat: int, first: dict | None, second: dict) -> bool:
        """Two different signed messages from `seat` for one step: if they really are a
        proof (checked here, whoever found it), log it, pass it on, and expel the seat:
        its connection closes, it may never rejoin, and a bot plays it from the proof's
        step (every peer holding the proof is stuck at that step: the echo before the
        reveal lets no one past a commitment that differs between players)."""
        if first is None or seat == self.my_seat or not self.started:
            return False
        reason = signatures.conflict(first, second)
        if reason is None or not (self.signed_by_seat(seat, first)
                                  and self.signed_by_seat(seat, second)):
            return False
        if seat in self.expelled:
            return True
        self.expelled.add(seat)
        show = lambda m: {k: (v.hex()[:16] if isinstance(v, bytes) else v)  # noqa: E731
                          for k, v in m.items() if k not in ("hash", "sig", "commits", "fields")}
        log.error("CHEATING PROVED: %s (%s, then %s); seat %d is expelled and a bot plays it",
                  reason, show(first), show(second), seat)
        self.on_error(f"seat {seat} ({self._name_of_seat(seat)}) cheated: {reason}; "
                      "it is expelled and a bot plays its seat")
        self._broadcast({"type": "CheatingProved", "seat": seat, "first": first,
                         "second": second})
        self.reactor.callLater(0, self._expel, seat, second.get("step"))
        return True

    def _expel(self, seat: int, step: int | None) -> None:
        conn = self._conn_for_seat(seat)
        if conn is not None:
            conn.drop(f"you are expelled: two different signed messages of yours for one "
                      f"step", offender=False)
        self._cancel_timeout(seat)
        if self.lockstep is not None and not self._over():
            self.lockstep.take_over(seat, max(self.lockstep.step, step or 0))
            self._maybe_resumed()

    def _on_CheatingProved(self, conn: Any, msg: dict) -> None:
        if conn.seat is None or conn.role == "spectator" or conn is self.source:
            conn.offence("CheatingProved from a connection without a seat")
            return
        seat = msg["seat"]
        if seat in self.expelled or seat == self.my_seat:
            return          # known already; or about me (I know what I signed)
        try:
            first, second = messages.check(msg["first"]), messages.check(msg["second"])
        except messages.BadMessage as exc:
            conn.offence(f"CheatingProved holds a malformed message: {exc}")
            return
        if first.get("seat") != seat or not self._cheated(seat, first, second):
            conn.offence(f"CheatingProved proves nothing against seat {seat}")

