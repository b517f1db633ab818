"""Where a network peer's CPU goes beyond the game itself: a whole table in one process.

Run: .venv/bin/python benchmarks/profile_net_peer.py [--games N] [--players 5] [--top 40]

Why: `bench_net.py` measures the real thing (peers as separate processes on loopback) but
cannot say where a peer's CPU goes. Here every peer of a heuristic-bot table runs in this
one process on the tests' in-memory network (`tests/net/fakenet.py`: real sessions, key
exchange, sealed frames, signatures and the lockstep; no sockets and no reactor), so
each figure is deterministic work, free of scheduling noise.

Printed, per game: the table's CPU from the start to the end of the game divided by the
number of peers ("CPU per peer"; the in-memory transport and the test clock are counted
too), the same game played locally (its command log played again by `bench_net`'s
`replay_locally`: commands applied, bot decisions re-thought, tower drops re-simulated)
and their ratio. Then one more game under cProfile: the functions with the most time of
their own, and the protocol's main entry points with their cumulative time (the totals
are for all the peers together).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.local_game import replay_locally  # noqa: E402
from net.lockstep.engine import SimEngine  # noqa: E402
from tests.net.fakenet import FakeNet  # noqa: E402
from tests.net.tables import finished, open_table  # noqa: E402

# the protocol's parts, shown with their cumulative time after the profile
ENTRY_POINTS = (r"lockstep.py:\d+\((hash|_compare_hash|advance|receive|_send|_commit_step)\)",
                r"plan_steps.py:\d+\((_open|_plan|_receive_plan)\)", r"state.py:\d+\(state_hash\)",
                r"signatures.py:\d+\((sign|signed_by)\)", r"secure_channel.py:\d+\((seal|open)\)",
                r"framing.py:\d+\((encode_body|decode_body)\)", r"persistence.py:\d+\(_save\)",
                r"sim/tower/drop.py:\d+\(settle\)", r"bots/__init__.py:\d+\(choose\)",
                r"sim/game.py:\d+\(apply\)")


def open_in_memory_table(players: int, tmp: Path) -> tuple[FakeNet, SimEngine, list]:
    """`players` heuristic-bot peers seated at a table on the in-memory network, not started."""
    net = FakeNet()
    _, engine, sessions = open_table(players=players, bots=0, engine=SimEngine(), net=net,
                                     tmp_path=tmp, start=False)
    return net, engine, sessions


def play_table(players: int, profile: cProfile.Profile | None = None,
               region: Callable[[Callable[[], None]], object] | None = None) -> dict:
    """One heuristic-bot game among `players` in-memory peers; its CPU and its log.

    `region(play)` runs the game itself (default `play()`): `instructions.py` passes a
    wrapper that its instruction counter switches on and off at.

    The game counts from the moment every peer has begun it (its lockstep exists: the
    runner's `on_started`) to its end, the window of a real peer's `game_cpu` in
    `bench_net.py`: the host's `GameStarted` and the players' mesh connections with
    their key exchanges come before it (they are the table's set-up, paid once)."""
    with tempfile.TemporaryDirectory() as tmp:
        net, engine, sessions = open_in_memory_table(players, Path(tmp))
        sessions[0].start_game()
        if not net.pump_until(lambda: all(s.lockstep is not None for s in sessions)):
            raise SystemExit("the table's game did not begin")

        def play() -> None:
            net.pump()
        gc.freeze()                     # as each peer's runner does at `on_started`
        cpu = time.process_time()
        if profile is not None:
            profile.enable()
        (region or (lambda run: run()))(play)
        if profile is not None:
            profile.disable()
        cpu = time.process_time() - cpu
        if not finished(sessions):
            raise SystemExit("the table did not finish its game")
        ls = sessions[0].lockstep
        commands = [engine.from_wire(w) for entry in ls.log for w in entry["commands"]]
        return {"cpu_per_peer": cpu / players, "steps": len(ls.log), "commands": commands,
                "config": ls.config, "hash": engine.state_hash(ls.state)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2, help="timed games (default 2)")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--top", type=int, default=40, help="functions to list (0: no profile)")
    args = ap.parse_args()
    ratios = []
    for i in range(args.games):
        game = play_table(args.players)
        local = replay_locally(game["config"], game["commands"], game["hash"], "table game")
        ratios.append(game["cpu_per_peer"] / local["cpu"])
        print(f"game {i + 1}: {game['steps']} steps, {len(game['commands'])} commands; "
              f"CPU per peer {game['cpu_per_peer']:.3f} s, local game {local['cpu']:.3f} s "
              f"CPU: {ratios[-1]:.2f}x", flush=True)
    if ratios:
        print(f"CPU per peer / local CPU, median of {len(ratios)}: "
              f"{sorted(ratios)[len(ratios) // 2]:.2f}x")
    if args.top <= 0:
        return 0
    profile = cProfile.Profile()
    play_table(args.players, profile)
    stats = pstats.Stats(profile)
    print(f"\n--- profiled game ({args.players} peers together), by own time")
    stats.sort_stats("tottime").print_stats(args.top)
    print(f"--- the protocol's parts and the game's, cumulative (per peer: / {args.players})")
    rows = []
    table = stats.stats  # type: ignore[attr-defined]  # pstats keeps its table untyped
    for (path, line, name), (_, calls, _, cumulative, _) in table.items():
        where = f"{path}:{line}({name})"
        if any(re.search(pattern, where) for pattern in ENTRY_POINTS):
            rows.append((cumulative, calls, where))
    for cumulative, calls, where in sorted(rows, reverse=True):
        print(f"{cumulative:8.3f} s {calls:8d} calls  {os.path.relpath(where, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
