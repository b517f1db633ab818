"""The same game played locally: what a network peer's CPU is compared against.

A network game's command log (the host's replay file) is played again in one process,
as a local game plays it: every command applied, the bot thinks again at every bot
decision (its answer is discarded: the log's command is applied), and the cubes of every
tower drop fall again.

Two local games are measured, because a local game in this project is more than the
simulation (issue 12's figure, BENCHMARKS.md):

- **simulation only** (`autosave=None`): the rules, the bots and the tower, nothing else:
  the least a local game can spend, and the stricter baseline.
- **as the window plays it** (`autosave=PATH`): the same, plus the window's autosave
  (`client.sessions.autosave.Autosave`, the very code a window game runs): after every command the
  state hash and a line written and synced to the save, so a game is never lost. A
  network peer's own saves, command log and state hash per step are the network's
  counterpart of that autosave.

Either can be **paced like a peer** (`pauses`): the process sleeps where a network peer
waited for the others, as often and as long, so it pays what waking costs as the peer
does. Why: on this machine the very same tower drop costs ~6-8% more CPU after a 0.5 ms
sleep and ~20-25% more after 10 ms (`benchmarks/waking_cost.py`), and a peer must wait for
the network between steps, while a replay that never pauses keeps its caches warm. A
local game played in the window pauses too (for the player, and a frame per move), so
neither unpaced figure is the whole truth; both are printed.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# everything `replay_locally` uses, imported here so that a benchmark counting only the
# replay (instructions.py, peer_instructions.py) never counts an import
from cli.net_stats import usage_since  # noqa: E402
from sim import bots  # noqa: E402
from sim.tower import drop as tower
from sim.commands import seat_of  # noqa: E402
from sim.game import apply, new_game, pending, state_hash  # noqa: E402
from sim.local import LocalGame, bot_seed  # noqa: E402


class _SavedSession:
    """What `Autosave.start` reads of a window's `LocalSession`, for a game replayed here."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.seed = "bench"
        self.bots = {seat: "heuristic" for seat in range(config.players)}
        self.my_seats: tuple[int, ...] = ()
        self.source = None
        self.command_applied: list[Callable[[Any, Any], None]] = []
        self.game = LocalGame(config, 1, {})       # no commands yet: nothing to copy


def replay_locally(config: Any, commands: list, final_hash: str, what: str,
                   autosave: Path | None = None, pauses: dict[int, float] | None = None
                   ) -> dict:
    """Play a logged game again as a local game plays it (the module's docstring);
    with `autosave`, also save it there after every command as the window does; with
    `pauses` ({command index: seconds}), sleep before applying those commands, where a
    peer waited (after the step's tower drop or bot move, as in the peer)."""
    pauses = pauses or {}
    saved = None
    if autosave is not None:
        from client.sessions.autosave import Autosave
        saved = _SavedSession(config)
        Autosave.start(saved, path=autosave)
    gc.freeze()                         # as a game does when it starts (cli/runner.py)
    usage = usage_since(None)
    start, cpu = time.perf_counter(), time.process_time()
    state, _ = new_game(config)
    for step, command in enumerate(commands):
        decision = pending(state)
        if decision.kind == "tower":        # a local game drops the cubes too
            if tower.settle(decision) != command:
                raise SystemExit(f"{what}: the tower fell differently at step {step}")
        elif decision.kind not in ("chance", "open"):   # no bot thinks there
            seat = seat_of(command)
            assert seat is not None         # a seat's decision: its command names the seat
            bots.choose(state, seat, "heuristic", bot_seed(b"bench", step, seat))
        if step in pauses:
            time.sleep(pauses[step])
        state, _ = apply(state, command)
        if saved is not None:
            for on_applied in saved.command_applied:
                on_applied(command, state)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    usage = usage_since(usage)
    if state_hash(state) != final_hash:
        raise SystemExit(f"{what}: replaying gave another final state")
    return {"game": wall, "cpu": cpu, "commands": len(commands), "usage": usage}


def paced_like(peer_stats: dict) -> dict[int, float]:
    """The pauses of a peer (its runner's stats): before each command where it waited
    for the network, as long as it was idle there (wall time less CPU time)."""
    return {index: idle for index, idle in peer_stats.get("waited_before") or []}


def time_local_replay(replay: Path, as_window: bool = False,
                      pauses: dict[int, float] | None = None) -> dict:
    """Play a logged game (a replay file) again in this process."""
    from store.game_save import read_save
    saved = read_save(replay)
    with tempfile.TemporaryDirectory() as tmp:
        return replay_locally(saved.config, saved.commands, saved.hashes[-1], str(replay),
                              autosave=Path(tmp) / "autosave.save" if as_window else None,
                              pauses=pauses)


def local_in_subprocess(replay: Path, share: Any = None, as_window: bool = False,
                        pauses: dict[int, float] | None = None) -> dict:
    """`time_local_replay` in a fresh process (in `share`'s CPU share or core, if given)."""
    args = [sys.executable, __file__, str(replay)] + (["--as-window"] if as_window else [])
    if pauses:
        args += ["--pauses", json.dumps(sorted(pauses.items()))]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                         preexec_fn=share.preexec() if share else None)
    if out.returncode != 0:
        raise SystemExit(f"timing the local replay failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout)


if __name__ == "__main__":
    rest = sys.argv[2:]
    paces = dict(json.loads(rest[rest.index("--pauses") + 1])) if "--pauses" in rest else None
    print(json.dumps(time_local_replay(Path(sys.argv[1]), "--as-window" in rest, paces)))
