"""Benchmark: a game through the magic-wormhole transit relay vs a direct link (issue 39).

Run (root: it makes network namespaces): .venv/bin/python benchmarks/reach/bench_relay.py
    [--delay 0.04] [--games 2]

Each game is the host, one friend who joins by code and one bot seat (3 players), in two
homes of the namespace lab (tests/net/netns.py) with a mailbox server and a transit relay
on a "public" computer (tests/net/wormhole_servers.py). The friend's every connection to
the internet passes the delay hub (`--delay` seconds each way: this kernel has no netem),
so any path between the two players takes 2 × delay longer per round trip:

- direct: the host's router maps its port (UPnP); the friend dials the mapping;
- relay: both routers are symmetric NATs without UPnP; the table's frames go friend →
  relay → host through the dilated wormhole (Noise-encrypted, over the relay).

Printed per game and as medians: the host's game time (start to end), the steps that
waited for every player's input (the runner's "round trips"), the median of those waits,
and the time per wait the relay adds over the direct link under the same delay.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.net import processes as P  # noqa: E402
from tests.net import wormhole_servers  # noqa: E402
from tests.net.netns import Lab, enter, missing_reason  # noqa: E402

INTERNET_ENV = {"SHOGUN_NET_INTERFACE": ""}
CODE_LINE = r"Friends anywhere join with: \./shogun join ([a-z]+(?:-[a-z]+){5})"


def one_game(relay: bool, delay: float, relay_no_delay: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-relay-") as tmp:
        work = Path(tmp)
        with Lab(work) as lab:
            ns, address = lab.public_computer()
            servers = wormhole_servers.start(work, address, 4000, 4001, preexec=enter(ns),
                                             relay_no_delay=relay_no_delay)
            try:
                homes = [lab.home(upnp=not relay, symmetric=relay),
                         lab.home(upnp=False, symmetric=True)]
                if delay > 0:
                    lab.delay_to_internet(homes[1].pc, delay)
                where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
                host = P.Peer("host", ["host", "--headless", "--port", "7531", "--players", "3",
                                       "--bots", "1", *where], work, INTERNET_ENV,
                              preexec=enter(homes[0].pc))
                peers = [host]
                try:
                    if not relay:
                        host.wait_for(r"the router forwards", 60)
                    code = host.wait_for(CODE_LINE, 60).group(1)
                    friend = P.Peer("friend", ["join", code, "--headless", *where], work,
                                    INTERNET_ENV, preexec=enter(homes[1].pc))
                    peers.append(friend)
                    P.wait_all(peers, 1800)
                finally:
                    P.kill_all(peers)
            finally:
                servers.stop()
            hashes = {p.final_hash() for p in peers}
            if len(hashes) != 1 or None in hashes:
                raise SystemExit(f"the game (relay={relay}) did not end with one final hash: "
                                 f"{hashes}")
            how = re.search(r"reached the table by code: (.*)", friend.text())
            said = how.group(1) if how else "?"
            if relay != ("through the relay" in said):
                raise SystemExit(f"the friend was not connected as asked (relay={relay}): {said}")
            stats = host.load_stats()
    waits = stats["round_trips"]
    return {"seconds": stats["game_seconds"], "waits": len(waits), "how": said,
            "median_wait": statistics.median(waits) if waits else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.04, help="seconds each way on the "
                        "friend's line (0.04: +80 ms per round trip)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--relay-no-delay", action="store_true",
                        help="run the relay with Nagle's algorithm off (magic-wormhole-transit-"
                             "relay 0.5.0 leaves it on): the relay server's share of the cost")
    args = parser.parse_args()
    missing = missing_reason()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    print(f"3-player games (host, a friend by code, a bot); +{2 * args.delay * 1000:g} ms per "
          "round trip on the friend's line" + ("; the relay with TCP_NODELAY"
                                               if args.relay_no_delay else ""))
    results: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
    for g in range(args.games):
        for relay in (False, True):
            r = one_game(relay, args.delay, args.relay_no_delay)
            results[relay].append(r)
            print(f"game {g + 1}, {'relay ' if relay else 'direct'}: {r['seconds']:.2f} s in "
                  f"game, {r['waits']} waits, median wait {r['median_wait'] * 1000:.1f} ms "
                  f"({r['how']})", flush=True)
    print(f"\nmedian of {args.games} games each:")
    for relay in (False, True):
        rs = results[relay]
        print(f"  {'through the relay' if relay else 'direct (UPnP mapping)':<24} "
              f"{statistics.median(r['seconds'] for r in rs):8.2f} s   "
              f"{statistics.median(r['waits'] for r in rs):6g} waits   "
              f"median wait {statistics.median(r['median_wait'] for r in rs) * 1000:7.1f} ms   "
              f"{statistics.median(r['seconds'] / r['waits'] for r in rs) * 1000:7.1f} ms "
              "per wait")
    direct = statistics.median(r["seconds"] / r["waits"] for r in results[False])
    relayed = statistics.median(r["seconds"] / r["waits"] for r in results[True])
    print(f"  game time per wait, relay / direct: {relayed / direct:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
