"""Bot strength over seeded 4-player games (issue 15). Prints figures, asserts nothing.

Each line plays one `subject` bot against three `opponent` bots on the draft setup; the
subject's seat rotates (game i: seat i % 4) and each game has its own seed. A game's
win counts 1/k for k tied winners. The interval is the normal approximation's 95% band.
The `setups` line plays four identical bots on the beginner setup (seat = fixed starting
position) and prints the win share of each position, before (`heuristic`) and after
(`normal`); the weakest position's share is the figure the issue asks for.
For `hard` it also prints decision times (median, p95, max) per decision kind, wall
clock and the process's own CPU time (on a shared machine the wall time includes waiting
for a core; the load average is printed at the start).

Usage: .venv/bin/python benchmarks/bot_strength.py [--games 200] [--jobs 2]
       [--offset 0] [--budget N] [--lines normal:heuristic,normal:easy,easy:random,hard:normal,setups]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim import bots  # noqa: E402
from sim.game import GameConfig  # noqa: E402
from sim.local import LocalGame  # noqa: E402

TARGETS = {("normal", "heuristic"): 0.35, ("normal", "easy"): 0.60, ("easy", "random"): 0.80,
           ("hard", "normal"): 0.50}


def play(job: tuple[str, str, int, str]) -> tuple[float, list[tuple[str, float, float]], float]:
    """(subject's win share, [(decision kind, wall s, CPU s)] of the subject, wall s)."""
    subject, opponent, seed, setup = job
    seat = seed % 4
    names = [opponent] * 4
    names[seat] = subject
    start = time.perf_counter()
    game = LocalGame(GameConfig(4, "sun", setup), 150_000 + seed, dict(enumerate(names)))
    times = []
    while not game.over:
        d = game.state.decision
        timed = d.kind not in ("chance", "tower") and seat in d.seats and subject == "hard"
        t0, c0 = time.perf_counter(), time.process_time()
        cmd = game.automatic_command()
        assert cmd is not None   # every seat is a bot
        if timed and getattr(cmd, "seat", None) == seat:
            times.append((str(d.kind), time.perf_counter() - t0, time.process_time() - c0))
        game.submit(cmd)
    winners = game.state.winners
    share = (1.0 / len(winners)) if seat in winners else 0.0
    return share, times, time.perf_counter() - start


def setup_game(job: tuple[str, int]) -> list[float]:
    bot, seed = job
    game = LocalGame(GameConfig(4, "sun", "beginner"), 250_000 + seed, dict.fromkeys(range(4), bot))
    for _ in game.run():
        pass
    w = game.state.winners
    return [(1.0 / len(w)) if s in w else 0.0 for s in range(4)]


def band(shares: list[float]) -> str:
    n = len(shares)
    mean = sum(shares) / n
    sd = statistics.pstdev(shares) if n > 1 else 0.0
    half = 1.96 * sd / n ** 0.5
    return f"{mean:.1%} (95% CI {max(0.0, mean - half):.1%}-{min(1.0, mean + half):.1%}, {n} games)"


def _set_budget(budget: int | None) -> None:
    from sim.bots import search
    if budget is not None:
        search.BUDGET = budget


def _spread(ts: list[float]) -> str:
    p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
    return f"median {statistics.median(ts):.2f} s, p95 {p95:.2f} s, max {ts[-1]:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--offset", type=int, default=0, help="first game number (other seeds)")
    ap.add_argument("--budget", type=int, default=None,
                    help="the hard bot's rollouts per decision (default: sim.bots.search.BUDGET)")
    ap.add_argument("--lines", default="normal:heuristic,normal:easy,easy:random,hard:normal,setups")
    args = ap.parse_args()
    from sim.bots import search
    print(f"hard bot budget: {args.budget or search.BUDGET} rollouts per decision", flush=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    with ProcessPoolExecutor(args.jobs, initializer=_set_budget, initargs=(args.budget,)) as pool:
        for line in args.lines.split(","):
            start = time.perf_counter()
            if line == "setups":
                for bot in ("heuristic", "normal"):
                    seats = list(pool.map(setup_game, [(bot, i) for i in range(args.games)]))
                    share = [sum(s[i] for s in seats) / len(seats) for i in range(4)]
                    print(f"beginner setup, 4x {bot}, {len(seats)} games: win share by position "
                          + ", ".join(f"{i + 1}: {v:.1%}" for i, v in enumerate(share))
                          + f"; weakest {min(share):.1%}", flush=True)
                continue
            subject, opponent = line.split(":")
            assert subject in bots.BOT_NAMES and opponent in bots.BOT_NAMES, line
            jobs = [(subject, opponent, args.offset + i, "draft") for i in range(args.games)]
            results = []
            for result in pool.imap(play, jobs, chunksize=1) if hasattr(pool, "imap") else \
                    pool.map(play, jobs, chunksize=1):
                results.append(result)
                if len(results) % 20 == 0 and len(results) < len(jobs):
                    print(f"  ... {subject} vs 3x {opponent} after {len(results)} games: "
                          f"{band([r[0] for r in results])}", flush=True)
            shares = [r[0] for r in results]
            target = TARGETS.get((subject, opponent))
            print(f"{subject} vs 3x {opponent}: wins {band(shares)}"
                  + (f" (target >= {target:.0%})" if target else "")
                  + f"; {time.perf_counter() - start:.0f} s wall", flush=True)
            times = [t for r in results for t in r[1]]
            for kind in sorted({t[0] for t in times}):
                walls = sorted(t[1] for t in times if t[0] == kind)
                cpus = sorted(t[2] for t in times if t[0] == kind)
                print(f"  {subject} decision '{kind}': {len(walls)} decisions, wall "
                      f"{_spread(walls)}; CPU {_spread(cpus)}", flush=True)
            if times:
                print(f"  game wall time: median {statistics.median(r[2] for r in results):.0f} s, "
                      f"max {max(r[2] for r in results):.0f} s", flush=True)


if __name__ == "__main__":
    main()
