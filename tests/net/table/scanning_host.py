"""A host that makes its players scan (the mesh's door, net/table/policy/mesh_addresses.py),
as a process: it seats players like any host, then its `GameStarted` gives seat 1's address
as `HIDDEN` from its environment (HOST:PORT: a service on the players' own loopback), so
that every higher seat dials that service instead of seat 1.

Run as: HIDDEN=127.0.0.1:PORT python tests/net/table/scanning_host.py host --headless ...

Used by tests/net/table/test_mesh_attacks.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402

TARGET_SEAT = 1


def prepare(session: TableSession) -> None:
    """Say how many players sit, and point seat 1's address at `HIDDEN` in the start."""
    host, port = os.environ["HIDDEN"].rsplit(":", 1)
    lobby_changed = session.on_lobby_changed

    def on_lobby_changed(lobby: dict) -> None:
        humans = sum(1 for s in lobby["seats"] if s["kind"] == "human")
        print(f"seated: {humans} players", flush=True)
        lobby_changed(lobby)

    honest_start = session.start_game

    def pointing_start() -> None:
        for conn in list(session.roster.conns):
            send = conn.send

            def pointed(msg: Mapping[str, Any], body: bytes | None = None,
                        send: Any = send) -> None:
                if msg.get("type") == "GameStarted":
                    peers = [{**p, "host": host, "port": int(port)}
                             if p["seat"] == TARGET_SEAT else p for p in msg["peers"]]
                    msg, body = {**msg, "peers": peers}, None
                send(msg, body)
            conn.send = pointed                     # type: ignore[method-assign]
        print(f"seat {TARGET_SEAT}'s address given as {host}:{port}", flush=True)
        honest_start()

    session.on_lobby_changed = on_lobby_changed
    session.start_game = pointing_start       # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
