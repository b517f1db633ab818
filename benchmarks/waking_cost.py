"""Benchmark: what waking from a short sleep costs the work that follows, on this machine.

Run: .venv/bin/python benchmarks/waking_cost.py [--reps 5] [--core 0] [--halt-poll-us 3000]

Why: a network peer waits for the other players between steps (about 120 times in a
3-seat game, BENCHMARKS.md), and after each wait it computes the next step, often a tower
drop. A local game replayed without pauses never waits. If the same work costs more CPU
right after a sleep (caches and predictors cooled, the virtual CPU halted and resumed),
part of a peer's extra CPU is not protocol work at all, and the local game it is
compared with should pause as the peer did (`benchmarks/local_game.py`, `pauses`).

What it does: one seeded 3-seat bot game is played locally; its tower drops are then
simulated again and again, pinned to one core: back to back, and with a sleep of 0.5, 2
and 10 ms before each drop. Each repetition runs the four settings in turn (so drifts in
the machine's speed hit them alike) and prints the tower's CPU for each and its ratio to
the back-to-back run of the same repetition; then the medians. With `--halt-poll-us`
the idle CPU polls that long before it halts (`benchmarks/halt_poll.py`), as a real
computer's shallow sleep keeps its caches: then a short sleep should cost nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import halt_poll  # noqa: E402
from sim.tower import drop as tower  # noqa: E402
from sim.game import GameConfig, apply, new_game, pending  # noqa: E402
from sim.local import LocalGame  # noqa: E402

SLEEPS = (0.0, 0.0005, 0.002, 0.010)


def a_game_s_drops(seed: int) -> list:
    """The tower decisions of one seeded local bot game."""
    game = LocalGame(GameConfig(players=3), seed, {seat: "heuristic" for seat in range(3)})
    while not game.over:
        command = game.automatic_command()
        assert command is not None   # every seat is a bot
        game.submit(command)
    state, _ = new_game(game.config)
    drops = []
    for command in game.commands:
        decision = pending(state)
        if decision.kind == "tower":
            drops.append(decision)
        state, _ = apply(state, command)
    return drops


def tower_cpu(drops: list, sleep: float) -> float:
    spent = 0.0
    for decision in drops:
        if sleep:
            time.sleep(sleep)
        started = time.process_time()
        tower.settle(decision)
        spent += time.process_time() - started
    return spent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--core", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    halt_poll.add_option(ap)
    return halt_poll.run(ap.parse_args(), measure)


def measure(args: argparse.Namespace) -> int:
    os.sched_setaffinity(0, {args.core})
    drops = a_game_s_drops(args.seed)
    print(f"{len(drops)} tower drops of one game, pinned to core {args.core}", flush=True)
    ratios: dict[float, list[float]] = {s: [] for s in SLEEPS}
    for rep in range(args.reps):
        cpu = {s: tower_cpu(drops, s) for s in SLEEPS}
        for s in SLEEPS:
            ratios[s].append(cpu[s] / cpu[0.0])
        print(f"rep {rep + 1}: " + ", ".join(
            f"sleep {s * 1000:g} ms: {cpu[s] * 1000:.1f} ms ({cpu[s] / cpu[0.0]:.2f}x)"
            for s in SLEEPS), flush=True)
    print("median, CPU of the drops / back to back: " + ", ".join(
        f"sleep {s * 1000:g} ms {statistics.median(ratios[s]):.2f}x" for s in SLEEPS[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
