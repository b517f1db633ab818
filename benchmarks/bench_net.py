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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.net import processes as P  # noqa: E402


def local_game(players: int, seed: int) -> float:
    start = time.perf_counter()
    subprocess.run([P.PYTHON, str(ROOT / "main.py"), "headless", "--players", str(players),
                    "--seed", str(seed), "--quiet"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, timeout=300)
    return time.perf_counter() - start


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
        print(f"game {i + 1}: local {local:.2f} s; net {net['wall']:.2f} s wall "
              f"({net['game']:.2f} s in game); ratio {net['wall'] / local:.2f}; "
              f"bytes/peer {min(net['bytes'])}-{max(net['bytes'])}; "
              f"median round trip {net['trip'] * 1000:.1f} ms", flush=True)
    local = statistics.median(r[0] for r in rows)
    wall = statistics.median(r[1]["wall"] for r in rows)
    game = statistics.median(r[1]["game"] for r in rows)
    per_peer = statistics.median(b for r in rows for b in r[1]["bytes"])
    trip = statistics.median(r[1]["trip"] for r in rows)
    print(f"\n{args.players}-peer loopback bot game, median of {args.games}:")
    print(f"  local game (one process)       {local:6.2f} s")
    print(f"  network game (wall, launch-exit) {wall:6.2f} s   ratio {wall / local:.2f}x")
    print(f"  network game (host, start-end) {game:6.2f} s")
    print(f"  bytes sent per peer per game   {per_peer:8.0f}")
    print(f"  median command round trip      {trip * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
