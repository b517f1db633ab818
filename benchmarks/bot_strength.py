"""Bot strength over seeded 4-player games (issue 2's target: heuristic wins >= 80% vs 3 random).

Prints: the heuristic bot's win rate against three random bots (its seat rotating), and the
win share per seat when four heuristic bots play each other (seat balance).
Usage: .venv/bin/python benchmarks/bot_strength.py [--games 200] [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.game import GameConfig  # noqa: E402
from sim.local import play_bots  # noqa: E402


def vs_random(seed: int) -> float:
    """Share of the win for the heuristic seat (ties split)."""
    seat = seed % 4
    bots = ["random"] * 4
    bots[seat] = "heuristic"
    state, _ = play_bots(GameConfig(4, "sun", "beginner"), seed, bots)
    return (1.0 / len(state.winners)) if seat in state.winners else 0.0


def mirror(seed: int) -> list[float]:
    state, _ = play_bots(GameConfig(4, "sun", "beginner"), 10_000 + seed, ["heuristic"] * 4)
    return [(1.0 / len(state.winners)) if s in state.winners else 0.0 for s in range(4)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        wins = list(pool.map(vs_random, range(args.games), chunksize=4))
        seats = list(pool.map(mirror, range(args.games), chunksize=4))
    rate = sum(wins) / len(wins)
    print(f"heuristic vs 3 random, {args.games} games (seat rotating): "
          f"wins {rate:.1%} (target >= 80%)")
    share = [sum(s[i] for s in seats) / len(seats) for i in range(4)]
    print("heuristic x4 seat balance (win share by seat): "
          + ", ".join(f"seat {i}: {v:.1%}" for i, v in enumerate(share)))


if __name__ == "__main__":
    main()
