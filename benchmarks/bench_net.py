"""Benchmark: a 5-peer headless bot game on loopback vs the same game played locally.

Run (root, for the equal-share part): .venv/bin/python benchmarks/bench_net.py [--games N]
[--halt-poll-us 3000] (idle CPUs poll before halting: `benchmarks/halt_poll.py`)

For each network game (headless heuristic-bot peers as separate processes on 127.0.0.1),
"the same game played locally" is that game's own command log (the host's replay file)
played again in one process: every command applied, every bot decision thought out
again and every tower drop simulated again, exactly as a local bot game does. Two settings are measured:

- **shared cores**: the five peers simply share this machine's cores. Every peer runs the
  whole simulation, so on two cores the game needs at least 5/2 of the local CPU time.
- **equal shares**: each peer gets a CPU quota of cores/peers (cgroup bandwidth limit),
  and the local game is played under the same quota: five equal machines, emulated.

Printed per game and as medians: game time (host: game start to end) and its ratio to the
local game, CPU per peer and its ratio to the local game's CPU (issue 12's figure: within
1.5x), bytes each peer sent, and the median command round trip (from a
peer's first message of a step that needs every player's input — beacon links, plan
commit/reveal — until that step is applied there). Each peer is also compared with the
local game **paced like it** (`benchmarks/local_game.py`): replayed alone, sleeping before
the commands where that peer waited for the network, as long as it waited there, since
waking from a wait makes the next work dearer whoever does it (`waking_cost.py`).

**The local game alongside a table** (a control; `--alongside only` runs just this, `no`
skips it). The local game above runs alone, on an idle machine, while each peer shares
the cores with four other peers: CPU seconds are not free of contention (caches, the VM's
vCPUs), so the same work costs a peer more. Here the local game is played at the same time
as a table, facing the same load: tables are played one after another, and while table k
plays, game k-1's log is replayed in a loop by a sixth process (in the local game's CPU
share, with shares). It loads the log beforehand and starts replaying when the host prints
that its game started; only the replays that ended before the host's final state hash
count, so every counted replay ran wholly inside the table's game (3-9 replays fit in a
game on an idle machine). The figure is the process's first replay, like the lone replay
the first in a fresh process (later replays in the same process run warm and cost 5-10%
less; their mean is printed too); the loop goes on only to keep the load until the end.
Game k's row pairs its peers' CPU (table k, with game k-1's replay beside it: each of the
six processes faces five others) with its own log's replay alongside table k+1, and its
log's replay alone; a first table only makes the first log and a last one only carries
the last replays, so `--games N` plays N+2 tables here. Printed: the local game's CPU
alone and alongside (and their ratio: what the load costs the same work), and CPU per peer
/ local CPU alongside.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import cpu_share, halt_poll  # noqa: E402
from benchmarks.local_game import (local_in_subprocess, paced_like,  # noqa: E402,F401
                                   replay_locally,
                                   time_local_replay)
from tests.net import processes as P  # noqa: E402


def net_game(players: int, shares: dict | None, on_workdir: Callable[[Path], None] | None = None,
             ) -> tuple[dict, Path, tempfile.TemporaryDirectory]:
    tmp = tempfile.TemporaryDirectory()
    workdir = Path(tmp.name)
    if on_workdir is not None:
        on_workdir(workdir)
    start = time.perf_counter()
    preexec_for = (lambda name: shares[name].preexec()) if shares else (lambda name: None)
    peers = P.play(workdir, players, timeout=600, preexec_for=preexec_for)
    wall = time.perf_counter() - start
    stats = [p.load_stats() for p in peers]
    hashes = {s["hash"] for s in stats}
    if len(hashes) != 1 or None in hashes:
        raise SystemExit(f"peers disagree: {hashes}")
    trips = [t for s in stats for t in s["round_trips"]]
    result = {"wall": wall, "game": stats[0]["game_seconds"],
              "cpu": statistics.median(s["game_cpu"] for s in stats),
              "sys": statistics.median(s.get("game_sys") or 0.0 for s in stats),
              "bytes": [s["bytes_sent"] for s in stats],
              "trip": statistics.median(trips) if trips else float("nan"),
              "peers": [(s["game_cpu"], paced_like(s)) for s in stats]}
    return result, workdir / "host.save.replay", tmp


def measure(players: int, games: int, equal_shares: bool) -> list[tuple[dict, dict]]:
    cores = os.cpu_count() or 1
    names = ["host"] + [f"guest{i}" for i in range(players - 1)]
    shares = ({name: cpu_share.CpuShare(name, cores / players) for name in names}
              if equal_shares else None)
    local_share = cpu_share.CpuShare("local", cores / players) if equal_shares else None
    label = f"equal shares ({cores}/{players} core each)" if equal_shares else "shared cores"
    rows = []
    try:
        for i in range(games):
            net, replay, tmp = net_game(players, shares)
            with tmp:
                local = local_in_subprocess(replay, local_share)
                local["window"] = local_in_subprocess(replay, local_share, as_window=True)
                # each peer against the local game paced like it (local_game.py)
                local["paced"] = [cpu / local_in_subprocess(replay, local_share,
                                                            pauses=pauses)["cpu"]
                                  for cpu, pauses in net["peers"]]
            rows.append((local, net))
            print(f"{label}, game {i + 1}: local {local['game']:.2f} s "
                  f"({local['commands']} commands, {local['cpu']:.2f} s CPU); net "
                  f"{net['game']:.2f} s in game ({net['game'] / local['game']:.2f}x), "
                  f"{net['wall']:.2f} s launch to exit, {net['cpu']:.2f} s CPU per peer "
                  f"({net['cpu'] / local['cpu']:.2f}x; local game as the window plays it "
                  f"{local['window']['cpu']:.2f} s CPU, "
                  f"{net['cpu'] / local['window']['cpu']:.2f}x); bytes/peer {min(net['bytes'])}-"
                  f"{max(net['bytes'])}; median round trip {net['trip'] * 1000:.1f} ms; "
                  f"per peer / local paced like it {statistics.median(local['paced']):.2f}x",
                  flush=True)
    finally:
        for share in [*(shares or {}).values(), local_share]:
            if share is not None:
                share.remove()
    return rows


class LocalAlongside:
    """The local game played again and again while a network table plays (the control).

    A process replays a logged game in a loop (`--loop-replay`), in the local game's CPU
    share when there are shares. It loads the log first and waits; it starts replaying
    when the host prints that its game started, and every replay that ended before the
    host printed the final state hash counts (the one cut off by the end does not). So
    each counted replay ran wholly while the table was in game, on a machine as loaded
    as the peers' (six processes, each facing five others)."""

    POLL = 0.01

    def __init__(self, replay: Path, share: cpu_share.CpuShare | None) -> None:
        self.proc = subprocess.Popen([P.PYTHON, __file__, "--loop-replay", str(replay)], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     preexec_fn=share.preexec() if share else None)
        assert self.proc.stdin is not None and self.proc.stdout is not None   # both PIPEs
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        if self.stdout.readline().strip() != "ready":
            self.proc.kill()
            raise SystemExit("the looping local replay did not start")
        self.window: list[float] = []       # [game start, game end] as the host printed them
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def watch(self, workdir: Path) -> None:
        """Follow the table's host (its output file in `workdir`)."""
        self._watcher = threading.Thread(target=self._follow, args=(workdir / "host.out",),
                                         daemon=True)
        self._watcher.start()

    def _follow(self, out: Path) -> None:
        for marker in ("game started", "final state hash"):
            while not self._stop.is_set():
                if out.exists() and marker in out.read_text():
                    self.window.append(time.monotonic())
                    if marker == "game started":
                        self.stdin.write("go\n")
                        self.stdin.flush()
                    break
                time.sleep(self.POLL)

    def finish(self) -> list[dict]:
        """Stop the loop; the replays that ran wholly within the table's game."""
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()
        self.proc.kill()
        lines, _ = self.proc.communicate()
        if len(self.window) < 2:
            return []
        start, end = self.window
        replays = [json.loads(line) for line in lines.splitlines() if line.startswith("{")]
        return [r for r in replays if r["start"] >= start and r["end"] <= end]


