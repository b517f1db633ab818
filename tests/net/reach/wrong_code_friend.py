"""A friend by code that sends wrong table codes into its own tunnel (issue 47 finding 1).
As a process, for tests/net/reach/test_tunnel_identity.py.

It plays its seat as an honest friend; once its game began it also dials the host where
it reaches it (its tunnel's loopback end) with a wrong join code, again and again: a key
offer, then a `Hello` sealed under the wrong code, as a guesser would; `EVERY` seconds
after a wrong code, and when told to wait, the moment its wait ends (so the address it
comes from is kept waiting nearly all the time). The host
sees every friend's tunnel at 127.0.0.1. Before issue 47 those wrong codes put 127.0.0.1
into a growing wait, and another friend resuming through a new tunnel was refused and
never came back.

It prints "wrong code N: ..." (the table's answer) for each one.

Run as: python tests/net/reach/wrong_code_friend.py join CODE --headless ...
"""

from __future__ import annotations

import re
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from tests.net.raw_dialer import RawDialer, hello  # noqa: E402
from tests.net.trust.stranger_attacker import first_answer, read_frame  # noqa: E402

EVERY = 1.0          # seconds after a wrong code before the next (the issue's: 8 in 47 s)
TIMES = 40


def wrong_codes(host: str, port: int) -> None:
    for n in range(1, TIMES + 1):
        try:
            with socket.create_connection((host, port), timeout=10) as s:
                dialer = RawDialer("WRONGCOD")
                answer = first_answer(s, dialer)
                if answer.get("type") == "Welcomed":
                    s.sendall(dialer.seal(hello({}, b"w" * 16)))
                    answer = dialer.read(read_frame(s))[0]
                said = answer.get("reason", answer.get("type"))
        except (OSError, ConnectionError, ValueError, IndexError) as exc:
            said = f"no answer ({exc})"
        print(f"wrong code {n}: {said}", flush=True)
        wait = re.search(r"try again in (\d+) s", str(said))
        time.sleep(float(wait.group(1)) + 0.05 if wait else EVERY)


def prepare(session: TableSession) -> None:
    started = session.on_started

    def on_started(*args: Any) -> None:
        started(*args)
        host, port = session.addresses[0]          # my tunnel's end: the host's table
        threading.Thread(target=wrong_codes, args=(host, port), daemon=True).start()
    session.on_started = on_started


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])),
                        prepare=prepare))
