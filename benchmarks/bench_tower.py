"""How long a tower drop takes to compute, against the ~2 s a real drop takes.

A whole game (60-100 drops plus rules and bots) must fit in about a second, so the
figures that matter are a typical battle drop and the heavy case issue 11 names: 40
cubes thrown into a tower holding 15 (target: median at most 25 ms). Every drop includes
its settle passes and builds its spaces from the quantised contents.

    .venv/bin/python benchmarks/bench_tower.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymunk  # noqa: E402

from sim.tower import drop as tower, stats as tower_stats  # noqa: E402

REAL_DROP_S = 2.0


def time_drops(towers, thrown, repeat: int, label: str) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per drop (CPU time: this thread only, so a busy
    shared machine inflates it less than the wall clock)."""
    wall, cpu = [], []
    for k in range(repeat):
        contents = towers[k % len(towers)]
        start, start_cpu = time.perf_counter(), time.thread_time()
        tower.drop(contents, thrown, tower_stats.seed("bench", label, k))
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = sorted(times[0]), sorted(times[1])
    median = statistics.median(wall)
    p90 = wall[int(len(wall) * 0.9)]
    print(f"{name:<40} median {median:6.2f} ms   p90 {p90:6.2f} ms   CPU median "
          f"{statistics.median(cpu):6.2f} ms   {REAL_DROP_S * 1000 / median:5.0f}x faster "
          f"than a real drop")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args()
    holding = tower_stats.towers_holding(15, 12, base="bench")
    game = tower_stats.play_game(0, base="bench")
    print(f"pymunk {pymunk.version}, dt {tower.DT:.4f} s, "
          f"{tower.ITERATIONS} solver iterations; {len(holding)} towers holding 15 cubes; "
          f"{len(game.towers)} mid-game towers holding {statistics.mean(game.inside):.1f} "
          f"on average")
    tower.drop(holding[0], {0: 8}, tower_stats.seed("warm-up"))
    report("40 cubes into a tower holding 15",
           time_drops(holding, {0: 20, 1: 20}, args.repeat, "big"))
    report("60 cubes into a tower holding 15",
           time_drops(holding, {0: 20, 1: 20, 2: 20}, args.repeat, "sixty"))
    report("8-cube battle into a mid-game tower",
           time_drops(game.towers, {0: 5, 1: 3}, args.repeat, "battle"))
    report("nothing thrown (the settle pass alone)",
           time_drops(game.towers, {}, args.repeat, "quiet"))
    report("10 cubes into an empty tower",
           time_drops([tower.EMPTY], {2: 10}, args.repeat, "empty"))
    report("fill: 38 cubes into an empty tower",
           time_drops([tower.EMPTY], tower_stats.FILL, max(10, args.repeat // 3), "fill"))
    print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    start = time.perf_counter()
    tower.canary_digest()
    print(f"{'canary_digest() (a fill and a 40-cube throw)':<40} "
          f"{(time.perf_counter() - start) * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
