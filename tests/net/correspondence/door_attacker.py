"""Someone who changes a correspondence table's door files, as its own process.

    python -m tests.net.correspondence.door_attacker MODE FOLDER [CODE]

`edit-start`: flips a byte of the sealed start record in `table.shogun` and mends its
checksum (anyone who can write the folder); `forge-start CODE`: writes a start record of
its own, signed by its own key, over `table.shogun` (a friend who knows the code);
`wrong-claim`: claims a seat with a code it guessed, under this table's id read from the
folder (the sync provider, a stranger); `forge-seating CODE`: seats the table itself in
`seating.shogun` before the host does, with its own key on seat 0 and 1 (a friend who knows
the code). Prints what it did.
"""

from __future__ import annotations

import os
import struct
import sys
import time
import zlib
from pathlib import Path

from net.correspondence.seat_claim import claim_file_name, make_claim
from net.correspondence.table_start import (SEATING_FILE, START_FILE, SeatEntry, Seating,
                                            TableCode, TableStart, make_seating, make_start,
                                            parse_door)
from net.trust.seat_keys import SeatKey


def main() -> None:
    mode, folder = sys.argv[1], Path(sys.argv[2])
    code = TableCode.parse(sys.argv[3]) if len(sys.argv) > 3 else None
    me = SeatKey(None)
    start_path = folder / START_FILE
    if mode == "edit-start":
        raw = bytearray(start_path.read_bytes())
        raw[len(raw) - 4 - 80] ^= 0x20                       # inside the sealed options
        raw[-4:] = struct.pack(">I", zlib.crc32(bytes(raw[8:-4])))
        start_path.write_bytes(bytes(raw))
    elif mode == "forge-start":
        assert code is not None
        start_path.write_bytes(make_start(me, code, TableStart(
            me.public, "Mallory", 3, "sun", "beginner", 1, "normal", int(time.time()))))
    elif mode == "wrong-claim":
        _, record, _ = parse_door(start_path.read_bytes())
        assert record is not None
        guess = TableCode(os.urandom(32))
        forged = make_claim(me, guess, "Mallory")
        # the guessed code gives another table id: put this table's id in, mend the frame
        body = forged[8:-4].replace(guess.table, record.table)
        forged = forged[:4] + struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))
        (folder / claim_file_name(record.table, me.public)).write_bytes(forged)
    elif mode == "forge-seating":
        assert code is not None
        (folder / SEATING_FILE).write_bytes(make_seating(me, code, Seating((
            SeatEntry(0, "human", me.public, "Mallory"), SeatEntry(1, "human", SeatKey(None).public, "x"),
            SeatEntry(2, "bot", b"", "")))))
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(f"{mode} done in {folder}", flush=True)


if __name__ == "__main__":
    main()
