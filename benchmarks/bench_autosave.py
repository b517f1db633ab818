"""What autosaving costs a window game: whole 4-bot games driven through `LocalSession`,
with and without the autosave (one JSON line, a state hash, flush and fsync per command).

    .venv/bin/python benchmarks/bench_autosave.py [--games 5]

Prints milliseconds per command both ways and the difference (the autosave's cost), and
the Continue cost: re-applying and checking a whole save (`resume_local`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args()
    os.environ["SHOGUN_HOME"] = tempfile.mkdtemp(prefix="shogun-bench-")
    from client.sessions.autosave import Autosave, last_game_path
    from client.sessions.replay import resume_local
    from client.sessions.local import LocalSession
    per: dict[bool, list[float]] = {False: [], True: []}
    resume = []
    for seed in range(1, args.games + 1):
        for save in (False, True):
            s = LocalSession(4, "sun", "beginner", (), "heuristic", seed=seed)
            if save:
                Autosave.start(s)
            t0 = time.perf_counter()
            n = 0
            while s.pump():
                n += 1
            per[save].append((time.perf_counter() - t0) / n * 1000)
        t0 = time.perf_counter()
        resume_local(str(last_game_path()))
        resume.append(time.perf_counter() - t0)
    plain, saved = statistics.median(per[False]), statistics.median(per[True])
    print(f"{args.games} whole 4-bot games, median per command: without autosave {plain:.2f} ms, "
          f"with {saved:.2f} ms -> autosave {saved - plain:.2f} ms a command")
    print(f"Continue (re-apply and check a whole finished save): median {statistics.median(resume) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
