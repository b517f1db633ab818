"""Benchmark: friends joining by code while a burner runs on the same mailbox (issue 47).

Run: .venv/bin/python benchmarks/reach/bench_code_burner.py [--minutes 10] [--within 30]
     [--probe-seconds 20]

A magic-wormhole mailbox server and transit relay run on loopback (the pip packages,
tests/net/wormhole_servers.py). The burner (tests/net/code_burner.py, its own process)
binds the game's public application id the whole time, lists the open nameplates four
times a second and claims each new one at once with a wrong guess. Round after round, a
host (`host --headless --players 3 --bots 1`) shows its code and a friend types it
(`join CODE`), again with the code shown then if told it failed, for `--within` seconds;
the round ends when the friend reached the table (both are then stopped).

Printed: each round (seconds to get in, attempts), then the burner's lists and claims a
minute, its wrong guesses, what it learned, friends in of N, and the time to get in
(median, 90th percentile, longest) and how much of it the friend's program took to start
(on a loaded machine most of it). Last, `--probe-seconds` of the burner guessing hidden
namespaces as fast as it can (three random words each; bind and list): the namespaces a
second one stranger tries on this mailbox, the figure behind the odds in docs/net.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.net import code_burner  # noqa: E402
from tests.net import processes as P  # noqa: E402
from tests.net import wormhole_servers  # noqa: E402

LOOPBACK = {"SHOGUN_NET_INTERFACE": "127.0.0.1"}


def one_round(n: int, where: list[str], work: Path, within: float,
              starts: list[float]) -> tuple[float | None, int]:
    host = P.Peer(f"host{n}", ["host", "--headless", "--port", "0", "--players", "3",
                           "--bots", "1", *where],
                  work, LOOPBACK)
    peers = [host]
    try:
        host.wait_for(code_burner.SHOWN, 60)
        seconds, attempts, friend = code_burner.friend_joins(host, f"friend{n}", where, work,
                                                             LOOPBACK, within=within,
                                                             starts=starts)
        if friend is not None:
            peers.append(friend)        # type: ignore[arg-type]
        return seconds, attempts
    finally:
        P.kill_all(peers)
        for peer in peers:
            for f in (peer.out, peer.err, peer.stats):
                f.unlink(missing_ok=True)


def probe_rate(mailbox: str, work: Path, seconds: float) -> tuple[int, float]:
    burner, out = code_burner.start(mailbox, work, name="prober", guesses=500.0,
                                    every=3600.0)
    try:
        code_burner.figures(out)
        start = json.loads(out.read_text())["probes"]
        began = time.monotonic()
        time.sleep(seconds)
        stats = json.loads(out.read_text())
        return stats["found"], (stats["probes"] - start) / (time.monotonic() - began)
    finally:
        burner.terminate()
        burner.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--within", type=float, default=30.0)
    parser.add_argument("--probe-seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-burner-") as tmp:
        work = Path(tmp)
        servers = wormhole_servers.start(work, "127.0.0.1", P.free_port(), P.free_port())
        where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
        burner, out = code_burner.start(servers.mailbox_url, work)
        results: list[tuple[float | None, int]] = []
        starts: list[float] = []
        try:
            code_burner.figures(out)
            began = time.monotonic()
            while time.monotonic() - began < args.minutes * 60:
                seconds, attempts = one_round(len(results) + 1, where, work, args.within,
                                               starts)
                results.append((seconds, attempts))
                shown = "not in" if seconds is None else f"in after {seconds:.1f} s"
                print(f"round {len(results)}: the friend {shown} ({attempts} attempt(s))",
                      flush=True)
            stats = code_burner.figures(out)
            found, rate = (probe_rate(servers.mailbox_url, work, args.probe_seconds)
                           if args.probe_seconds > 0 else (0, 0.0))
        finally:
            burner.terminate()
            burner.wait(10)
            servers.stop()
    minutes = stats["elapsed"] / 60
    times = sorted(s for s, _ in results if s is not None)
    print(f"burner ran {minutes:.1f} min: {stats['lists'] / minutes:.0f} lists a minute, "
          f"{stats['claims'] / minutes:.1f} claims a minute ({stats['claims']} claims: "
          f"{stats['wrong']} wrong guesses, {stats['crowded']} crowded, {stats['other']} "
          f"other), {len(stats['seen'])} nameplates seen, learned {len(stats['learned'])} "
          f"offers")
    print(f"friends in within {args.within:g} s: {len(times)} of {len(results)}; attempts "
          f"{sum(a for _, a in results)}")
    if times:
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"time to get in: median {statistics.median(times):.1f} s, 90th percentile "
              f"{p90:.1f} s, longest {times[-1]:.1f} s")
    if starts:
        print(f"of which the friend's program starting (to its first line): median "
              f"{statistics.median(starts):.1f} s, longest {max(starts):.1f} s")
    if args.probe_seconds > 0:
        print(f"hidden namespaces guessed by one stranger: {rate:.0f} a second on this "
              f"loopback mailbox ({found} found a table)")


if __name__ == "__main__":
    main()
