"""Claims that a player dropped another for offences (`SeatDropped`), and passing
messages between two players that parted.

Why: before, every peer believed one player's `SeatDropped`, so a liar could eject an
honest player from the whole table (tests/net/transport/test_fuzz.py). A claim cannot
be checked by anyone else: it counts only when more than half of the other players
make it; one player's claim drops the seat only for that player (its own connection),
and the others then pass the seat's messages on to it and its messages on to the seat
(`forward`), so the table stays one game.

Tests: tests/net/trust/test_hostile.py, tests/net/transport/test_fuzz.py.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.lockstep.core import RELAYABLE
from net.table.shared import TableState

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class DropClaims:
    """Who says it dropped whom, and whose messages I pass on to whom because of it."""

    def __init__(self, shared: TableState) -> None:
        self._shared = shared
        self.drop_claims: dict[int, set[int]] = {}   # accused seat -> seats that dropped it
        self.forwards: dict[int, set[int]] = {}      # seat -> seats I pass its messages to
        self.parted: set[int] = set()                # dropped by me alone, or I by it

    def claims_carry(self, seat: int) -> bool:
        """More than half of the table's other players say they dropped `seat`."""
        others = [s for s in self._shared.humans() if s != seat]
        return 2 * len(self.drop_claims.get(seat, set()) & set(others)) > len(others)

    def forwarded(self, seat: int) -> bool:
        """Someone hears `seat` through me (so its messages must prove themselves)."""
        return bool(self.forwards.get(seat))

    def forward(self, seat: int, msg: dict) -> None:
        """Pass `seat`'s message, just accepted from it, on to the players that parted
        from it alone: they hear it through me."""
        if msg["type"] not in RELAYABLE:
            return
        for target in self.forwards.get(seat, ()):
            conn = self._shared.conn_for_seat(target)
            if conn is not None:
                conn.send({"type": "Relayed", "seat": seat, "message": msg})

    def offender_dropped(self, conn: PeerConnection, reason: str) -> None:
        """I dropped a player for offences. I tell the others; it is dropped by all once
        more than half of the other players did so. Until then only my own connection
        is gone: I do not play its seat with a bot myself (the others still hear it)."""
        table = self._shared
        if table.started and conn.seat is not None and conn.role != "spectator" \
                and conn is not table.source and table.my_seat is not None:
            seat = conn.seat
            self.drop_claims.setdefault(seat, set()).add(table.my_seat)
            if not self.claims_carry(seat):
                self.parted.add(seat)
            table.broadcast({"type": "SeatDropped", "seat": seat, "reason": reason[:500]})

    def parted_by_offence(self, conn: PeerConnection) -> None:
        """A player dropped me for offences (not for a desync): we are parted, the
        others still hear it; I do not play its seat with a bot myself."""
        reason = conn.offended_reason or ""
        if conn.seat is not None and reason and not reason.startswith("desync"):
            self.parted.add(conn.seat)

    def seat_dropped(self, conn: PeerConnection, msg: dict) -> None:
        """A `SeatDropped` claim from another player."""
        table = self._shared
        seat = msg["seat"]
        if conn.seat is None or not table.started or seat == conn.seat:
            conn.offence("SeatDropped from a connection that cannot send it")
            return
        conn.drop_claims += 1
        if conn.drop_claims > 2:
            conn.offence("too many SeatDropped claims")
            return
        if seat == table.my_seat:
            log.warning("seat %s says it dropped me: %s", conn.seat, msg["reason"])
            return
        self.drop_claims.setdefault(seat, set()).add(conn.seat)
        other = table.conn_for_seat(seat)
        if self.claims_carry(seat):
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
        if other is None or table.lockstep is None:
            return
        self.forwards.setdefault(seat, set()).add(conn.seat)
        self.forwards.setdefault(conn.seat, set()).add(seat)
        since = table.lockstep.step - 4
        for source, target in ((seat, conn), (conn.seat, other)):
            for m in table.lockstep.heard_from(source, since):
                target.send({"type": "Relayed", "seat": source, "message": m})