def loop_replay(replay: Path) -> None:
    """`--loop-replay`: load the log, say "ready", wait for a line, then replay it until
    killed, one JSON line per finished replay (with its start and end, monotonic clock)."""
    from store.game_save import read_save
    saved = read_save(replay)
    print("ready", flush=True)
    if not sys.stdin.readline():
        return
    for n in itertools.count():
        start = time.monotonic()
        result = replay_locally(saved.config, saved.commands, saved.hashes[-1], str(replay))
        print(json.dumps({**result, "n": n, "start": start, "end": time.monotonic()}),
              flush=True)


def measure_alongside(players: int, games: int, equal_shares: bool) -> list[dict]:
    """Tables played while the previous table's game is replayed locally alongside.

    Table 0 only makes the first log; table k (1..games+1) plays while game k-1 is
    replayed in a loop beside it. Game k's figures are its peers' CPU (table k, with the
    replay of game k-1 beside it), its local replay alone, and its local replay alongside
    table k+1: the same game, under the same kind of load."""
    cores = os.cpu_count() or 1
    names = ["host"] + [f"guest{i}" for i in range(players - 1)]
    shares = ({name: cpu_share.CpuShare(name, cores / players) for name in names}
              if equal_shares else None)
    local_share = cpu_share.CpuShare("local", cores / players) if equal_shares else None
    label = (f"equal shares ({cores}/{players} core each)" if equal_shares
             else "shared cores") + ", local game alongside"
    rows: list[dict] = []
    logs = tempfile.TemporaryDirectory()
    try:
        previous: Path | None = None
        for k in range(games + 2):
            beside = LocalAlongside(previous, local_share) if previous else None
            try:
                net, replay, tmp = net_game(players, shares, beside.watch if beside else None)
            finally:
                replays = beside.finish() if beside else []
            if k >= 2:
                row = rows[-1]
                row["alongside"] = replays
                first = replays[0]["cpu"] if replays else None   # the process's first
                print(f"{label}, game {k - 1}: {row['net']['cpu']:.2f} s CPU per peer "
                      f"({row['net']['game']:.2f} s in game); local game alone "
                      f"{row['alone']['cpu']:.2f} s CPU, alongside the next table "
                      + (f"{first:.2f} s CPU ({first / row['alone']['cpu']:.2f}x alone; "
                         f"{len(replays)} replays in its game, mean "
                         f"{statistics.mean(r['cpu'] for r in replays):.2f} s); per peer / "
                         f"local alongside {row['net']['cpu'] / first:.2f}x"
                         if replays else "no replay fitted in its game"), flush=True)
            with tmp:
                if k > games:
                    break
                previous = Path(logs.name) / f"game{k}.replay"
                previous.write_bytes(replay.read_bytes())
                if k >= 1:
                    rows.append({"net": net, "alone": local_in_subprocess(previous, local_share)})
    finally:
        logs.cleanup()
        for share in [*(shares or {}).values(), local_share]:
            if share is not None:
                share.remove()
    return rows


