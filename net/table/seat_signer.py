"""Signing what my seat says, and checking what other seats say, under the keys pinned
in GameStarted.

Why a module of its own: signatures are one idea that several parts of the table use
(the start, play, relays, take-over claims and expulsion), none of which owns it; the
take-over signs its claims here without depending on the expulsion of cheaters
(`net.table.expulsion`). The signing itself is `net.lockstep.signatures`.

Tests: tests/net/trust/test_signature_checks.py, tests/net/trust/test_hostile.py.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from net.transport.messages import Wire

from net.lockstep import signatures
from net.table.shared import Identity, StartRecord, TableState


class SeatSigner:
    """Signs what my seat originates and checks other seats' signatures."""

    def __init__(self, shared: TableState, me: Identity, start: StartRecord) -> None:
        self._shared = shared
        self._me = me
        self._start = start
        self.saved_table: bytes | None = None     # resume: my table before CaughtUp
        # replaceable (a test plays a seat that signs badly): callers look it up each time
        self.sign: Callable[[dict[str, Any]], dict[str, Any]] = self.sign_as_my_seat

    def sign_as_my_seat(self, msg: Wire) -> Wire:
        """My seat's signature on a message I originate (`net.lockstep.signatures`)."""
        table = self._shared
        key = self._me.seat_key
        table_id = self._start.info["table"] if self._start.info is not None \
            else self.saved_table
        if key is None or table_id is None \
                or msg.get("type") not in signatures.SIGNED or msg.get("seat") != table.my_seat:
            return msg
        return signatures.sign(key, table_id, msg)

    def signed_by_seat(self, seat: int, msg: Mapping[str, object]) -> bool:
        """`msg` carries `seat`'s signature under the key pinned in GameStarted."""
        entry = self._start.seat_entry(seat)
        return entry is not None and self._start.info is not None \
            and signatures.signed_by(entry.get("key"), self._start.info["table"], msg)
