"""What the engine's views cost a window game (issue 35 item 2): whole 4-player bot games
driven through `LocalSession`, whose batches carry the public view after each event
(`client.sessions.interface.viewed_batch`, the step played again by `sim.viewed`),
against the same games with plain batches (the views left out).

    .venv/bin/python benchmarks/bench_batch_views.py [--games 3]

Prints milliseconds per command both ways and the difference, for random bots (the
rules' share is largest) and heuristic bots (as a window's default bots think).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    from client.sessions import local
    from client.sessions.interface import Batch, viewed_batch

    def plain(before: Any, commands: Sequence[Any], events: Sequence[Any], after: Any) -> Batch:
        return Batch(events, after)

    for bot in ("random", "heuristic"):
        per: dict[bool, list[float]] = {False: [], True: []}
        for seed in range(1, args.games + 1):
            for viewed in (False, True):
                local.viewed_batch = viewed_batch if viewed else plain
                s = local.LocalSession(4, "sun", "beginner", (), bot, seed=seed)
                t0 = time.perf_counter()
                n = 0
                while s.pump():
                    n += 1
                per[viewed].append((time.perf_counter() - t0) / n * 1000)
        a, b = statistics.median(per[False]), statistics.median(per[True])
        print(f"{bot} bots, {args.games} whole 4-player games, median ms per command: "
              f"plain batches {a:.2f}, with the engine's views {b:.2f} ({b - a:+.2f} ms)")
    local.viewed_batch = viewed_batch
    return 0


if __name__ == "__main__":
    sys.exit(main())
