"""Drop time of the deterministic pymunk against the PyPI wheel, in one run (issue 25).

The deterministic build (`tools/build_physics.py`: contraction off, the project's own
maths instead of libm) must not make drops much slower: target at most 1.3x the wheel.
Each build runs in its own worker process with that pymunk first on its PYTHONPATH; the
workers alternate (wheel, deterministic, wheel, ...) so a busy shared machine slows both
alike, and all start from the same integer towers (computed once here). A round is 40
cubes into each of 8 towers holding 15 and an 8-cube battle into each of 8 mid-game
towers; the figure per build is the median over the rounds of the worker's CPU time
(this thread only), and the ratio is deterministic / wheel.

    .venv/bin/python benchmarks/bench_physics_build.py [--rounds N]

The wheel comes from PyPI into `~/.cache/shogun/pymunk-wheel/` (so the comparison works
when the deterministic build is the one installed); the deterministic build from the
build cache. Figures: BENCHMARKS.md (tower section).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import build_physics  # noqa: E402

TOWERS = 8


def wheel_dir() -> Path:
    """pymunk's PyPI wheel, installed once into a folder of its own."""
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    target = build_physics.cache_root() / "pymunk-wheel" / f"{py}-{platform.machine()}"
    if not (target / "pymunk" / "__init__.py").exists():
        subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "install",
                        "--no-deps", "--only-binary", ":all:", "--target", str(target),
                        f"pymunk=={build_physics.PYMUNK_VERSION}"], check=True,
                       capture_output=True)
    return target


def starting_towers() -> dict[str, list]:
    from sim.tower import stats as tower_stats
    holding = tower_stats.towers_holding(15, TOWERS, base="bench")
    game = tower_stats.play_game(0, battles=TOWERS, base="bench")
    return {"holding": [t.to_wire() for t in holding],
            "mid_game": [t.to_wire() for t in game.towers[:TOWERS]]}


def worker(towers: dict[str, list]) -> dict:
    """Run one round in this process; its CPU milliseconds and what pymunk it used."""
    from sim.tower import build, drop as tower, stats as tower_stats
    from sim.tower.contents import TowerContents
    holding = [TowerContents.from_wire(w) for w in towers["holding"]]
    mid_game = [TowerContents.from_wire(w) for w in towers["mid_game"]]
    tower.drop(holding[0], {0: 8}, tower_stats.seed("warm-up"))
    start = time.thread_time()
    for k, contents in enumerate(holding):
        tower.drop(contents, {0: 20, 1: 20}, tower_stats.seed("bench", "40", k))
    for k, contents in enumerate(mid_game):
        tower.drop(contents, {2: 5, 3: 3}, tower_stats.seed("bench", "8", k))
    return {"cpu_ms": (time.thread_time() - start) * 1000, "build": build.physics_build(),
            "drops": len(holding) + len(mid_game)}


def run_worker(path: Path, towers_file: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    done = subprocess.run([sys.executable, __file__, "--worker", str(towers_file)], env=env,
                          capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker.read_text()))))
        return 0
    try:
        deterministic = build_physics.build()
    except build_physics.CannotBuild as why:
        print(f"cannot build the deterministic pymunk here: {why}")
        return 2
    builds = {"wheel": wheel_dir(), "deterministic": deterministic}
    towers_file = build_physics.cache_root() / "bench-physics-towers.json"
    towers_file.write_text(json.dumps(starting_towers()))
    times: dict[str, list[float]] = {name: [] for name in builds}
    drops = 0
    for _ in range(args.rounds):
        for name, path in builds.items():
            seen = run_worker(path, towers_file)
            expected = "platform" if name == "wheel" else "deterministic"
            if seen["build"] != expected:
                raise SystemExit(f"the {name} worker ran a {seen['build']} build")
            times[name].append(seen["cpu_ms"])
            drops = seen["drops"]
    print(f"pymunk {build_physics.PYMUNK_VERSION} on {platform.machine()}, {args.rounds} rounds "
          f"of {drops} drops (40 cubes into {TOWERS} towers holding 15, 8 cubes into "
          f"{TOWERS} mid-game towers), CPU time per drop:")
    medians = {}
    for name, values in times.items():
        medians[name] = statistics.median(values) / drops
        print(f"  {name:<14} median {medians[name]:6.2f} ms   (rounds: "
              + ", ".join(f"{v / drops:.2f}" for v in values) + ")")
    ratio = medians["deterministic"] / medians["wheel"]
    print(f"deterministic / wheel: {ratio:.2f}x (target at most 1.3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
