"""Benchmark: a 5-peer headless bot game on loopback vs the same game size played locally.

Run: .venv/bin/python benchmarks/bench_net.py [--games N] [--players 5]

Prints, per game and as medians: the wall time of the network game (host launch to the
last peer's exit, and from "game started" to the end as seen by the host), the wall time
of a local headless game (`main.py headless`, one process, same players and bots), their
ratio, the bytes each peer sent, and the median command round trip (from a peer's first
message of a step that needs every player's input — beacon links, plan commit/reveal —
until that step is applied).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.net import processes as P  # noqa: E402


def local_game(players: int, seed: int) -> dict:
    """The same size of game on one machine: as a process, and the game alone in-process."""
    start = time.perf_counter()
    subprocess.run([P.PYTHON, str(ROOT / "main.py"), "headless", "--players", str(players),
                    "--seed", str(seed), "--quiet"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, timeout=300)
    process = time.perf_counter() - start
    from sim.game import GameConfig
    from sim.local import play_bots
    start = time.perf_counter()
    play_bots(GameConfig(players, "sun", "beginner"), seed, ["heuristic"] * players)
    return {"process": process, "game": time.perf_counter() - start}


def net_game(players: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        peers = P.play(Path(tmp), players, timeout=300)
        wall = time.perf_counter() - start
        stats = [p.load_stats() for p in peers]
        hashes = {s["hash"] for s in stats}
        if len(hashes) != 1 or None in hashes:
            raise SystemExit(f"peers disagree: {hashes}")
        trips = [t for s in stats for t in s["round_trips"]]
        return {"wall": wall, "game": stats[0]["game_seconds"],
                "cpu": statistics.median(s["game_cpu"] for s in stats),
                "bytes": [s["bytes_sent"] for s in stats],
                "trip": statistics.median(trips) if trips else float("nan")}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for i in range(args.games):
        local = local_game(args.players, seed=i + 1)
        net = net_game(args.players)
        rows.append((local, net))
        print(f"game {i + 1}: local {local['process']:.2f} s process, {local['game']:.2f} s game; "
              f"net {net['wall']:.2f} s wall, {net['game']:.2f} s in game, "
              f"{net['cpu']:.2f} s CPU per peer; bytes/peer {min(net['bytes'])}-"
              f"{max(net['bytes'])}; median round trip {net['trip'] * 1000:.1f} ms", flush=True)
    med = statistics.median
    lp = med(r[0]["process"] for r in rows)
    lg = med(r[0]["game"] for r in rows)
    wall = med(r[1]["wall"] for r in rows)
    game = med(r[1]["game"] for r in rows)
    cpu = med(r[1]["cpu"] for r in rows)
    per_peer = med(b for r in rows for b in r[1]["bytes"])
    trip = med(r[1]["trip"] for r in rows)
    print(f"\n{args.players}-peer loopback bot game on {os.cpu_count()} cores, median of {args.games}:")
    print(f"  local game, in-process            {lg:6.2f} s")
    print(f"  local game, `main.py headless`    {lp:6.2f} s")
    print(f"  net game, start to end (host)     {game:6.2f} s   {game / lg:5.2f}x the local game")
    print(f"  net game, launch to last exit     {wall:6.2f} s   {wall / lp:5.2f}x the local process")
    print(f"  CPU per peer during the game      {cpu:6.2f} s   {cpu / lg:5.2f}x the local game")
    print(f"  lower bound here: {args.players} peers x local game / {os.cpu_count()} cores = "
          f"{args.players * lg / (os.cpu_count() or 1):.2f} s")
    print(f"  bytes sent per peer per game      {per_peer:8.0f}")
    print(f"  median command round trip         {trip * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
