"""A stranger's flood, as its own process: slowloris connections (a 1 MiB length prefix,
then almost 1 MiB of it, then nothing) and idle ones, held; then how many are still open.

Run: `python tests/net/trust/flood_attacker.py PORT SLOW IDLE CHECK_AFTER`. Prints
"flooded N" once every connection was opened, then "open K of N" CHECK_AFTER seconds later.

Used by tests/net/trust/test_flood.py.
"""

from __future__ import annotations

import socket
import struct
import sys
import time

PREFIX = struct.pack(">I", 1 << 20)          # a 1 MiB frame is announced...
PARTIAL = b"\0" * ((1 << 20) - 1)            # ...and all of it but one byte is sent


def opened(port: int) -> socket.socket | None:
    s = socket.socket()
    try:
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        return None
    return s


def slowloris(port: int) -> socket.socket | None:
    s = opened(port)
    if s is None:
        return None
    s.settimeout(5.0)
    try:
        s.sendall(PREFIX + PARTIAL)
    except OSError:                           # the host closed it: as it should
        pass
    return s


def still_open(s: socket.socket) -> bool:
    """Drains what the host sent (a refusal, before its close); open unless it reached the end."""
    s.setblocking(False)
    try:
        while True:
            if not s.recv(65536):
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def main() -> None:
    port, slow, idle, check_after = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                     float(sys.argv[4]))
    socks = [slowloris(port) for _ in range(slow)] + [opened(port) for _ in range(idle)]
    held = [s for s in socks if s is not None]
    print(f"flooded {len(held)}", flush=True)
    time.sleep(check_after)
    print(f"open {sum(still_open(s) for s in held)} of {len(held)}", flush=True)
    for s in held:
        s.close()


if __name__ == "__main__":
    main()
