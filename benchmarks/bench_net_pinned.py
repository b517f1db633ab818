"""Benchmark: CPU per peer vs the local game when every peer has a core of its own.

Run: .venv/bin/python benchmarks/bench_net_pinned.py [--games N] [--players 3] [--halt-poll-us 3000]

Why: `bench_net.py` plays five peers on this machine's two cores, so each peer process
shares its core with others and wakes to cold caches at every message; CPU seconds then
measure that sharing as much as the protocol. On a LAN every peer has a machine of its
own. Here that is emulated as far as two cores allow: as many human peers as there are
cores, each pinned to a core of its own (`os.sched_setaffinity`), the other seats played
by a bot (every peer plays the bot seats itself, from the shared seed), and the local
game pinned to one core, alone. With two cores that is a 3-seat table with 2 human peers
(the smallest table the rules allow), so each peer hears one other player, not four:
a lighter load of messages than the 5-peer table's. `benchmarks/instructions.py` and
`benchmarks/peer_instructions.py` count the 5-peer table's instructions instead.

Printed per game and as medians: the CPU each peer spends from its game's start to its
end (`game_cpu`, as in bench_net.py), the local game's CPU (the same game's log replayed:
commands applied, bot decisions thought out again, tower drops simulated again) and their
ratio, issue 12's figure (and over all games: every peer's CPU added up against its
local game's, and the geometric mean of the ratios, steadier than a median when the
machine's speed drifts between a table and its replays). Then the same against the
local game **paced like each peer** (`benchmarks/local_game.py`): it sleeps before the
commands where that peer waited for the network, as often and as long, because waking
from such a wait makes the next work dearer on this machine whoever does it
(`waking_cost.py`); and the paced games run side by side, each on its peer's core, as the
peers did, so that both sides meet a machine with every core busy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import halt_poll  # noqa: E402
from benchmarks.local_game import local_in_subprocess, paced_like  # noqa: E402
from tests.net import processes as P  # noqa: E402


class Pinned:
    """A preexec function that puts the child process on one core."""

    def __init__(self, core: int) -> None:
        self.core = core

    def preexec(self):
        core = self.core
        return lambda: os.sched_setaffinity(0, {core})


def one_game(players: int, humans: int) -> tuple[list[dict], Path, tempfile.TemporaryDirectory]:
    tmp = tempfile.TemporaryDirectory()
    workdir = Path(tmp.name)
    names = ["host"] + [f"guest{i}" for i in range(humans - 1)]
    cores = {name: Pinned(i % (os.cpu_count() or 1)) for i, name in enumerate(names)}
    peers = P.play(workdir, players, bots=players - humans, timeout=600,
                   preexec_for=lambda name: cores[name].preexec() if name in cores else None)
    stats = [p.load_stats() for p in peers]
    hashes = {s["hash"] for s in stats}
    if len(hashes) != 1 or None in hashes:
        raise SystemExit(f"peers disagree: {hashes}")
    return stats, workdir / "host.save.replay", tmp


def side_by_side(replay: Path, stats: list[dict]) -> list[float]:
    """The local game paced like each peer, all at once, each on its peer's core: as the
    table ran, every core busy with one game, so both sides meet the same machine."""
    cores = os.cpu_count() or 1
    with ThreadPoolExecutor(len(stats)) as pool:
        runs = [pool.submit(local_in_subprocess, replay, Pinned(i % cores),
                            pauses=paced_like(peer)) for i, peer in enumerate(stats)]
        return [run.result()["cpu"] for run in runs]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=3, help="seats at the table (default 3)")
    halt_poll.add_option(ap)
    return halt_poll.run(ap.parse_args(), measure)


def measure(args: argparse.Namespace) -> int:
    cores = os.cpu_count() or 1
    humans = min(cores, args.players)
    print(f"{args.players}-seat table, {humans} human peers, each pinned to a core of its "
          f"own ({cores} cores); the local game pinned to core 0, alone", flush=True)
    ratios, peers_cpu, locals_cpu, windows_cpu, window_ratios = [], [], [], [], []
    paced_cpu, paced_ratios, pauses_seen = [], [], []
    pairs: list[tuple[float, float]] = []     # (a peer's CPU, its paced local game's)
    alone: list[tuple[float, float]] = []     # (a peer's CPU, the unpaced local game's)
    for i in range(args.games):
        stats, replay, tmp = one_game(args.players, humans)
        with tmp:
            time.sleep(0.5)              # let the peers' exits settle
            local = local_in_subprocess(replay, Pinned(0))
            window = local_in_subprocess(replay, Pinned(0), as_window=True)
            paced = side_by_side(replay, stats)
        paced_ratios.append(statistics.median(s["game_cpu"] / p for s, p in zip(stats, paced)))
        pairs += [(s["game_cpu"], p) for s, p in zip(stats, paced)]
        alone += [(s["game_cpu"], local["cpu"]) for s in stats]
        paced_cpu.append(statistics.median(paced))
        pauses_seen.append(statistics.median(len(s.get("waited_before") or []) for s in stats))
        cpu = statistics.median(s["game_cpu"] for s in stats)
        ratios.append(cpu / local["cpu"])
        window_ratios.append(cpu / window["cpu"])
        peers_cpu.append(cpu)
        locals_cpu.append(local["cpu"])
        windows_cpu.append(window["cpu"])
        each = ", ".join("%.3f (system %.3f)" % (s["game_cpu"], s.get("game_sys") or 0)
                         for s in stats)
        print(f"game {i + 1}: {local['commands']} commands; CPU per peer {each} s; local game "
              f"{local['cpu']:.3f} s; per peer / local {ratios[-1]:.2f}x; local game as the "
              f"window plays it {window['cpu']:.3f} s, per peer / that {window_ratios[-1]:.2f}x; "
              f"bytes/peer "
              f"{min(s['bytes_sent'] for s in stats)}", flush=True)
        print(f"        paced like each peer ({pauses_seen[-1]:.0f} pauses): local game "
              f"{', '.join('%.3f' % p for p in paced)} s; per peer / that "
              f"{paced_ratios[-1]:.2f}x", flush=True)
    med = statistics.median
    print(f"\nmedian of {args.games} games: CPU per peer {med(peers_cpu):.3f} s, local game "
          f"{med(locals_cpu):.3f} s, per peer / local {med(ratios):.2f}x "
          f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    print(f"local game as the window plays it (with its autosave) {med(windows_cpu):.3f} s, "
          f"per peer / that {med(window_ratios):.2f}x "
          f"(range {min(window_ratios):.2f}-{max(window_ratios):.2f})")
    print(f"local game paced like each peer (simulation only) {med(paced_cpu):.3f} s, "
          f"per peer / that {med(paced_ratios):.2f}x "
          f"(range {min(paced_ratios):.2f}-{max(paced_ratios):.2f})")
    for label, rows in (("local game", alone), ("local game paced like it", pairs)):
        total = sum(peer for peer, _ in rows) / sum(local for _, local in rows)
        geometric = statistics.geometric_mean(peer / local for peer, local in rows)
        print(f"every peer of every game / {label}: all CPU together {total:.2f}x, "
              f"geometric mean of the {len(rows)} ratios {geometric:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
