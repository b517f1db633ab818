"""Engine figures for BENCHMARKS.md (issue 2). Prints, does not assert.

1. A full 5-player heuristic game with the physics tower: median wall time (target <= 1 s).
2. Rules throughput without the tower: the same games' command logs re-applied; the logs
   hold every drop's outcome (TowerSettled), so no physics runs (target >= 5,000 commands/s).
   The same logs through `sim.viewed.apply_viewed` (a public view after each event).
3. Peak memory (max RSS) of a headless game process (target <= 150 MB).

Usage: .venv/bin/python benchmarks/bench_engine.py [--games 11]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.game import GameConfig, apply  # noqa: E402
from sim.local import LocalGame  # noqa: E402
from sim.viewed import apply_viewed  # noqa: E402

MEMORY_PROBE = """
import resource, sys
sys.path.insert(0, {root!r})
sys.argv = ["main.py", "headless", "--players", "5", "--seed", "3", "--quiet"]
import main
main.main(sys.argv[1:])
print("maxrss_kb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def full_game(seed: int) -> tuple[float, LocalGame, int]:
    start = time.perf_counter()
    game = LocalGame(GameConfig(5, "sun", "beginner"), seed, dict.fromkeys(range(5), "heuristic"))
    for _ in game.run():
        pass
    elapsed = time.perf_counter() - start
    drops = sum(1 for c in game.commands if type(c).__name__ == "TowerSettled")
    return elapsed, game, drops


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=11)
    args = ap.parse_args()

    times, games = [], []
    for seed in range(args.games):
        elapsed, game, _ = full_game(seed)
        times.append(elapsed)
        games.append(game)
    med = statistics.median(times)
    commands = statistics.median(len(g.commands) for g in games)
    print(f"5-player heuristic game with physics tower: median {med * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; "
          f"{commands:.0f} commands/game) -> {med / 1.0:.2f} of the 1 s budget")

    # the tower's outcomes are commands (TowerSettled) in each game's log: re-applying the
    # logs runs the rules alone, no physics
    total, spent = 0, 0.0
    for seed, game in enumerate(games):
        state = LocalGame(GameConfig(5, "sun", "beginner"), seed, {}).state
        start = time.perf_counter()
        for cmd in game.commands:
            state, _ = apply(state, cmd)
        spent += time.perf_counter() - start
        total += len(game.commands)
    rate = total / spent
    print(f"rules without the tower: {rate:,.0f} commands/s over {total} commands "
          f"-> {rate / 5000:.1f}x the 5,000/s target")

    # the same logs with the public view after each event (sim/viewed.py), as a display
    # asks for them; `apply` itself is unchanged
    viewed_spent = 0.0
    for seed, game in enumerate(games):
        state = LocalGame(GameConfig(5, "sun", "beginner"), seed, {}).state
        start = time.perf_counter()
        for cmd in game.commands:
            state, _, _views = apply_viewed(state, cmd)
        viewed_spent += time.perf_counter() - start
    viewed = total / viewed_spent
    print(f"the same with a public view per event: {viewed:,.0f} commands/s "
          f"-> {viewed / rate:.2f} of apply's rate, {viewed / 5000:.1f}x the 5,000/s target")

    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(root=str(ROOT))],
                         capture_output=True, text=True, check=True)
    kb = int(out.stdout.split("maxrss_kb")[-1])
    print(f"peak memory of a headless 5-player game: {kb / 1024:.0f} MB "
          f"-> {kb / 1024 / 150:.2f} of the 150 MB budget")


if __name__ == "__main__":
    main()
