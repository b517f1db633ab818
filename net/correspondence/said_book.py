"""One player's book of proofs of two messages in one seat file (`said_twice`): the
records judged over, and the written proofs that wait for the accused's file.

Why a book beside `FolderLink` (as `hand_book`): the link plays the lockstep and applies
a verdict (expels, names); which records a proof is judged over, and when, is this
book's. `said_twice.judge_said` is the rule.

Tests: tests/net/correspondence/test_folder_said_twice.py, test_said_again.py (through
`FolderLink`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from net.correspondence.said_twice import SaidRecord, SaidVerdict, judge_said
from net.correspondence.seat_record import SeatRecord, first_prev
from net.lockstep.step_inbox import Wire

log = logging.getLogger("net.correspondence.said_book")

Opened = Callable[[int, SeatRecord], list[Wire]]        # a record's signed messages


@dataclass
class SaidBook:
    table: bytes
    opened: Opened
    waiting: list[tuple[int, int, SeatRecord, SeatRecord]] = field(default_factory=list)

    def held(self, records: tuple[SeatRecord, ...]) -> list[SaidRecord]:
        """A seat's records held here (void ones too: a proof judged again after the
        expulsion it made), with their signed messages."""
        return [SaidRecord(r.seq, r.kind, tuple(self.opened(r.seat, r))) for r in records]

    def written(self, writer: int, seq: int, one: SeatRecord, two: SeatRecord,
                records: tuple[SeatRecord, ...]) -> SaidVerdict | None:
        """A proof record (`writer`'s record `seq`) of two records of seat `one.seat`,
        whose records held here are `records`: its verdict, or None when it waits for
        them (kept, see `due`) or cites records its file here does not hold."""
        held = self.held(records)
        for r in (one, two):     # the next record of the file, carried by the proof itself
            if r.seq == len(held) and r.prev == (records[-1].digest if records else
                                                  first_prev(self.table, r.seat)):
                held.append(SaidRecord(r.seq, r.kind, tuple(self.opened(r.seat, r))))
        chained = records + (one, two)
        if any(r.seq < len(held) and r.raw != next(c.raw for c in chained if c.seq == r.seq)
               for r in (one, two)):
            log.warning("seat %d's proof cites records of seat %d its file here does not "
                        "hold: not judged", writer, one.seat)
            return None
        verdict = judge_said(one.seat, held, one.seq, two.seq)
        if verdict.wait:
            self.waiting.append((writer, seq, one, two))
            return None
        return verdict

    def due(self) -> list[tuple[int, int, SeatRecord, SeatRecord]]:
        """The proofs that waited, to judge again (they wait again if still early)."""
        waiting, self.waiting = self.waiting, []
        return waiting

    def found(self, seat: int, first: Wire, second: Wire, records: tuple[SeatRecord, ...]
              ) -> tuple[SaidVerdict, tuple[bytes, bytes]] | None:
        """The lockstep met `seat`'s two messages: the verdict over the records holding
        them and those records' bytes; None when one came another way (an echo)."""
        held = self.held(records)
        one, two = (next((r.seq for r in held if m in r.messages), None)
                    for m in (first, second))
        if one is None or two is None:
            return None
        return (judge_said(seat, held, one, two),
                (records[min(one, two)].raw, records[max(one, two)].raw))
