"""Benchmark: reopening a correspondence table of the real rules (issue 51): the time from
a player's program starting on the folder to its lockstep standing where the game is
(`FolderLink(...)` then `session()`), replaying every step from the first ("from the
start", `saves=False`) against starting from the player's own newest saved replay the
chain confirms ("from a save", `net/correspondence/replay_save.py`).

Run: .venv/bin/python benchmarks/net/bench_correspondence_reopen.py [--at 100,250,end]
    [--repeats 3] [--humans 0,1,2]

One game of 4 seats (the human seats scripted, `tests/net/correspondence/real_table.py`;
the others bots) is played in this process with every player's table open; at each
`--at` step (the step the slowest player reached; `end`: the game's end) the shared
folder and the players' own folders are copied aside. Then, for each copy, seat 0's
program is opened `--repeats` times on a fresh copy of it both ways; printed: the
median seconds, and the step each began its replay at.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.correspondence.folder_link import FolderLink  # noqa: E402
from net.lockstep.engine import SimEngine  # noqa: E402
from tests.net.correspondence.real_table import keys, real_table, scripted  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--at", default="100,250,end")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--humans", default="0,1,2")
    args = parser.parse_args()
    humans = tuple(int(s) for s in args.humans.split(","))
    marks = [m for m in args.at.split(",")]
    engine = SimEngine()
    work = Path(tempfile.mkdtemp(prefix="bench-reopen-"))
    try:
        folder, local = work / "shared", work / "local"
        folder.mkdir()
        table = real_table(folder, engine, 4, humans)
        links = {s: FolderLink(table, s, keys(humans)[s], engine, scripted(engine),
                               local=local / f"player-{s}") for s in humans}
        copies: list[tuple[str, int, Path]] = []
        began = time.perf_counter()
        while True:
            over = [link.session() for link in links.values()]
            step = min(link.lockstep.step for link in links.values() if link.lockstep)
            while marks and (all(over) or (marks[0] != "end" and step >= int(marks[0]))):
                where = work / f"at-{marks[0]}"
                shutil.copytree(folder, where / "shared")
                shutil.copytree(local, where / "local")
                copies.append((marks.pop(0), step, where))
            if all(over):
                break
        print(f"game: {step} steps, {len(humans)} scripted humans and {4 - len(humans)} bots, "
              f"played in {time.perf_counter() - began:.1f} s (every table open)")
        print(f"{'at':>5} {'step':>5} {'from the start':>15} {'from a save':>12} {'began at':>9}")
        for mark, step, where in copies:
            times: dict[bool, list[float]] = {False: [], True: []}
            began_at: int | None = None
            for _ in range(args.repeats):
                for saves in (False, True):
                    run = work / "run"
                    shutil.rmtree(run, ignore_errors=True)
                    shutil.copytree(where, run)
                    t0 = time.perf_counter()
                    link = FolderLink(real_table(run / "shared", engine, 4, humans), 0,
                                      keys(humans)[0], engine, scripted(engine),
                                      local=run / "local" / "player-0", saves=saves)
                    link.session()
                    times[saves].append(time.perf_counter() - t0)
                    if saves:
                        began_at = link.restored_from
            print(f"{mark:>5} {step:>5} {statistics.median(times[False]):>13.2f} s "
                  f"{statistics.median(times[True]):>10.2f} s {began_at!s:>9}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
