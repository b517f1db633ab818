"""What a reader accepts from a seat's file and its copies: one pure decision, `judge`.

Why one function over typed records: everyone who can write the folder (every player,
the sync provider, a stolen laptop) can change any file in it, and a sync tool can deliver
a file cut short, an old version of it, or a copy beside it. Whether a record counts must
not depend on which of those happened first. The rules, each one line of `judge`:

| what a copy of seat s's file shows | the reader |
|---|---|
| the records it accepted before, byte for byte, then more | walks on |
| a record it accepted before, now different, signed by seat s for the same number | has a proof: seat s signed two records for one number (named; the first kept) |
| a record it accepted before, now different and not seat s's | names the file as changed; keeps its own copy |
| fewer records than it accepted before (the seat's own file) | names the file as rolled back; keeps its own copy |
| a new record signed by seat s, numbered next, following the last (`prev`) | accepts it |
| a new record of another table, not signed by seat s, or not a seat record | names the file as holding a record seat s did not sign; stops there |
| a new record numbered otherwise, or not following the last (a repeat, a reorder) | names the file as out of order; stops there |
| a record cut short or failing its checksum at the end | ignores it and says so (read again when whole) |
| bytes that are no record in the middle | names the file as damaged; stops there |
| two copies each going further with different records of seat s | has a proof (as above); accepts only what they share |
| the seat's file gone, and no copy holding what was read | says so; keeps what it read |

So what a reader accepts of seat s is always the seat's own signed history, a prefix of
it, whatever was done to the files; and a change that could only be an edit is named.
Who made an unsigned change cannot be told from a file (the folder has no author): the
file is named, and the change gains nothing.

Tests: tests/net/correspondence/test_seat_trust.py (the rows above),
tests/net/correspondence/test_fake_sync.py (a fake sync and an attacker, by hypothesis).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from net.correspondence.seat_record import FileScan, SeatRecord, Stop, first_prev

MAX_COPIES = 16          # copies of one seat's file a reader opens (the own file first)


class FindingKind(StrEnum):
    TORN = "torn"                     # a last record cut short: ignored for now
    COPY = "copy"                     # a sync tool's copy held records the file lacked
    REMOVED = "removed"               # the seat's file is gone; what was read is kept
    ROLLED_BACK = "rolled back"       # the seat's file is shorter than what was read
    CHANGED = "changed"               # a record read before differs, or bytes are damaged
    FORGED = "forged"                 # a whole record that is not the seat's
    OUT_OF_ORDER = "out of order"     # a repeated, reordered or skipped record
    EQUIVOCATED = "equivocated"       # the seat signed two records for one number


NOTES = frozenset({FindingKind.TORN, FindingKind.COPY})   # said, but nobody is named


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    seat: int
    file: str
    record: int | None
    sentence: str

    @property
    def names_someone(self) -> bool:
        """True for what could only be an edit or a cheat (a file or a seat named)."""
        return self.kind not in NOTES


@dataclass(frozen=True)
class Proof:
    """Two different records seat `seat` signed for one number: its own doing."""
    seat: int
    first: SeatRecord
    second: SeatRecord


@dataclass(frozen=True)
class SeatCopy:
    """One file read for a seat: its own (`own`) or a sync tool's copy; `scan` None when
    the seat's own file is not in the folder."""
    name: str
    own: bool
    scan: FileScan | None


@dataclass(frozen=True)
class SeatContext:
    table: bytes
    seat: int
    public: bytes                    # the seat's pinned key


@dataclass(frozen=True)
class SeatVerdict:
    accepted: tuple[SeatRecord, ...]       # what was accepted before, then the new
    findings: tuple[Finding, ...]
    proof: Proof | None = None

    def new_since(self, known: int) -> tuple[SeatRecord, ...]:
        return self.accepted[known:]


def _fits(ctx: SeatContext, record: SeatRecord, seq: int, prev: bytes) -> FindingKind | None:
    """Why `record` cannot be record `seq` after `prev`, or None."""
    if record.table != ctx.table or record.seat != ctx.seat or not record.signed_by(ctx.public):
        return FindingKind.FORGED
    if record.seq != seq or record.prev != prev:
        return FindingKind.OUT_OF_ORDER
    return None


