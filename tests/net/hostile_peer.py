"""A hostile player as a process (for the loopback test): it joins like anyone, then
sends malformed, forged and out-of-turn frames to every other player.

Run as: python tests/net/hostile_peer.py join HOST:PORT --code C --headless ...

Used by tests/net/table/test_loopback.py.
"""

from __future__ import annotations

import struct
import sys
from typing import TYPE_CHECKING, cast
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.transport.framing import encode_frame  # noqa: E402
from net.table.session import TableSession  # noqa: E402

if TYPE_CHECKING:
    from cli.runner import HeadlessReactor


def misbehave(session: TableSession) -> None:
    ls, my_seat = session.lockstep, session.my_seat
    assert ls is not None and my_seat is not None        # the game began here
    frames = [
        struct.pack(">I", 3) + b"\xc1\xc1\xc1",                       # malformed msgpack
        encode_frame({"type": "LinkRevealed", "step": ls.step, "seat": (my_seat + 1) % 3,
                      "link": b"x" * 32, "hash": ls.hash}),           # forged seat
        encode_frame({"type": "CommandSent", "step": ls.step, "seat": my_seat,
                      "command": {"type": "ChooseMove", "seat": my_seat,
                                  "target": None, "count": 1},
                      "hash": ls.hash}),                               # out of turn / illegal
        encode_frame({"type": "LinkRevealed", "step": 0, "seat": my_seat,
                      "link": b"r" * 32, "hash": "0" * 64}),           # replayed old step
    ]
    for conn in list(session.conns):
        for frame in frames:
            conn.send_body(frame[4:])    # sealed on its own channel: it knows the code
    print("hostile frames sent", flush=True)
    reactor = cast("HeadlessReactor", session.reactor)      # the runner's: it stops
    reactor.callLater(3.0, reactor.stop)


def prepare(session: TableSession) -> None:
    """Misbehave as soon as the game begins here (a 3-player bot game is over in well
    under a second), through the session's public `on_started` callback."""
    started = session.on_started
    done: list[bool] = []

    def on_started(*args) -> None:
        started(*args)
        if not done:
            done.append(True)
            session.reactor.callLater(0.0, misbehave, session)
    session.on_started = on_started


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
