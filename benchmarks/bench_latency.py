"""Benchmark: a 4-peer bot game on a slow path vs on a fast one (issue 16, latency).

Run (root: it makes network namespaces): .venv/bin/python benchmarks/bench_latency.py
    [--delay 0.05] [--games 2]

Each game runs four headless heuristic-bot peers as processes in a network namespace of
its own whose every TCP connection passes the userspace delay hub
(tests/net/delay_hub.py; this kernel has no netem): `--delay` seconds each way on every
link, so one round trip between two peers takes 2 × delay longer. The same is done with
0 s (the hub still relays, so its own cost is in both figures).

Printed per game and as medians: the host's game time (start to end), the number of
steps that waited for every player's input (beacon links, plan commit/echo/reveal; the
runner's "round trips"), and the time the delay added compared with (waits × added
round trip). Games differ (the joiners' bots draw their own seeds), so the comparison is
also given per wait.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.net import processes as P  # noqa: E402
from tests.net.netns import Lab, enter, missing_reason  # noqa: E402

PLAYERS = 4


def one_game(delay: float | None) -> dict:
    """One game; `delay` None: no hub at all (the hub's own cost shows against it)."""
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        work = Path(tmp)
        with Lab(work) as lab:
            ns = lab.ns("plain") if delay is None else lab.delayed_loopback(delay)
            peers = []
            try:
                host, port = P.host(work, PLAYERS, timeout=120, preexec=enter(ns))
                peers.append(host)
                for i in range(PLAYERS - 1):
                    peers.append(P.join(work, port, f"guest{i}", timeout=120,
                                        preexec=enter(ns)))
                P.wait_all(peers, 900)
            finally:
                P.kill_all(peers)
            hashes = {p.final_hash() for p in peers}
            if len(hashes) != 1 or None in hashes:
                raise SystemExit(f"the game ({delay}) did not end with one final hash: "
                                 f"{hashes}")
            stats = host.load_stats()
    waits = stats["round_trips"]
    return {"seconds": stats["game_seconds"], "waits": len(waits), "hops": stats.get("hops", 0),
            "median_wait": statistics.median(waits) if waits else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.05, help="seconds each way per link")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    missing = missing_reason()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    rtt = 2 * args.delay
    print(f"{PLAYERS}-peer heuristic-bot games through the delay hub; "
          f"{args.delay * 1000:g} ms each way per link = +{rtt * 1000:g} ms per round trip")
    plain: list[dict[str, Any]] = []
    fast: list[dict[str, Any]] = []
    slow: list[dict[str, Any]] = []
    for g in range(args.games):
        for delay, into in ((None, plain), (0.0, fast), (args.delay, slow)):
            r = one_game(delay)
            into.append(r)
            what = "no hub" if delay is None else f"hub, {delay * 1000:g} ms"
            print(f"game {g + 1}, {what}: {r['seconds']:.2f} s in game, "
                  f"{r['waits']} waits, median wait {r['median_wait'] * 1000:.1f} ms",
                  flush=True)
    t0 = statistics.median(r["seconds"] for r in fast)
    td = statistics.median(r["seconds"] for r in slow)
    n0 = statistics.median(r["waits"] for r in fast)
    nd = statistics.median(r["waits"] for r in slow)
    per_wait = statistics.median(r["seconds"] / r["waits"] for r in slow) - \
        statistics.median(r["seconds"] / r["waits"] for r in fast)
    print(f"\nmedian of {args.games} games each:")
    print(f"  {'game time without the hub':<38} "
          f"{statistics.median(r['seconds'] for r in plain):8.2f} s   "
          f"({statistics.median(r['waits'] for r in plain):g} waits)")
    slow_label = f"game time at {args.delay * 1000:g} ms each way"
    print(f"  {'game time through the hub at 0 ms':<38} {t0:8.2f} s   ({n0:g} waits)")
    print(f"  {slow_label:<38} {td:8.2f} s   ({nd:g} waits)")
    print(f"  added time                             {td - t0:8.2f} s")
    print(f"  waits x added round trip               {nd * rtt:8.2f} s   "
          f"(ratio {(td - t0) / (nd * rtt):.2f})")
    print(f"  added time per wait                    {per_wait * 1000:8.1f} ms  "
          f"= {per_wait / rtt:.2f} round trips of +{rtt * 1000:g} ms")
    hops = statistics.median(r["hops"] for r in slow)
    expected = nd * rtt + hops * args.delay
    print(f"  one-way hops (others' moves and cards) {hops:8g}")
    print(f"  waits x round trip + hops x one way    {expected:8.2f} s   "
          f"(added / that: {(td - t0) / expected:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