def _walk(ctx: SeatContext, known: tuple[SeatRecord, ...], copy: SeatCopy,
          findings: list[Finding]) -> tuple[tuple[SeatRecord, ...], Proof | None]:
    """The records of `copy` beyond `known` that follow it, and a proof if it has one."""
    scan = copy.scan
    s, name = ctx.seat, copy.name
    if scan is None:
        return (), None             # said by `judge` when no copy holds what was read
    records = scan.records
    for i, record in enumerate(records[:len(known)]):
        if record.raw == known[i].raw:
            continue
        if record.seq == i and record.table == ctx.table and record.seat == s \
                and record.signed_by(ctx.public):
            findings.append(Finding(FindingKind.EQUIVOCATED, s, name, i,
                                    f"seat {s} signed two different records numbered {i}"))
            return (), Proof(s, known[i], record)
        findings.append(Finding(FindingKind.CHANGED, s, name, i,
                                f"{name} was changed after it was read: record {i} differs "
                                "(the record read before is kept)"))
        return (), None
    if len(records) < len(known):
        stopped_early = scan.stop is Stop.DAMAGED or scan.stop is Stop.MALFORMED
        if copy.own or stopped_early:
            findings.append(Finding(
                FindingKind.CHANGED if stopped_early else FindingKind.ROLLED_BACK, s, name,
                len(records), f"{name} holds {len(records)} of the {len(known)} records read "
                "before (the records read before are kept)"))
        return (), None
    new: list[SeatRecord] = []
    prev = known[-1].digest if known else first_prev(ctx.table, s)
    for record in records[len(known):]:
        seq = len(known) + len(new)
        why = _fits(ctx, record, seq, prev)
        if why is FindingKind.FORGED:
            findings.append(Finding(why, s, name, seq,
                                    f"{name} holds a record seat {s} did not sign "
                                    f"(record {seq}); it and those after it are ignored"))
            return tuple(new), None
        if why is not None:
            findings.append(Finding(why, s, name, seq,
                                    f"{name}: record {seq} is out of order (number "
                                    f"{record.seq}, or not following record {seq - 1}); "
                                    "it and those after it are ignored"))
            return tuple(new), None
        new.append(record)
        prev = record.digest
    if scan.stop is Stop.TORN:
        findings.append(Finding(FindingKind.TORN, s, name, len(records),
                                f"{name}: {scan.detail}; ignored until it is whole"))
    elif scan.stop is Stop.DAMAGED:
        findings.append(Finding(FindingKind.CHANGED, s, name, len(records),
                                f"{name} is damaged at {scan.detail}; what follows is ignored"))
    elif scan.stop is Stop.MALFORMED:
        findings.append(Finding(FindingKind.FORGED, s, name, len(records),
                                f"{name} holds a record seat {s} did not sign ({scan.detail}); "
                                "it and those after it are ignored"))
    return tuple(new), None


def judge(ctx: SeatContext, known: tuple[SeatRecord, ...],
          copies: tuple[SeatCopy, ...]) -> SeatVerdict:
    """What the reader accepts of seat `ctx.seat` now (see the table in the module doc).
    `known`: what it accepted before, in order; `copies`: the seat's own file first."""
    findings: list[Finding] = []
    proof: Proof | None = None
    longest: tuple[SeatRecord, ...] = ()
    source, from_own = "", 0
    for copy in copies[:MAX_COPIES]:
        new, found = _walk(ctx, known, copy, findings)
        proof = proof or found
        if copy.own:
            from_own = len(new)
        shared = min(len(new), len(longest))
        fork = next((i for i in range(shared) if new[i].raw != longest[i].raw), None)
        if fork is not None:
            seq = len(known) + fork
            findings.append(Finding(FindingKind.EQUIVOCATED, ctx.seat, copy.name, seq,
                                    f"seat {ctx.seat} signed two different records "
                                    f"numbered {seq}"))
            proof = proof or Proof(ctx.seat, longest[fork], new[fork])
        elif len(new) > len(longest):
            longest, source = new, copy.name
    own_gone = any(c.own and c.scan is None for c in copies)
    held = any(c.scan is not None and len(c.scan.records) >= len(known)
               and all(a.raw == b.raw for a, b in zip(c.scan.records, known)) for c in copies)
    if own_gone and known and not held:
        findings.append(Finding(FindingKind.REMOVED, ctx.seat, copies[0].name, None,
                                f"seat {ctx.seat}'s file is gone; the {len(known)} records "
                                "read before are kept"))
    if proof is not None:
        # what every side shares is the seat's; nothing from the first fork on counts
        longest = tuple(r for r in longest if r.seq < proof.first.seq)
    elif len(longest) > from_own:
        findings.append(Finding(FindingKind.COPY, ctx.seat, source, len(known) + from_own,
                                f"{len(longest) - from_own} records of seat {ctx.seat} came "
                                f"from the copy {source}"))
    return SeatVerdict(known + longest, tuple(findings), proof)
