"""Instructions each real peer process executes in a game vs the same game played locally.

Run: .venv/bin/python benchmarks/peer_instructions.py [--players 5] [--games 1]
(needs valgrind and gcc; a five-peer game takes several minutes on this 2-core machine)

Why: issue 12 asks that the CPU each peer spends stays within 1.5x of the local game's.
`bench_net.py` measures CPU seconds of real peer processes, and those are inflated by
contention (five processes on two cores: the very same tower physics costs a peer
~1.3-1.5x what it costs the lone local replay). Valgrind's callgrind counts the
instructions a process executes, which neither the other processes nor the load change.
`instructions.py` counts a whole table in one process on the tests' in-memory network;
this script counts the real thing: each peer is `main.py host|join --headless`, a
process of its own talking TCP on 127.0.0.1, exactly as `bench_net.py` runs it.

What is counted:
- each peer, from its game start to its game end: the window of the runner's
  `stats["game_cpu"]` (`cli.runner.run`'s `on_started` .. `on_ended`). Each peer runs
  under `valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no`; a wrapper
  (this file, `--peer`) chains onto the session's `on_started`/`on_ended` through the
  runner's `prepare` hook and switches callgrind's instrumentation and collection on
  after the runner's `on_started` and off after its `on_ended`, with callgrind's client
  requests (a tiny C library built here at run time with gcc, called through ctypes).
  Everything before (imports, lobby, mesh) and after (the replay file) is not counted.
- the local game: the host's replay file played again by `bench_net.replay_locally`
  (every command applied, every bot decision thought out again, every tower drop
  simulated again), in a process of its own under callgrind, counted around that call
  only (its modules imported and the file read before).

Printed per game and over all games: each peer's count, their median, the local count,
the ratio per peer / local, and each peer's `game_cpu` (under valgrind: for reference
only). Each game is checked: every peer ends with the same final state hash and no seat
was played by a bot (a take-over would change the work). Liveness runs in slow motion:
under callgrind (~40-50x slower, five processes on two cores) peers were silent for
30-50 s, the others dropped them after `SILENT_AFTER` (5 s) and the table
never recovered (redials refused: "seat 4 is already connected"). There is no command-line
option for those times, so the wrapper multiplies net/table/liveness.py's heartbeat interval,
silence limit and redial interval by `--liveness-slower` (default 50, about callgrind's
slow-down, so heartbeats go about as often per unit of work as natively). The pauses,
reconnections and heartbeats received in the window are printed, since they add work.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LIB_ENV = "SHOGUN_PEERINSTR_LIB"          # the counter library (built by the parent)
OUT_ENV = "SHOGUN_PEERINSTR_OUT"          # this process's callgrind output file
EXTRA_ENV = "SHOGUN_PEERINSTR_EXTRA"      # this peer's window figures (JSON)
UNDER_ENV = "SHOGUN_PEERINSTR_UNDER"      # set once the process runs under valgrind
SLOWER_ENV = "SHOGUN_PEERINSTR_SLOWER"    # liveness's times multiplied by this
LIVENESS_TIMES = ("HEARTBEAT_EVERY", "SILENT_AFTER", "REDIAL_EVERY")

C_SOURCE = r"""
#include <valgrind/callgrind.h>
/* instrument and collect from here on (the process runs with --instr-atstart=no
   --collect-atstart=no, so nothing is counted before) */