def summary_alongside(label: str, rows: list[dict]) -> None:
    med = statistics.median
    fitted = [r for r in rows if r.get("alongside")]
    missed = (f"; {len(rows) - len(fitted)} without a replay that fitted in its game"
              if len(fitted) < len(rows) else "")
    rows = fitted
    if not rows:
        print(f"\n{label}, the local game alongside a table: no replay fitted in a game")
        return
    along = [r["alongside"][0]["cpu"] for r in rows]     # each loop's first replay
    factor = [a / r["alone"]["cpu"] for a, r in zip(along, rows)]
    ratios = [r["net"]["cpu"] / a for a, r in zip(along, rows)]
    print(f"\n{label}, the local game alongside a table, median of {len(rows)} "
          f"game{'s' if len(rows) != 1 else ''}{missed}:")
    alone = [r["alone"]["cpu"] for r in rows]
    print(f"  local game CPU alone (the same games)        {med(alone):6.2f} s")
    print(f"  local game CPU alongside a table             {med(along):6.2f} s")
    print(f"  every replay alongside (later ones warm)     "
          f"{med(x['cpu'] for r in rows for x in r['alongside']):6.2f} s  "
          f"({sum(len(r['alongside']) for r in rows)} replays)")
    print(f"  alongside / alone, the same game             {med(factor):6.2f}x  "
          f"(range {min(factor):.2f}-{max(factor):.2f})")
    print(f"  net game CPU per peer (6th process: replay)  "
          f"{med(r['net']['cpu'] for r in rows):6.2f} s")
    print(f"  CPU per peer / local CPU alongside, per game {med(ratios):6.2f}x  "
          f"(range {min(ratios):.2f}-{max(ratios):.2f})")


