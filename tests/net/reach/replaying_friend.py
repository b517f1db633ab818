"""A friend by code that re-sends its own `PairTunnelOpened` (issue 47 finding 3). As a
process, for tests/net/reach/test_tunnel_identity.py.

It plays as an honest friend, except that every `PairTunnelOpened` with a code it sends
(it serves a pair tunnel: the lower seat of a pair of friends by code who cannot dial
each other) goes out `COPIES` more times at once. Before issue 47 the host passed every
copy on, and the other friend of the pair charged the *host* with an offence per copy
and dropped it at the third.

It prints "replayed PairTunnelOpened N times" when it did.

Run as: python tests/net/reach/replaying_friend.py join CODE --headless ...
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.transport.peer import PeerConnection  # noqa: E402

COPIES = 3

_send = PeerConnection.send


def send(self: PeerConnection, msg: Mapping[str, Any], body: bytes | None = None) -> None:
    _send(self, msg, body)
    if msg.get("type") == "PairTunnelOpened" and msg.get("code") is not None:
        for _ in range(COPIES):
            _send(self, dict(msg))
        print(f"replayed PairTunnelOpened {COPIES} times", flush=True)


if __name__ == "__main__":
    PeerConnection.send = send          # type: ignore[method-assign]
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:]))))
