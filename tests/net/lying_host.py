"""A lying host as a process (issue 34 item 4): it seats players like any host, then pins
a key of its own (whose secret it holds) on seat 1 in `GameStarted`, so that it could sign
seat 1's plans while seat 1's player believes the seat is theirs. With `LIE=turn_time` in
its environment it pins the true keys but sends seat 1 alone a `GameStarted` with another
turn time (equivocation: seat 1 would show and apply other clocks than the table).

Run as: python tests/net/lying_host.py host --headless --players 3 ...

Used by tests/net/trust/test_own_seat.py.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from net.trust.seat_keys import SeatKey  # noqa: E402

VICTIM = 1


def prepare(session: TableSession) -> None:
    """Say how many players sit (the test seats the victim first), and forge seat 1's key
    just before the start goes out."""
    forged = SeatKey()
    honest_start = session.start_game
    lobby_changed = session.on_lobby_changed

    def on_lobby_changed(lobby: dict) -> None:
        humans = sum(1 for s in lobby["seats"] if s["kind"] == "human")
        print(f"seated: {humans} players", flush=True)
        lobby_changed(lobby)

    def lying_start() -> None:
        if os.environ.get("LIE") == "turn_time":
            victim = session.roster.conn_for_peer(session.lobby["seats"][VICTIM]["peer"])
            assert victim is not None
            send = victim.send

            def other_clock(msg: Mapping[str, Any], body: bytes | None = None) -> None:
                if msg.get("type") == "GameStarted":
                    msg, body = {**msg, "turn_time": msg["turn_time"] * 5}, None
                    print(f"turn time {msg['turn_time']:g} s sent to seat {VICTIM} alone",
                          flush=True)
                send(msg, body)
            victim.send = other_clock           # type: ignore[method-assign]
        else:
            session.lobby["seats"][VICTIM]["key"] = forged.public
            print(f"forged key pinned on seat {VICTIM}", flush=True)
        honest_start()

    session.on_lobby_changed = on_lobby_changed
    session.start_game = lying_start       # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