void counting_on(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void counting_off(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; }
int under_valgrind(void) { return RUNNING_ON_VALGRIND; }
"""


def build_counter(where: Path) -> Path:
    """Compile the client-request library (valgrind's header only: no valgrind library to
    link; outside valgrind the requests do nothing)."""
    header = Path("/usr/include/valgrind/callgrind.h")
    gcc = shutil.which("gcc") or shutil.which("cc")
    if not header.exists() or gcc is None:
        raise SystemExit("needs gcc and valgrind's headers (tools/ensure-env --bench installs them)")
    source, lib = where / "counter.c", where / "libcounter.so"
    source.write_text(C_SOURCE)
    subprocess.run([gcc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(source)], check=True)
    return lib


def load_counter() -> ctypes.CDLL:
    lib = ctypes.CDLL(os.environ[LIB_ENV])
    if not lib.under_valgrind():
        raise SystemExit("the counted process is not running under valgrind")
    return lib


def valgrind_command(out_file: Path) -> list[str]:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (tools/ensure-env --bench installs it)")
    return [valgrind, "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
            f"--callgrind-out-file={out_file}"]


def counted_instructions(out_file: Path) -> int:
    """The total of callgrind's output file (only the toggled window was collected)."""
    text = out_file.read_text()
    found = re.search(r"^totals:\s+(\d+)", text, re.M) or re.search(r"^summary:\s+(\d+)",
                                                                     text, re.M)
    if not found:
        raise SystemExit(f"no totals in {out_file}")
    return int(found.group(1))


# ------------------------------------------------------------------ in the peer process
def peer_main(argv: list[str]) -> int:
    """`--peer ARGS`: `main.py ARGS` with the game window counted. Started outside
    valgrind (by `tests/net/processes.Peer`, which runs a script with this Python), it
    replaces itself by the same command under callgrind (same process id)."""
    if not os.environ.get(UNDER_ENV):
        os.environ[UNDER_ENV] = "1"
        cmd = [*valgrind_command(Path(os.environ[OUT_ENV])), sys.executable, "-X",
               "faulthandler", __file__, "--peer", *argv]
        os.execv(cmd[0], cmd)
    counter = load_counter()
    import net.table.liveness as liveness
    for name in LIVENESS_TIMES:      # slow motion: see --liveness-slower
        setattr(liveness, name, getattr(liveness, name) * float(os.environ[SLOWER_ENV]))
    import cli.runner as runner
    original_run = runner.run

    def run(options, prepare=None) -> int:
        def chained(session) -> None:
            if prepare is not None:
                prepare(session)
            count_the_game(session, counter)
        return original_run(options, chained)
    runner.run = run
    import main
    return main.main(argv)


@dataclass
class GameWindow:
    """What one peer's counted window held besides the game (written as JSON for the parent)."""
    starts: int = 0
    pauses: int = 0
    heartbeats: int = 0
    reconnections: int = 0
    modules_before: set[str] = field(default_factory=set)
    modules: list[str] | None = None          # imported during the window
    bots: list[int] | None = None
    steps: int | None = None

    def as_json(self) -> str:
        return json.dumps({"starts": self.starts, "pauses": self.pauses,
                           "heartbeats": self.heartbeats, "reconnections": self.reconnections,
                           "modules": self.modules, "bots": self.bots, "steps": self.steps})


def count_the_game(session, counter: ctypes.CDLL) -> None:
    """Count from the end of the runner's `on_started` to the end of its `on_ended` (the
    window of `game_cpu`), and note what in that window is not the game itself."""
    window = GameWindow()
    runner_started, runner_ended = session.on_started, session.on_ended
    runner_paused = session.on_paused
    receive_heartbeat = session.connections.handlers["Heartbeat"]
    reconnected = session.liveness.reconnected

    def on_started(*args) -> None:
        runner_started(*args)
        window.starts += 1
        if window.starts == 1:
            window.modules_before = set(sys.modules)
            counter.counting_on()

    def on_ended(state) -> None:
        runner_ended(state)
        if window.starts and window.modules is None:
            counter.counting_off()
            ls = session.lockstep
            window.modules = sorted(set(sys.modules) - window.modules_before)
            window.bots = sorted(ls.bots) if ls is not None else None
            window.steps = ls.step if ls is not None else None
            Path(os.environ[EXTRA_ENV]).write_text(window.as_json())

    def on_paused(reason: str) -> None:
        window.pauses += 1
        runner_paused(reason)

    def on_heartbeat(conn, msg) -> None:
        window.heartbeats += 1
        receive_heartbeat(conn, msg)

    def on_reconnected(conn) -> None:
        window.reconnections += 1
        reconnected(conn)

    session.on_started, session.on_ended, session.on_paused = on_started, on_ended, on_paused
    session.connections.handlers["Heartbeat"] = on_heartbeat
    session.liveness.reconnected = on_reconnected


# ---------------------------------------------------------- in the local replay process
def replay_main(replay: Path) -> int:
    """`--replay FILE` (under callgrind): `replay_locally` on FILE, counted around that
    call only; the modules it uses are imported and the file read before."""
    counter = load_counter()
    from benchmarks.local_game import replay_locally   # imports all the replay uses
    from store.game_save import read_save
    saved = read_save(replay)
    before = set(sys.modules)
    counter.counting_on()
    result = replay_locally(saved.config, saved.commands, saved.hashes[-1], str(replay))
    counter.counting_off()
    result["modules"] = sorted(set(sys.modules) - before)
    print(json.dumps(result))
    return 0


# ------------------------------------------------------------------------ the parent
def start_peer(P, workdir: Path, name: str, args: list[str], lib: Path, slower: float):
    env = {LIB_ENV: str(lib), SLOWER_ENV: str(slower),
           OUT_ENV: str(workdir / f"{name}.callgrind"),
           EXTRA_ENV: str(workdir / f"{name}.extra.json")}
    return P.Peer(name, ["--peer", *args], workdir, env, script=Path(__file__))


def net_game(players: int, lib: Path, workdir: Path, timeout: float,
             rejoin_timeout: float, slower: float) -> list[dict]:
    """One table of `players` heuristic-bot peers (as `tests/net/processes.play`, each
    under callgrind); per peer: instructions, game_cpu and the window's extras."""
    from tests.net import processes as P
    port = P.free_port()
    common = ["--code", P.CODE, "--headless", "--rejoin-timeout", str(rejoin_timeout)]
    peers = []
    try:
        peers.append(start_peer(P, workdir, "host", [
            "host", "--port", str(port), "--players", str(players), "--bots", "0",
            "--save", str(workdir / "host.save"), *common], lib, slower))
        peers[0].wait_for(r"table open on port", min(timeout, 600))
        for i in range(players - 1):
            name = f"guest{i}"
            peers.append(start_peer(P, workdir, name, [
                "join", f"127.0.0.1:{port}", "--save", str(workdir / f"{name}.save"),
                *common], lib, slower))
        P.wait_all(peers, timeout)
    finally:
        P.kill_all(peers)
    rows = []
    for p in peers:
        if p.proc.returncode != 0:
            raise SystemExit(f"{p.name} exited with {p.proc.returncode}:\n{p.text()[-1500:]}"
                             f"\n{p.errors()[-3000:]}")
        extra_file = workdir / f"{p.name}.extra.json"
        if not extra_file.exists():
            raise SystemExit(f"{p.name}: no game window was counted\n{p.errors()[-3000:]}")
        stats, extra = p.load_stats(), json.loads(extra_file.read_text())
        rows.append({"name": p.name, "hash": stats["hash"], "game_cpu": stats["game_cpu"],
                     "game_seconds": stats["game_seconds"],
                     "instructions": counted_instructions(workdir / f"{p.name}.callgrind"),
                     **extra})
    hashes = {r["hash"] for r in rows}
    if len(hashes) != 1 or None in hashes:
        raise SystemExit(f"the peers disagree on the final state: {hashes}")
    taken = {r["name"]: r["bots"] for r in rows if r["bots"]}
    if taken:
        raise SystemExit(f"seats were played by a bot (a take-over changes the work): {taken}")
    restarted = [r["name"] for r in rows if r["starts"] != 1]
    if restarted:
        raise SystemExit(f"the game started more than once at {restarted} (a rejoin)")
    return rows


def local_game(replay: Path, lib: Path, workdir: Path) -> dict:
    out_file = workdir / "local.callgrind"
    done = subprocess.run([*valgrind_command(out_file), sys.executable, __file__,
                           "--replay", str(replay)], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800, env={**os.environ, LIB_ENV: str(lib)})
    if done.returncode != 0:
        raise SystemExit(f"counting the local replay failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["instructions"] = counted_instructions(out_file)
    return result


def giga(n: float) -> str:
    return f"{n / 1e9:.3f}e9"


def report_game(i: int, rows: list[dict], local: dict, wall: float) -> float:
    counts = [r["instructions"] for r in rows]
    med = statistics.median(counts)
    ratio = med / local["instructions"]
    print(f"game {i}: {rows[0]['steps']} steps, {local['commands']} commands, "
          f"{wall:.0f} s to run and count", flush=True)
    for r in rows:
        print(f"  {r['name']:7s} {r['instructions']:>15,} instructions "
              f"({r['instructions'] / local['instructions']:.2f}x local); game_cpu "
              f"{r['game_cpu']:6.1f} s, {r['game_seconds']:6.1f} s in game under valgrind; "
              f"{r['pauses']} pauses, {r['reconnections']} reconnections, "
              f"{r['heartbeats']} heartbeats received"
              + (f"; imported in game: {', '.join(r['modules'])}" if r["modules"] else ""))
    print(f"  local   {local['instructions']:>15,} instructions (replay of the host's log; "
          f"{local['cpu']:.1f} s CPU under valgrind)"
          + (f"; imported in game: {', '.join(local['modules'])}" if local["modules"] else ""))
    print(f"  peer instructions in game: median {giga(med)} (range {giga(min(counts))}-"
          f"{giga(max(counts))}); local game: {giga(local['instructions'])}; "
          f"per peer / local: {ratio:.2f}x (range {min(counts) / local['instructions']:.2f}-"
          f"{max(counts) / local['instructions']:.2f}x)", flush=True)
    return ratio


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        return peer_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=3600.0,
                    help="seconds a table may take under callgrind (default 3600)")
    ap.add_argument("--rejoin-timeout", type=float, default=3600.0,
                    help="the peers' --rejoin-timeout: a silent peer's seat must never go "
                         "to a bot here (default 3600)")
    ap.add_argument("--liveness-slower", type=float, default=50.0, metavar="FACTOR",
                    help="multiply the peers' heartbeat interval, silence limit and redial "
                         "interval (net/table/liveness.py) by FACTOR, as callgrind slows them "
                         "(~40-50x): default 50; 1 leaves them as they are")
    ap.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.replay:
        return replay_main(args.replay)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # so the peers are killed
    print(f"{args.players}-peer loopback heuristic-bot games, each peer under callgrind, on "
          f"{os.cpu_count()} cores; liveness times x{args.liveness_slower:g}", flush=True)
    ratios, all_counts, locals_ = [], [], []
    with tempfile.TemporaryDirectory(prefix="peer-instructions-") as tmp:
        lib = build_counter(Path(tmp))
        for i in range(1, args.games + 1):
            workdir = Path(tmp) / f"game{i}"
            workdir.mkdir()
            started = time.perf_counter()
            rows = net_game(args.players, lib, workdir, args.timeout, args.rejoin_timeout,
                            args.liveness_slower)
            local = local_game(workdir / "host.save.replay", lib, workdir)
            ratios.append(report_game(i, rows, local, time.perf_counter() - started))
            all_counts += [r["instructions"] for r in rows]
            locals_.append(local["instructions"])
    if args.games > 1:
        print(f"\nover {args.games} games: peer instructions median {giga(statistics.median(all_counts))}"
              f" (range {giga(min(all_counts))}-{giga(max(all_counts))}); local median "
              f"{giga(statistics.median(locals_))}; per peer / local, per game: median "
              f"{statistics.median(ratios):.2f}x (range {min(ratios):.2f}-{max(ratios):.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
