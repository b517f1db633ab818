"""Expulsion by proof over a folder: whether a written proof proves, and when a bot plays.

Why pure decisions: a correspondence folder has no moment at which every player holds a
proof, so the expulsion must not depend on when or in which order a player learned it.
Two rules, each fixed by the proof itself:

| a proof record written by seat w against seat s holds | the reader |
|---|---|
| two whole records of this table and seat s, both signed by s's pinned key, one number, different bytes | expels s: only its records below that number count |
| anything else (a record cut or not a record, another table or seat, a signature that fails, two numbers, one record twice, a seat with no key) | expels nobody; names seat w, the writer |

| the lockstep's current step | a bot plays seat s from it |
|---|---|
| awaits expelled seat s, and s's records that count hold nothing more for this step | yes |
| does not await s, or s's counted records still hold an input for it | not yet |
| s is a bot already | no |

| a message of seat w in w's record number r, for step n | counts |
|---|---|
| w is expelled from a number at or below r | no: after its fork |
| a seat s was taken over at step t < n, and r comes before w's first proof against s (or w wrote none yet) | no: w wrote it before it knew, on one side of the fork |
| otherwise (a step at or before every take-over, or written after w's proof) | yes |

Every reader holds the same records of s below the fork (whatever side it saw), and the
lockstep is deterministic: so every reader takes over at the same step. A player who had
accepted one side and played past that step wrote moves on a state nobody else reaches:
they do not count, and it writes them again after its own proof record (the third table),
which every player writes once it knows the proof.

Tests: tests/net/correspondence/test_fork_proof.py (the rows above),
tests/net/correspondence/test_folder_expulsion.py (a forked seat file, in-process).
docs/net.md, "Expulsion by proof (a forked seat file)".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import msgpack

from net.correspondence.seat_record import MAX_BODY, SeatRecord, parse_file


@dataclass(frozen=True)
class ProofClaim:
    """A proof record's content: `writer`'s claim that `accused` signed both records."""
    writer: int
    accused: int
    first: bytes            # the records' framed bytes, as they stood in the files
    second: bytes


@dataclass(frozen=True)
class ProofVerdict:
    accused: int | None     # the seat expelled, None when the claim proves nothing
    from_seq: int           # the accused's records from this number on do not count
    sentence: str

    @property
    def proves(self) -> bool:
        return self.accused is not None


def proof_payload(accused: int, first: bytes, second: bytes) -> bytes:
    """A proof record's payload (before sealing): the accused seat and both records."""
    packed: bytes = msgpack.packb([accused, first, second], use_bin_type=True)
    return packed


def read_claim(writer: int, payload: bytes) -> ProofClaim:
    """The claim in a proof record's opened payload; a payload of another shape is a
    claim against no seat (-1), which `judge_proof` refuses and names its writer for."""
    try:
        fields = msgpack.unpackb(payload, raw=False, max_bin_len=MAX_BODY, max_str_len=0,
                                 max_array_len=3, max_map_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        fields = None
    if isinstance(fields, list) and len(fields) == 3 and type(fields[0]) is int \
            and isinstance(fields[1], bytes) and isinstance(fields[2], bytes):
        return ProofClaim(writer, fields[0], fields[1], fields[2])
    return ProofClaim(writer, -1, b"", b"")


def _one_record(raw: bytes) -> SeatRecord | None:
    scan = parse_file(raw)
    return scan.records[0] if len(scan.records) == 1 and scan.stop is None else None


def said_pair(table: bytes, keys: Mapping[int, bytes], claim: ProofClaim
              ) -> tuple[SeatRecord, SeatRecord] | None:
    """The two records of a proof of two messages in one file (`net.correspondence.
    said_twice`): whole, of this table and the accused seat, signed by its key, and two
    numbers (or one record twice); None for a claim `judge_proof` judges."""
    public = keys.get(claim.accused)
    first, second = _one_record(claim.first), _one_record(claim.second)
    if public is None or first is None or second is None:
        return None
    if any(r.table != table or r.seat != claim.accused or not r.signed_by(public)
           for r in (first, second)):
        return None
    return (first, second) if first.seq != second.seq or first.raw == second.raw else None


def judge_proof(table: bytes, keys: Mapping[int, bytes], claim: ProofClaim) -> ProofVerdict:
    """Whether `claim` proves that its accused seat forked its file (the table above)."""
    writer_seat, seat = claim.writer, claim.accused

    def refused(reason: str) -> ProofVerdict:
        return ProofVerdict(None, 0, f"seat {writer_seat} wrote a proof against seat "
                                     f"{seat} that proves nothing: {reason}")
    public = keys.get(seat)
    if public is None:
        return refused("that seat has no key at this table")
    first, second = _one_record(claim.first), _one_record(claim.second)
    if first is None or second is None:
        return refused("it does not hold two whole records")
    for record in (first, second):
        if record.table != table or record.seat != seat:
            return refused("a record of another table or seat")
        if not record.signed_by(public):
            return refused(f"a record seat {seat} did not sign")
    old, new = first.seq, second.seq
    if old != new:
        return refused(f"records numbered {old} and {new}, not one number")
    if first.raw == second.raw:
        return refused("the same record twice")
    return ProofVerdict(seat, old, f"seat {seat} signed two different records numbered "
                                   f"{old}: it is expelled and a bot plays its seat")


def takes_over(expelled: Iterable[int], bots: Iterable[int], waiting: Iterable[int],
               step: int, queued_steps: Mapping[int, Iterable[int]]) -> tuple[int, ...]:
    """The expelled seats a bot plays from `step` on (the second table above): awaited
    now (`waiting`), not bots yet, with no counted input queued for this step or before."""
    bot_set, waiting_set = set(bots), set(waiting)
    return tuple(s for s in sorted(set(expelled))
                 if s not in bot_set and s in waiting_set
                 and not any(q <= step for q in queued_steps.get(s, ())))


UNSET = 1 << 62          # no such record (yet): later than any


def counts(writer: int, seq: int, step: int | None, expelled: Mapping[int, int],
           taken: Mapping[int, int], proved_at: Mapping[tuple[int, int], int]) -> bool:
    """Whether `writer`'s message for `step` in its record `seq` counts (the third table).
    `expelled`: seat -> its first void record; `taken`: seat -> the step a bot plays it
    from; `proved_at`: (writer, accused) -> the number of writer's first proof record."""
    if seq >= expelled.get(writer, UNSET):
        return False
    if step is None:
        return True
    return not any(step > t and seq < proved_at.get((writer, s), UNSET)
                   for s, t in taken.items() if s != writer)
