"""A friend by code that re-sends its own `PairTunnelOpened` (issue 47 finding 3). As a
process, for tests/net/reach/test_tunnel_identity.py.

It plays as an honest friend, except that every `PairTunnelOpened` with a code it sends
(it serves a pair tunnel: the lower seat of a pair of friends by code who cannot dial
each other) goes out `COPIES` more times at once. Before issue 47 the host passed every
copy on, and the other friend of the pair charged the *host* with an offence per copy
and dropped it at the third.

It prints "replayed PairTunnelOpened N times" when it did.

Behind NAT, as the test has it (`SHOGUN_NET_INTERFACE=127.0.0.2`): the host sees the friend
at 127.0.0.1 and probes 127.0.0.1 at the friend's listen port, which must be refused. So the
friend listens on 127.0.0.2 at a port it holds bound, never listening and without
SO_REUSEADDR, on 127.0.0.1: no other table can listen there for its life. (Before, the port
was only the kernel's pick on 127.0.0.2; whenever a table on 127.0.0.1 had the same one, the
host's own, the other friend's end of its tunnel or anyone's, the probe was greeted, the host
judged the friend dialable and asked no tunnel, and the game stalled.)

Run as: python tests/net/reach/replaying_friend.py join CODE --headless ...
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.dialer import Dialer  # noqa: E402
from net.transport.peer import PeerConnection  # noqa: E402

COPIES = 3

_send = PeerConnection.send


def send(self: PeerConnection, msg: Mapping[str, Any], body: bytes | None = None) -> None:
    _send(self, msg, body)
    if msg.get("type") == "PairTunnelOpened" and msg.get("code") is not None:
        for _ in range(COPIES):
            _send(self, dict(msg))
        print(f"replayed PairTunnelOpened {COPIES} times", flush=True)


_listen = Dialer.listen
_held: list[socket.socket] = []


def listen(self: Dialer, port: int) -> None:
    if port == 0 and os.environ.get("SHOGUN_NET_INTERFACE") == "127.0.0.2":
        closed = socket.socket()           # no SO_REUSEADDR: nobody else binds it
        closed.bind(("127.0.0.1", 0))
        _held.append(closed)
        port = closed.getsockname()[1]
    _listen(self, port)


if __name__ == "__main__":
    Dialer.listen = listen              # type: ignore[method-assign]
    PeerConnection.send = send          # type: ignore[method-assign]
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:]))))
