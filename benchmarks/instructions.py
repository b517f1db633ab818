"""Instructions per peer vs the local game's: issue 12's CPU figure, free of contention.

Run: .venv/bin/python benchmarks/instructions.py [--seed TEXT] [--players 5] [--method toggle|diff]
(needs valgrind; about two minutes on this machine, the two counts run side by side)

Why: CPU seconds on this 2-core VM are not a fair measure of "the CPU each peer spends vs
the local game's": the very same tower physics costs a peer process ~1.5x the CPU of the
local game run alone, because five processes take turns on two cores. Valgrind's callgrind
counts the instructions a process executes, which neither the other processes nor the
machine's load change; the same game counts the same to 0.1% from run to run (four runs
in BENCHMARKS.md; what varies is likely memory addresses, e.g. the physics' spatial hash).

What is counted, for one game:
(a) the whole table of `--players` heuristic-bot peers in one process on the tests'
    in-memory network (`profile_net_peer.play_table`: real sessions, key exchange, sealed
    and signed frames, lockstep; the in-memory transport and Twisted's test clock are
    counted too, no sockets or reactor), from the moment every peer has begun the game
    (its `on_started`; the mesh and its key exchanges before it are not counted, as in a
    real peer's `game_cpu`) to its end, divided by the number of peers;
(b) the same game played locally: its command log played again by `bench_net`'s
    `replay_locally` (every command applied, every bot decision thought out again, every
    tower drop simulated again), in a process of its own.
Printed: both totals and the ratio (a)/(b), then where they go: the inclusive counts of
a few C functions (tower physics, Ed25519, msgpack, secretbox, the garbage collector) per
peer and in the local game, and the rest (the Python code, one interpreter loop to
callgrind). The parts may overlap a little (a collection during packing is in both).

The same game both times: a first, uncounted run plays the table with `os.urandom`
replaced by a stream derived from `--seed` (the only randomness a table game draws, via
beacon secrets, plan nonces, key seeds and peer ids; the signing keys come from it too)
and `PYTHONHASHSEED=0`, and saves its log. The counted runs redo the same: the table run
checks that it reaches the recorded final state, the local run replays that log.

How only the game is counted (`--method toggle`, the default): the game runs inside
`sys.call_tracing(play, ())`, a debugger's entry point nothing else calls, and callgrind
runs with `--collect-atstart=no --toggle-collect=_PyEval_CallTracing` (the C function
behind it), so it counts exactly the instructions executed within that call. Start-up
(imports, opening the table, loading the log) and shutdown are excluded. The `diff`
method cross-checks it without the toggle: whole-process counts of a driver that sets up
and plays minus one that only sets up (and ends the same way, `os._exit`). It adds the
work after the game (reading the log off the table, one state hash) and any difference in
what the two processes import, so it differs from the toggle by a little.

Real peer processes (Twisted, sockets) are counted by `benchmarks/peer_instructions.py`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOGGLE = "_PyEval_CallTracing"      # the C function behind sys.call_tracing
# C functions whose instructions (inclusive: with all they call) are shown per part; the
# Python code between them is all one interpreter loop to callgrind, so it has no names
PARTS = (("tower physics (chipmunk cpSpaceStep)", ("cpSpaceStep",)),
         ("checking Ed25519 signatures", ("crypto_sign_ed25519_open",)),
         ("making Ed25519 signatures", ("crypto_sign_ed25519_detached",)),
         ("msgpack packing (Packer.pack, its Python hooks too)",
          ("__pyx_pw_7msgpack_9_cmsgpack_6Packer_7pack",)),
         ("sealing and opening frames (secretbox)",
          ("crypto_secretbox_easy", "crypto_secretbox_open_easy")),
         ("the cyclic garbage collector", ("gc_collect_main",)))


def parts(profile: Path) -> dict[str, int]:
    """Inclusive instructions of each of PARTS in one callgrind profile."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                          str(profile)], capture_output=True, text=True, check=True).stdout
    found: dict[str, int] = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) .*:(\w+) \[", line)
        if m:
            found[m.group(2)] = max(found.get(m.group(2), 0), int(m.group(1).replace(",", "")))
    return {label: sum(found.get(name, 0) for name in names) for label, names in PARTS}


def deterministic_urandom(seed: str) -> None:
    """Replace os.urandom by a stream from `seed` before the project is imported (the PAKE
    binds `os.urandom` as a default argument at import time)."""
    counter = [0]

    def urandom(n: int) -> bytes:
        out = b""
        while len(out) < n:
            counter[0] += 1
            out += hashlib.sha256(f"{seed}/{counter[0]}".encode()).digest()
        return out[:n]
    os.urandom = urandom


def counted(play) -> None:
    """Run `play()` where the instruction counter is switched on (see the module's doc)."""
    sys.call_tracing(play, ())


def driver(mode: str, log: Path, seed: str, players: int) -> None:
    """One process's part: `record`, `table`, `table-setup`, `replay` or `replay-setup`."""
    deterministic_urandom(seed)
    sys.path.insert(0, str(ROOT))
    if mode.startswith("table") or mode == "record":
        from benchmarks.profile_net_peer import open_in_memory_table, play_table
        if mode == "table-setup":
            with tempfile.TemporaryDirectory() as tmp:
                open_in_memory_table(players, Path(tmp))
            return
        game = play_table(players, region=counted if mode == "table" else None)
        if mode == "record":
            from benchmarks.local_game import replay_locally
            local = replay_locally(game["config"], game["commands"], game["hash"], "record")
            log.write_bytes(pickle.dumps({k: game[k] for k in
                                          ("config", "commands", "hash", "steps")}))
            print(f"native CPU (this machine, as loaded as it is): table "
                  f"{game['cpu_per_peer']:.3f} s per peer, local game {local['cpu']:.3f} s")
        elif game["hash"] != pickle.loads(log.read_bytes())["hash"]:
            raise SystemExit("the counted table game ended in another state than the "
                             "recorded one: the game is not deterministic here")
        return
    from benchmarks.local_game import replay_locally   # imports all the replay uses
    saved = pickle.loads(log.read_bytes())
    if mode == "replay":
        counted(lambda: replay_locally(saved["config"], saved["commands"], saved["hash"],
                                       "the recorded game"))


def run_drivers(modes: list[str], method: str, log: Path, args, workdir: Path) -> dict:
    """Each mode in a process of its own under callgrind (up to --jobs at once)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (tools/ensure-env --bench installs it)")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    pending = list(modes)
    running: dict[str, subprocess.Popen[str]] = {}
    counts: dict[str, int] = {}
    while pending or running:
        while pending and len(running) < args.jobs:
            mode = pending.pop(0)
            cmd = [valgrind, "--tool=callgrind",
                   f"--callgrind-out-file={workdir / (mode + '.callgrind')}"]
            if method == "toggle":
                cmd += ["--collect-atstart=no", f"--toggle-collect={TOGGLE}"]
            cmd += [sys.executable, __file__, "--driver", mode, "--log", str(log),
                    "--seed", args.seed, "--players", str(args.players)]
            running[mode] = subprocess.Popen(cmd, cwd=ROOT, env=env, text=True,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.2)
        for mode, proc in list(running.items()):
            if proc.poll() is None:
                continue
            out, err = proc.communicate()
            del running[mode]
            found = re.search(r"Collected : (\d+)", err)
            if proc.returncode != 0 or not found:
                raise SystemExit(f"counting {mode} failed (exit {proc.returncode}):\n"
                                 f"{out[-2000:]}\n{err[-3000:]}")
            counts[mode] = int(found.group(1))
            if counts[mode] == 0:
                raise SystemExit(f"callgrind counted nothing in {mode}: is {TOGGLE} a symbol "
                                 f"of this Python? Try --method diff")
    return counts


def print_parts(split: dict, per_peer: float, local: int, players: int) -> None:
    print("where they go (inclusive counts of C functions, millions):")
    print(f"  {'':52} {'per peer':>9} {'local':>9}")
    for label, _ in PARTS:
        print(f"  {label:52} {split['table'][label] / players / 1e6:9,.0f} "
              f"{split['replay'][label] / 1e6:9,.0f}")
    rest = (per_peer - sum(split["table"].values()) / players,
            local - sum(split["replay"].values()))
    print(f"  {'the rest (Python code: rules, bots, protocol, ...)':52} "
          f"{rest[0] / 1e6:9,.0f} {rest[1] / 1e6:9,.0f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", default="instructions", help="the game (any text)")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--method", choices=("toggle", "diff"), default="toggle",
                    help="count only the game (toggle, default) or whole processes minus "
                         "set-up-only processes (diff)")
    ap.add_argument("--jobs", type=int, default=2, help="callgrind runs at once (default 2)")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="keep callgrind's profiles there (read them with callgrind_annotate)")
    ap.add_argument("--driver", help=argparse.SUPPRESS)
    ap.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.driver:
        driver(args.driver, args.log, args.seed, args.players)
        sys.stdout.flush()
        os._exit(0)             # the same short ending for every driver (diff method)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        log = workdir / "game.pickle"
        started = time.perf_counter()
        record = subprocess.run([sys.executable, __file__, "--driver", "record", "--log",
                                 str(log), "--seed", args.seed, "--players", str(args.players)],
                                cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"},
                                capture_output=True, text=True, timeout=300)
        if record.returncode != 0:
            raise SystemExit(f"playing the game failed:\n{record.stderr[-3000:]}")
        game = pickle.loads(log.read_bytes())
        print(f"one {args.players}-peer heuristic-bot game, seed {args.seed!r}: "
              f"{game['steps']} steps, {len(game['commands'])} commands, final state "
              f"{game['hash'][:16]}", flush=True)
        print(f"  {record.stdout.strip()}", flush=True)
        modes = ["table", "replay"] + (["table-setup", "replay-setup"]
                                       if args.method == "diff" else [])
        counts = run_drivers(modes, args.method, log, args, workdir)
        split = ({mode: parts(workdir / f"{mode}.callgrind") for mode in ("table", "replay")}
                 if args.method == "toggle" and shutil.which("callgrind_annotate") else None)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for mode in modes:
                shutil.copy(workdir / f"{mode}.callgrind", args.keep / f"{mode}.callgrind")
    if args.method == "diff":
        table = counts["table"] - counts["table-setup"]
        local = counts["replay"] - counts["replay-setup"]
        print(f"  whole processes: table {counts['table']:,} - set-up only "
              f"{counts['table-setup']:,}; local {counts['replay']:,} - set-up only "
              f"{counts['replay-setup']:,}")
    else:
        table, local = counts["table"], counts["replay"]
    per_peer = table / args.players
    print(f"instructions (callgrind, method {args.method}), "
          f"{time.perf_counter() - started:.0f} s to count:")
    print(f"  table game, all {args.players} peers in one process  {table:16,}")
    print(f"  per peer (/ {args.players})                          {per_peer:16,.0f}")
    print(f"  the same game played locally           {local:16,}")
    print(f"  instructions per peer / local game     {per_peer / local:16.2f}x")
    if split:
        print_parts(split, per_peer, local, args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
