"""A headless player for whom one piece of the game's work takes STALL_SECONDS longer
(for the loopback tests): the reactor's thread blocks in the engine, as it does while a
slow machine computes a drop or the bot seats' moves, so nothing is read or sent
meanwhile. SHOGUN_TEST_STALL says which work: `drop` (the game's third tower drop) or
`bot` (the first move the lockstep computes for a bot seat).

Run as: python tests/net/stalling_peer.py host|join ... --headless ...

Used by tests/net/table/test_loopback.py.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402

STALL_SECONDS = 7.0      # more than the silence limit (net.table.liveness.SILENT_AFTER, 5 s)


def prepare(session: TableSession) -> None:
    """Slow down the engine the lockstep computes through, once."""
    engine = session.engine
    done: list[bool] = []

    def stall(what: str) -> None:
        if not done:
            done.append(True)
            print(f"busy for {STALL_SECONDS:g} s in {what}", flush=True)
            time.sleep(STALL_SECONDS)

    if os.environ.get("SHOGUN_TEST_STALL", "drop") == "drop":
        settle = engine.settle
        drops: list = []

        def slow_settle(decision):
            drops.append(decision)
            if len(drops) == 3:
                stall("drop 3")
            return settle(decision)
        engine.settle = slow_settle     # type: ignore[method-assign]  # the slow machine
    else:
        choose = engine.choose

        def slow_choose(state, seat, bot, seed):
            if seat != session.my_seat:          # the lockstep, for a bot seat
                stall("a bot seat's move")
            return choose(state, seat, bot, seed)
        engine.choose = slow_choose     # type: ignore[method-assign]  # the slow machine


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
