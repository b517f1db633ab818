"""The trust decision for one seat's file and its copies, row by row
(net/correspondence/seat_trust.py `judge`; the table in its module doc)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from net.correspondence.seat_record import parse_file
from net.correspondence.seat_trust import FindingKind as K
from net.correspondence.seat_trust import SeatContext, SeatCopy, judge
from tests.net.correspondence.seat_writers import OTHER_TABLE, TABLE, Writer

OWN = "seat-2.shogun"
COPY = "seat-2.sync-conflict-20261129-101500-ABCDEFG.shogun"


@dataclass
class Case:
    """A seat that wrote five records; what the reader had accepted (`known`) and the
    files it now finds, built from the writer (and an attacker's key)."""
    writer: Writer
    stranger: Writer

    def own(self, data: bytes) -> SeatCopy:
        return SeatCopy(OWN, True, parse_file(data))

    def copy(self, data: bytes) -> SeatCopy:
        return SeatCopy(COPY, False, parse_file(data))


def fresh() -> Case:
    w = Writer(seat=2)
    for i in range(5):
        w.write(b"move %d" % i)
    return Case(w, Writer(seat=2))


def equivocation(c: Case) -> bytes:
    """Seat 2 itself signs another record 3 (two machines with one key, or a cheat)."""
    twin = Writer(seat=2, key=c.writer.key, records=c.writer.records[:3])
    twin.write(b"another move 3")
    return twin.file()


Scenario = Callable[[Case], tuple[int, tuple[SeatCopy, ...]]]
ROWS: list[tuple[str, Scenario, int, set[K], bool]] = [
    # name, scenario -> (known count, copies), accepted count, finding kinds, proof
    ("what was read, then more: walks on",
     lambda c: (2, (c.own(c.writer.file()),)), 5, set(), False),
    ("nothing new", lambda c: (5, (c.own(c.writer.file()),)), 5, set(), False),
    ("a torn last record: ignored and said",
     lambda c: (0, (c.own(c.writer.file()[:-7]),)), 4, {K.TORN}, False),
    ("a record read before, altered by someone else",
     lambda c: (4, (c.own(c.writer.file(2) + c.stranger.next_record(b"x", seq=2,
                                                                   prev=c.writer.records[1].digest).raw
                           + c.writer.file()[len(c.writer.file(3)):]),)), 4, {K.CHANGED}, False),
    ("a record read before, re-signed differently by the seat itself: a proof",
     lambda c: (4, (c.own(equivocation(c)),)), 4, {K.EQUIVOCATED}, True),
    ("the seat's file rolled back to an old version",
     lambda c: (4, (c.own(c.writer.file(2)),)), 4, {K.ROLLED_BACK}, False),
    ("a conflict copy that is an old version: no news, nothing named",
     lambda c: (4, (c.own(c.writer.file()), c.copy(c.writer.file(2)))), 5, set(), False),
    ("the seat's file removed: said, what was read is kept",
     lambda c: (3, (SeatCopy(OWN, True, None),)), 3, {K.REMOVED}, False),
    ("no file yet, nothing read: nothing to say",
     lambda c: (0, (SeatCopy(OWN, True, None),)), 0, set(), False),
    ("a new record signed by another key: forged, it and after ignored",
     lambda c: (2, (c.own(c.writer.file(3) + c.stranger.next_record(b"x", seq=3,
                                                                   prev=c.writer.records[2].digest).raw
                           + c.writer.file()[len(c.writer.file(3)):]),)), 3, {K.FORGED}, False),
    ("a record of another table, signed by the seat",
     lambda c: (0, (c.own(c.writer.next_record(b"x", table=OTHER_TABLE, prev=b"\0" * 32).raw),)),
     0, {K.FORGED}, False),
    ("a record replayed at the end (an old number)",
     lambda c: (0, (c.own(c.writer.file() + c.writer.records[1].raw),)), 5, {K.OUT_OF_ORDER}, False),
    ("two records swapped",
     lambda c: (1, (c.own(c.writer.file(1) + c.writer.records[2].raw + c.writer.records[1].raw),)),
     1, {K.OUT_OF_ORDER}, False),
    ("a record skipped", lambda c: (0, (c.own(c.writer.file(1) + c.writer.records[2].raw),)),
     1, {K.OUT_OF_ORDER}, False),
    ("the right number but another history before it (prev)",
     lambda c: (0, (c.own(c.writer.file(1) + c.writer.next_record(b"x", seq=1, prev=b"\1" * 32).raw),)),
     1, {K.OUT_OF_ORDER}, False),
    ("a damaged record in the middle of unread records",
     lambda c: (0, (c.own(c.writer.file(2) + b"garbage!" + c.writer.file()[len(c.writer.file(2)):]),)),
     2, {K.CHANGED}, False),
    ("a damaged record in the middle of records read before",
     lambda c: (4, (c.own(c.writer.file(1) + b"garbage!" + c.writer.file()[len(c.writer.file(2)):]),)),
     4, {K.CHANGED}, False),
    ("a conflict copy that holds records the seat's file lacks: taken, and said",
     lambda c: (1, (c.own(c.writer.file(2)), c.copy(c.writer.file()))), 5, {K.COPY}, False),
    ("a copy with a torn tail beside a whole file: nothing lost",
     lambda c: (0, (c.own(c.writer.file()), c.copy(c.writer.file()[:-3]))), 5, {K.TORN}, False),
    ("two files going further with different records signed by the seat: a proof, only the shared part",
     lambda c: (1, (c.own(c.writer.file()), c.copy(equivocation(c)))), 3, {K.EQUIVOCATED}, True),
    ("a forged copy beside the seat's file: the seat's file wins, the copy named",
     lambda c: (0, (c.own(c.writer.file()),
                    c.copy(c.writer.file(2) + c.stranger.next_record(b"x", seq=2,
                                                                   prev=c.writer.records[1].digest).raw))),
     5, {K.FORGED}, False),
]


@pytest.mark.parametrize("name, scenario, accepted, kinds, proved", ROWS, ids=[r[0] for r in ROWS])
def test_judge(name, scenario, accepted, kinds, proved):
    c = fresh()
    known_count, copies = scenario(c)
    known = tuple(c.writer.records[:known_count])
    verdict = judge(SeatContext(TABLE, 2, c.writer.public), known, copies)
    assert {f.kind for f in verdict.findings} == kinds
    assert (verdict.proof is not None) is proved
    assert len(verdict.accepted) == accepted
    # always the seat's own history, a prefix of it; what was read before is kept
    assert verdict.accepted == tuple(c.writer.records[:accepted])
    if proved:
        assert verdict.proof.first.seq == verdict.proof.second.seq == 3
        assert verdict.proof.first.signed_by(c.writer.public)
        assert verdict.proof.second.signed_by(c.writer.public)
    for f in verdict.findings:
        assert f.seat == 2 and f.sentence and "\n" not in f.sentence
        assert f.names_someone is (f.kind not in (K.TORN, K.COPY))
