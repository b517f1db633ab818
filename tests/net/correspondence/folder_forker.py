"""A player who forks its own seat file, as its own process: it signs a second, different
record for the number of its last one and leaves it in a sync tool's copy of its file.

    python -m tests.net.correspondence.folder_forker FOLDER SEAT

Prints what it did. Used by tests/net/correspondence/test_folder_processes.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgpack

from net.correspondence.seat_record import KIND_TABLE, FolderKey, make_record, parse_file
from tests.net.correspondence.test_folder_link import keys

TABLE, SECRET = b"F" * 16, b"S" * 32          # test_folder_link's table


def main() -> None:
    folder, seat = Path(sys.argv[1]), int(sys.argv[2])
    records = parse_file((folder / f"seat-{seat}.shogun").read_bytes()).records
    last = records[-1]
    other = make_record(keys()[seat], TABLE, seat, last.seq, last.prev, KIND_TABLE,
                        FolderKey.for_table(SECRET).seal(msgpack.packb([])))
    copy = folder / f"seat-{seat}.sync-conflict-20261129-101500-ABCDEFG.shogun"
    copy.write_bytes(b"".join(r.raw for r in records[:-1]) + other.raw)
    print(f"seat {seat} forked at record {last.seq} ({copy.name})", flush=True)


if __name__ == "__main__":
    main()
