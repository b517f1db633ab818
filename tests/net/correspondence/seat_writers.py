"""Seats that write records, for the correspondence tests (no folder needed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from net.correspondence.seat_record import KIND_TABLE, FolderKey, SeatRecord, first_prev, make_record
from net.trust.seat_keys import SeatKey

TABLE = b"T" * 16
OTHER_TABLE = b"O" * 16
SECRET = b"s" * 32


@dataclass
class Writer:
    """One seat's writer: its key, its records so far."""
    seat: int
    table: bytes = TABLE
    key: SeatKey = field(default_factory=lambda: SeatKey(None))
    records: list[SeatRecord] = field(default_factory=list)

    @property
    def public(self) -> bytes:
        return self.key.public

    def next_record(self, payload: bytes, seq: int | None = None, prev: bytes | None = None,
                    key: SeatKey | None = None, table: bytes | None = None) -> SeatRecord:
        """The record this seat would write next (not kept); any field may be forced."""
        n = len(self.records)
        return make_record(key or self.key, table or self.table, self.seat,
                           n if seq is None else seq,
                           prev if prev is not None else
                           (self.records[-1].digest if self.records else first_prev(self.table, self.seat)),
                           KIND_TABLE, FolderKey.for_table(SECRET).seal(payload))

    def write(self, payload: bytes) -> SeatRecord:
        record = self.next_record(payload)
        self.records.append(record)
        return record

    def file(self, upto: int | None = None) -> bytes:
        return b"".join(r.raw for r in self.records[:upto])
