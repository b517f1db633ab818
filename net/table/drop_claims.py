"""Claims that a player dropped another for offences (`SeatDropped`), and passing
messages between two players that parted.

Why: before, every peer believed one player's `SeatDropped`, so a liar could eject an
honest player from the whole table (tests/net/transport/test_fuzz.py). A claim cannot
be checked by anyone else: it counts only when more than half of the other players
make it; one player's claim drops the seat only for that player (its own connection),
and the others then pass the seat's messages on to it and its messages on to the seat
(`forward`), so the table stays one game.

Which claims count, and what a seat dropped for offences may still do when it redials,
is one pure policy, `net.table.policy.report_counting`: claims count per accused seat and
reporter (never against an honest reporter, however often the accused misbehaved), a
seat keeps its offences across redials, and one dropped for offences twice is refused and
handed to a bot once the table agrees (issue 34 item 2).

Tests: tests/net/trust/test_hostile.py, tests/net/transport/test_fuzz.py,
tests/net/table/test_report_counting.py, tests/net/trust/test_redial_attack.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, TYPE_CHECKING

from net.transport.messages import Wire

from net.lockstep.core import RELAYABLE
from net.table.policy.report_counting import (DropReport, ReportBook, SeatRecord, barred, carries,
                                       count_report, offences_carried)
from net.table.shared import Roster, StartRecord, TableState
from net.transport.message_records import SeatDropped

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class DropClaims:
    """Who says it dropped whom, and whose messages I pass on to whom because of it."""

    def __init__(self, shared: TableState, roster: Roster, start: StartRecord) -> None:
        self._shared = shared
        self._roster = roster
        self._start = start
        # accused seat -> seats that dropped it since it last came back here
        self.drop_claims: dict[int, set[int]] = {}
        self.forwards: dict[int, set[int]] = {}      # seat -> seats I pass its messages to
        self.parted: set[int] = set()                # dropped by me alone, or I by it
        self.records: dict[int, SeatRecord] = {}     # seat -> its offences here, all links
        # a seat that may not come back was dropped by the table's agreement: a bot may
        # take it without the rejoin countdown (`net.table.takeover.Takeover.hand_barred_seat`)
        self.seat_barred: Callable[[int], None] = lambda seat: None

    def claims_carry(self, seat: int) -> bool:
        """More than half of the table's other players say they dropped `seat`."""
        return carries(frozenset(self._start.humans()), seat,
                       frozenset(self.drop_claims.get(seat, ())))

    def record(self, seat: int) -> SeatRecord:
        return self.records.get(seat, SeatRecord())

    def barred(self) -> frozenset[int]:
        """Seats dropped here for offences too often to be readmitted."""
        return frozenset(seat for seat, r in self.records.items() if barred(r))

    def offence_counted(self, conn: PeerConnection) -> None:
        """A seated player's offence counts against its seat, not only its connection."""
        seat = conn.seat
        if self._start.started and seat is not None and conn.role != "spectator":
            r = self.record(seat)
            self.records[seat] = SeatRecord(max(r.offences + 1, conn.offences), r.drops)

    def seat_connected(self, conn: PeerConnection, allowance: int) -> None:
        """A seat (re)connected after the start: its connection starts with the seat's
        offences, and the claims against it begin again (it came back here)."""
        seat = conn.seat
        if seat is None:
            return
        conn.offences = max(conn.offences, offences_carried(self.record(seat), allowance))
        if self.drop_claims.pop(seat, None):
            log.info("seat %d is back here: claims that it was dropped count afresh", seat)
        self.parted.discard(seat)

    def _dropped(self, seat: int) -> None:
        """I dropped `seat` for offences (mine, or the table's agreed)."""
        r = self.record(seat)
        self.records[seat] = SeatRecord(r.offences, r.drops + 1)
        if barred(self.records[seat]):
            log.warning("seat %d was dropped twice for offences: it is not let back in", seat)

    def forwarded(self, seat: int) -> bool:
        """Someone hears `seat` through me (so its messages must prove themselves)."""
        return bool(self.forwards.get(seat))

    def forward(self, seat: int, msg: Wire) -> None:
        """Pass `seat`'s message, just accepted from it, on to the players that parted
        from it alone: they hear it through me."""
        if msg["type"] not in RELAYABLE:
            return
        for target in self.forwards.get(seat, ()):
            conn = self._roster.conn_for_seat(target)
            if conn is not None:
                conn.send({"type": "Relayed", "seat": seat, "message": msg})

    def offender_dropped(self, conn: PeerConnection, reason: str) -> None:
        """I dropped a player for offences. I tell the others; it is dropped by all once
        more than half of the other players did so. Until then only my own connection
        is gone: I do not play its seat with a bot myself (the others still hear it)."""
        table = self._shared
        if self._start.started and conn.seat is not None and conn.role != "spectator" \
                and conn is not self._roster.source and table.my_seat is not None:
            seat = conn.seat
            self._dropped(seat)
            self.drop_claims.setdefault(seat, set()).add(table.my_seat)
            if not self.claims_carry(seat):
                self.parted.add(seat)
            elif seat in self.barred():
                self.seat_barred(seat)
            self._roster.broadcast({"type": "SeatDropped", "seat": seat, "reason": reason[:500]})

    def parted_by_offence(self, conn: PeerConnection) -> None:
        """A player dropped me for offences (not for a desync): we are parted, the
        others still hear it; I do not play its seat with a bot myself."""
        reason = conn.offended_reason or ""
        if conn.seat is not None and reason and not reason.startswith("desync"):
            self.parted.add(conn.seat)

    def seat_dropped(self, conn: PeerConnection, msg: SeatDropped) -> None:
        """A `SeatDropped` claim from another player (`report_counting.count_report`)."""
        table = self._shared
        seat = msg["seat"]
        info = self._start.info
        book = ReportBook(
            started=info is not None, my_seat=table.my_seat,
            seats=frozenset(e["seat"] for e in info["seats"]) if info else frozenset(),
            humans=frozenset(self._start.humans()) if info else frozenset(),
            bots=frozenset(table.lockstep.bots if table.lockstep is not None else ()),
            counted={s: frozenset(r) for s, r in self.drop_claims.items()})
        verdict = count_report(book, DropReport(reporter=conn.seat, accused=seat))
        if verdict.offence is not None:
            conn.offence(verdict.offence)
            return
        if verdict.about_me:
            log.warning("seat %s says it dropped me: %s", conn.seat, msg["reason"])
            return
        if not verdict.counted:
            return          # told before (or about a bot's seat): nothing new
        assert conn.seat is not None
        self.drop_claims.setdefault(seat, set()).add(conn.seat)
        other = self._roster.conn_for_seat(seat)
        if verdict.carries:
            self.parted.discard(seat)
            for s in (seat, *self.forwards.pop(seat, ())):
                self.forwards.get(s, set()).discard(seat)
            if other is not None:
                log.warning("dropping seat %d too: more than half of the other players "
                            "dropped it (last seat %s: %s)", seat, conn.seat, msg["reason"])
                self._dropped(seat)
                other.drop(f"most players dropped you; seat {conn.seat}: "
                           f"{msg['reason']}"[:500], offender=False)
            if seat in self.barred():
                self.seat_barred(seat)
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
