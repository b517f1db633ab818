"""A player who changes another seat's file in the shared folder, as its own process.

    python -m tests.net.correspondence.folder_attacker FOLDER VICTIM MODE

MODE `edit`: changes a byte of the victim's record 1 and mends its checksum, so the record
is whole but no longer the seat's; `replay`: appends the victim's record 0 again;
`truncate`: cuts the victim's file to its first record. Prints what it did.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

from net.correspondence.seat_record import HEADER, TRAILER, parse_file


def main() -> None:
    folder, victim, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    path = folder / f"seat-{victim}.shogun"
    data = path.read_bytes()
    records = parse_file(data).records
    if mode == "edit":
        start = len(records[0].raw)
        raw = bytearray(records[1].raw)
        body = HEADER.size + 40                      # inside the sealed payload
        raw[body] ^= 0x55
        body_bytes = bytes(raw[HEADER.size:len(raw) - TRAILER.size])
        raw[len(raw) - TRAILER.size:] = struct.pack(">I", zlib.crc32(body_bytes))
        data = data[:start] + bytes(raw) + data[start + len(raw):]
    elif mode == "replay":
        data += records[0].raw
    elif mode == "truncate":
        data = records[0].raw
    path.write_bytes(data)
    print(f"{mode} seat-{victim}.shogun ({len(records)} records)", flush=True)


if __name__ == "__main__":
    main()
