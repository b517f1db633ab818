"""A live player whose connections are all reset once (TCP RST) in the middle of the game
(for the loopback test): the process lives on and must redial, not split off.

Run as: python tests/net/reset_peer.py join HOST:PORT --code C --headless ...

Used by tests/net/table/test_loopback.py.
"""

from __future__ import annotations

import sys
from typing import Protocol, cast
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402

RESET_AT = 6


class Abortable(Protocol):
    """A TCP transport's reset (`ITCPTransport.abortConnection`)."""

    def abortConnection(self) -> None: ...


def prepare(session: TableSession) -> None:
    """Reset every player connection once, at step RESET_AT, through the session's public
    `on_step_applied` hook (chained after the runner's own)."""
    timing = session.on_step_applied
    done: list[bool] = []

    def on_step_applied(entry: dict) -> None:
        timing(entry)
        if entry["step"] == RESET_AT and not done:
            done.append(True)
            conns = [c for c in session.conns if c.seat is not None]
            for conn in conns:
                cast(Abortable, conn.transport).abortConnection()
            print(f"reset {len(conns)} connections at step {RESET_AT}", flush=True)
    session.on_step_applied = on_step_applied


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
