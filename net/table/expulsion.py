"""Signing what my seat says, checking what others' seats say, expelling a cheater, and
claims that a player dropped another.

Why a separate part of the session: it is one idea — who may remove a seat from the
table, on what evidence. A proof (two different signed messages of one seat for one
step) convinces every peer by itself: all expel the cheater. A claim ("I dropped seat
3 for offences") cannot be checked by anyone else: it counts only when more than half
of the other players make it; one player's claim drops the seat only for that player
(its own connection), and the others then pass the seat's messages on to it and its
messages on to the seat, so the table stays one game. `TableSession` inherits both.
"""

from __future__ import annotations

import logging
from typing import Any

from net.transport import messages
from net.lockstep import signatures

log = logging.getLogger("net.table.session")


class SignedSeats:
    """Mixed into `TableSession`: signatures and cheating proofs."""

    start_info: dict | None
    seat_key: Any
    my_seat: int | None
    expelled: set[int]
    _saved_table: bytes | None

    def sign(self, msg: dict) -> dict:
        """My seat's signature on a message I originate (`net.lockstep.signatures`)."""
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


class DropClaims:
    """Mixed into `net.table.session.TableSession`: `SeatDropped` claims need a majority.

    Before, every peer believed one player's `SeatDropped`, so a liar could eject an
    honest player from the whole table (tests/net/transport/test_fuzz.py)."""

    drop_claims: dict[int, set[int]]     # accused seat -> the seats that dropped it
    forwards: dict[int, set[int]]        # seat -> seats I pass its messages on to
    parted: set[int]                     # seats only I (or only they) dropped

    def _claims_carry(self, seat: int) -> bool:
        """More than half of the table's other players say they dropped `seat`."""
        others = [s for s in self._humans() if s != seat]
        return 2 * len(self.drop_claims.get(seat, set()) & set(others)) > len(others)

    def offender_dropped(self, conn: Any, reason: str) -> None:
        """I dropped a player for offences. I tell the others; it is dropped by all once
        more than half of the other players did so. Until then only my own connection
        is gone: I do not play its seat with a bot myself (the others still hear it)."""
        if self.started and conn.seat is not None and conn.role != "spectator" \
                and conn is not self.source:
            seat = conn.seat
            self.drop_claims.setdefault(seat, set()).add(self.my_seat)
            if not self._claims_carry(seat):
                self.parted.add(seat)
            self._broadcast({"type": "SeatDropped", "seat": seat, "reason": reason[:500]})

    def _parted_by_offence(self, conn: Any) -> None:
        """A player dropped me for offences (not for a desync): we are parted, the
        others still hear it; I do not play its seat with a bot myself."""
        reason = conn.offended_reason or ""
        if conn.seat is not None and reason and not reason.startswith("desync"):
            self.parted.add(conn.seat)

    def _on_SeatDropped(self, conn: Any, msg: dict) -> None:
        seat = msg["seat"]
        if conn.seat is None or not self.started or seat == conn.seat:
            conn.offence("SeatDropped from a connection that cannot send it")
            return
        conn.drop_claims += 1
        if conn.drop_claims > 2:
            conn.offence("too many SeatDropped claims")
            return
        if seat == self.my_seat:
            log.warning("seat %s says it dropped me: %s", conn.seat, msg["reason"])
            return
        self.drop_claims.setdefault(seat, set()).add(conn.seat)
        other = self._conn_for_seat(seat)
        if self._claims_carry(seat):
            self.parted.discard(seat)
            for s in (seat, *self.forwards.pop(seat, ())):
                self.forwards.get(s, set()).discard(seat)
            if other is not None:
                log.warning("dropping seat %d too: more than half of the other players "
                            "dropped it (last seat %s: %s)", seat, conn.seat, msg["reason"])
                other.drop(f"most players dropped you; seat {conn.seat}: "
                           f"{msg['reason']}"[:500], offender=False)
            return
        log.warning("seat %s says it dropped seat %d (%s); one player's word is not enough: "
                    "seat %d stays, and its messages and seat %s's are passed between them",
                    conn.seat, seat, msg["reason"], seat, conn.seat)
        if other is None or self.lockstep is None:
            return
        self.forwards.setdefault(seat, set()).add(conn.seat)
        self.forwards.setdefault(conn.seat, set()).add(seat)
        since = self.lockstep.step - 4
        for source, target in ((seat, conn), (conn.seat, other)):
            for m in self.lockstep.heard_from(source, since):
                target.send({"type": "Relayed", "seat": source, "message": m})
