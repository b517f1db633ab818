"""A move an honest player says again after a hand-over is never a proof against it
(net/correspondence/said_twice.py, folder_link.py).

Seat 2 is handed to a bot by seats 0 and 1 (as test_folder_handover.py). Seat 0's file is
then given the shape an honest re-say leaves: a plan for a step past the hand-over written
before its `known` claim (made on a state nobody reaches, void), the claim, then its plan
for that step again, another plan on the same state. Seat 1 writes a proof record of that
pair. Nobody expels seat 0; seat 1 is named; the table ends with one hash."""

from __future__ import annotations

import copy
import time
from pathlib import Path

import msgpack

from net.correspondence.folder_names import seat_file_name
from net.correspondence.seat_handover import read_claim
from net.correspondence.seat_record import (KIND_HAND, KIND_TABLE, FolderKey, SeatRecord,
                                            first_prev, make_record, parse_file)
from net.lockstep import signatures
from net.transport.framing import decode_body, encode_body
from tests.net.correspondence.test_folder_handover import (ABSENT, LATE, _finish, _session,
                                                           _until_stuck)
from tests.net.correspondence.test_folder_link import keys

HONEST, ACCUSER = 0, 1
TABLE, SECRET = b"F" * 16, b"S" * 32
KEY = FolderKey.for_table(SECRET)


def _messages(record: SeatRecord) -> list[dict[str, object]]:
    if record.kind != KIND_TABLE:
        return []
    return [decode_body(b) for b in msgpack.unpackb(KEY.open(record.sealed), raw=False)]


def _said_again(folder: Path, handed_at: int) -> tuple[bytes, bytes]:
    """Rewrite seat 0's file with a void plan before its `known` claim; the two records."""
    path = folder / seat_file_name(HONEST)
    records = list(parse_file(path.read_bytes()).records)
    known = next(i for i, r in enumerate(records) if r.kind == KIND_HAND
                 and (c := read_claim(HONEST, KEY.open(r.sealed))) is not None and c.known)
    again = next(m for r in records[known:] for m in _messages(r)
                 if m["type"] == "PlanCommitted" and int(m["step"]) > handed_at)  # type: ignore[call-overload]
    void = copy.deepcopy(again)
    del void["sig"]
    void["fields"] = [bytes(32)] * len(void["fields"])  # type: ignore[arg-type]
    signatures.sign(keys()[HONEST], TABLE, void)
    sealed = [r.sealed for r in records[:known]] + [KEY.seal(msgpack.packb([encode_body(void)]))] \
        + [r.sealed for r in records[known:]]
    kinds = [r.kind for r in records[:known]] + [KIND_TABLE] + [r.kind for r in records[known:]]
    prev, out = first_prev(TABLE, HONEST), []
    for seq, (kind, body) in enumerate(zip(kinds, sealed)):
        record = make_record(keys()[HONEST], TABLE, HONEST, seq, prev, kind, body)
        out.append(record)
        prev = record.digest
    path.write_bytes(b"".join(r.raw for r in out))
    second = next(r for r in out[known + 1:] if again in _messages(r))
    return out[known].raw, second.raw


def test_a_move_said_again_after_a_hand_over_is_no_proof_and_its_accuser_is_named(
        tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    zero, one = _until_stuck(folder, 2)
    now = time.time()
    for link in (zero, one):
        link.overdue(now)
        assert link.hand_over(ABSENT, now + LATE) == ""
    handed_at = one.handed[ABSENT]
    _finish(folder, (HONEST, ACCUSER))
    first, second = _said_again(folder, handed_at)
    accuser = _session(folder, ACCUSER)
    assert not accuser.expelled and not [o for o in accuser.offences if o[0] != ABSENT]
    accuser.prove(HONEST, first, second)
    ended = _finish(folder, (HONEST, ACCUSER))
    assert len({link.lockstep.hash for link in ended.values() if link.lockstep}) == 1
    for link in ended.values():
        assert not link.expelled, link.expelled
        assert link.handed == {ABSENT: handed_at}
        assert any(s == ACCUSER and "proves nothing: seat 0 said a move again after its "
                   "record" in why for s, why in link.offences), link.offences
