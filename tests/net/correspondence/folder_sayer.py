"""A player who says two different plans for one step in its own, unforked seat file, as
its own process: after its plan's record it appends a record with another plan for that
step, signed by its seat and chained as its file's next record.

    python -m tests.net.correspondence.folder_sayer FOLDER SEAT

Prints what it did; exits 3 when its last record holds no plan. Used by
tests/net/correspondence/test_folder_processes.py (and `second_plan` by
test_folder_said_twice.py).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import msgpack

from net.correspondence.folder_names import seat_file_name
from net.correspondence.seat_record import KIND_TABLE, FolderKey, make_record, parse_file
from net.lockstep import signatures
from net.transport.framing import decode_body, encode_body
from tests.net.correspondence.test_folder_link import keys

TABLE, SECRET = b"F" * 16, b"S" * 32          # test_folder_link's table


def second_plan(folder: Path, seat: int) -> int | None:
    """Append to `seat`'s file a record with another signed plan for the step of the plan
    in its last record; the new record's number, or None (no plan there)."""
    path = folder / seat_file_name(seat)
    records = parse_file(path.read_bytes()).records
    last, key = records[-1], FolderKey.for_table(SECRET)
    if last.kind != KIND_TABLE:
        return None
    bodies = msgpack.unpackb(key.open(last.sealed), raw=False)
    plans = [m for m in map(decode_body, bodies) if m["type"] == "PlanCommitted"]
    if not plans:
        return None
    other = copy.deepcopy(plans[0])
    del other["sig"]
    other["fields"] = [bytes(32)] * len(other["fields"])
    signatures.sign(keys()[seat], TABLE, other)
    record = make_record(keys()[seat], TABLE, seat, last.seq + 1, last.digest, KIND_TABLE,
                         key.seal(msgpack.packb([encode_body(other)])))
    with path.open("ab") as f:
        f.write(record.raw)
    return record.seq


def main() -> None:
    folder, seat = Path(sys.argv[1]), int(sys.argv[2])
    seq = second_plan(folder, seat)
    if seq is None:
        print(f"seat {seat}'s last record holds no plan", flush=True)
        sys.exit(3)
    print(f"seat {seat} said a second plan in its record {seq}", flush=True)


if __name__ == "__main__":
    main()