def summary(label: str, rows: list[tuple[dict, dict]]) -> None:
    med = statistics.median
    ratios = [net["game"] / local["game"] for local, net in rows]
    cpu_ratios = [net["cpu"] / local["cpu"] for local, net in rows]
    print(f"\n{label}, median of {len(rows)} games:")
    print(f"  local game (the same commands, one process)  {med(r[0]['game'] for r in rows):6.2f} s")
    print(f"  net game, start to end (host)                {med(r[1]['game'] for r in rows):6.2f} s")
    print(f"  net / local, per game                        {med(ratios):6.2f}x  "
          f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    print(f"  local game CPU                               {med(r[0]['cpu'] for r in rows):6.2f} s")
    print(f"  net game CPU per peer                        {med(r[1]['cpu'] for r in rows):6.2f} s")
    print(f"  CPU per peer / local CPU, per game           {med(cpu_ratios):6.2f}x  "
          f"(range {min(cpu_ratios):.2f}-{max(cpu_ratios):.2f})")
    window = [net["cpu"] / local["window"]["cpu"] for local, net in rows]
    print(f"  local game CPU as the window plays it        "
          f"{med(r[0]['window']['cpu'] for r in rows):6.2f} s  (with its autosave)")
    print(f"  CPU per peer / that local game, per game     {med(window):6.2f}x  "
          f"(range {min(window):.2f}-{max(window):.2f})")
    paced = [statistics.median(local["paced"]) for local, _ in rows]
    print(f"  CPU per peer / local game paced like it      {med(paced):6.2f}x  "
          f"(range {min(paced):.2f}-{max(paced):.2f}; simulation only, waiting where "
          f"and as long as that peer waited)")
    print(f"  of the CPU per peer, system (kernel) time    "
          f"{med(r[1]['sys'] for r in rows):6.2f} s")
    print(f"  net game, launch to last exit                {med(r[1]['wall'] for r in rows):6.2f} s")
    print(f"  bytes sent per peer per game                 "
          f"{med(b for r in rows for b in r[1]['bytes']):8.0f}")
    print(f"  median command round trip                    "
          f"{med(r[1]['trip'] for r in rows) * 1000:6.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--alongside", choices=("yes", "no", "only"), default="yes",
                    help="also measure the local game played alongside tables (yes, the "
                         "default), skip it (no), or measure only that (only)")
    halt_poll.add_option(ap)
    ap.add_argument("--time-replay", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--loop-replay", metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.time_replay:
        print(json.dumps(time_local_replay(Path(args.time_replay))))
        return 0
    if args.loop_replay:
        loop_replay(Path(args.loop_replay))
        return 0
    return halt_poll.run(args, measure_all)


def measure_all(args: argparse.Namespace) -> int:
    cores = os.cpu_count() or 1
    print(f"{args.players}-peer loopback bot games on {cores} cores", flush=True)
    if args.alongside != "only":
        summary("shared cores", measure(args.players, args.games, equal_shares=False))
        print(f"  (lower bound with shared cores: {args.players} peers x local / {cores} cores = "
              f"{args.players / cores:.1f}x)")
    if args.alongside != "no":
        print(flush=True)
        summary_alongside("shared cores", measure_alongside(args.players, args.games, False))
    why_not = cpu_share.available()
    if why_not:
        print(f"\nequal shares: skipped ({why_not})")
        return 0
    label = f"equal shares ({cores}/{args.players} core each)"
    if args.alongside != "only":
        summary(label, measure(args.players, args.games, equal_shares=True))
    if args.alongside != "no":
        print(flush=True)
        summary_alongside(label, measure_alongside(args.players, args.games, True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
