"""How long a tower drop takes to compute, against the ~2 s a real drop takes.

A whole game (60-100 drops plus rules and bots) must fit in about a second, so the two
figures that matter are a typical battle drop and the heavy case the issue names: 40 cubes
thrown into a tower holding about 15.

    .venv/bin/python benchmarks/bench_tower.py [--repeat N]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim import tower  # noqa: E402

REAL_DROP_S = 2.0
FILL = {0: 7, 1: 7, 2: 7, 3: 7, tower.PEASANT: 10}


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def towers_holding(target: int, count: int) -> list[tower.TowerContents]:
    """Mid-game towers with about `target` cubes inside (found by playing drops)."""
    found: list[tower.TowerContents] = []
    i = 0
    while len(found) < count:
        contents = tower.drop(tower.EMPTY, FILL, _seed(f"bench fill {i}")).contents
        for j in range(30):
            if abs(len(contents) - target) <= 1:
                found.append(contents)
                break
            contents = tower.drop(contents, {j % 5: 4 + j % 9},
                                  _seed(f"bench {i} {j}")).contents
        i += 1
    return found


def time_drops(towers, thrown, repeat: int, label: str) -> list[float]:
    times = []
    for k in range(repeat):
        contents = towers[k % len(towers)]
        start = time.perf_counter()
        tower.drop(contents, thrown, _seed(f"{label} {k}"))
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    times = sorted(times)
    median = statistics.median(times)
    p90 = times[int(len(times) * 0.9)]
    print(f"{name:<34} median {median:6.2f} ms   p90 {p90:6.2f} ms   "
          f"{REAL_DROP_S * 1000 / median:5.0f}x faster than a real drop")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args()
    towers = towers_holding(15, 12)
    inside = statistics.mean(len(t) for t in towers)
    print(f"pymunk {tower.pymunk.version}, dt {tower.DT:.4f} s, "
          f"{tower.ITERATIONS} solver iterations; towers hold {inside:.1f} cubes on average")
    tower.drop(towers[0], {0: 8}, _seed("warm-up"))
    report("40 cubes into ~15 inside", time_drops(towers, {0: 20, 1: 20}, args.repeat, "big"))
    report("8-cube battle into ~15 inside", time_drops(towers, {0: 5, 1: 3}, args.repeat, "bat"))
    report("10 cubes into an empty tower", time_drops([tower.EMPTY], {2: 10}, args.repeat, "emp"))
    report("fill: 38 cubes into an empty tower", time_drops([tower.EMPTY], FILL, 20, "fill"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
