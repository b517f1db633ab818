"""The longest reactor stall of a window at the start of a network game, with both cores
busy (issue 34 item 2).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/bench_start_stall.py

The window hosts a 3-player table on 127.0.0.1, two headless players join as processes,
and `--busy` processes (default: one per core) spin at the same priority while the host
starts the game. From the start until `--after` seconds into the game the window runs its
frames as fast as it can; every time the reactor runs its timers is noted, and the
longest gap between two such runs is the stall: the time in which this peer sent no
heartbeat and read nothing (its players see it silent; over `SILENT_AFTER`, 5 s, they
count it as dropped). Prints the longest and second-longest gap, where the longest began
(the frame's phase), and whether the joiner logged this peer silent.

Before issue 34 the game scene was built in one go inside a frame; now the window keeps
the network beating while it builds (`client.core.beating`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def spin(stop_at: float) -> None:
    while time.time() < stop_at:
        pass


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--busy", type=int, default=multiprocessing.cpu_count(),
                    help="spinning processes (default: one per core)")
    ap.add_argument("--after", type=float, default=10.0,
                    help="seconds measured after the game scene is shown")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--where", action="store_true",
                    help="also print where the window was during stalls over 0.3 s")
    args = ap.parse_args()

    import arcade
    from twisted.internet import reactor

    from client.app import App
    from net.table.options import TableOptions
    from tests.net import processes as P

    app = App(1280, 800, visible=False)
    gaps_of_runs = []
    for run in range(args.runs):
        workdir = Path(tempfile.mkdtemp(prefix="stall-"))
        ticks: list[tuple[float, str]] = []
        phase = ["lobby"]
        original = reactor.runUntilCurrent

        def noted() -> None:
            ticks.append((time.perf_counter(), phase[0]))
            original()
        setattr(reactor, "runUntilCurrent", noted)
        app.start_net(TableOptions("host", players=3, side="sun", setup="beginner", bots=0,
                                   port=0, rejoin_timeout=60))
        table = getattr(app.session, "table")
        joiners = [P.Peer(f"joiner{i}", ["join", f"127.0.0.1:{table.listen_port}", "--code",
                                         table.join_code, "--headless", "--rejoin-timeout",
                                         "60"], workdir) for i in range(2)]
        spinners: list[multiprocessing.Process] = []
        try:
            end = time.time() + 60
            while not table.lobby_full() and time.time() < end:
                frame(app)
            if not table.lobby_full():
                print("the joiners never came:", [j.errors()[-800:] for j in joiners])
                return 1
            stop_at = time.time() + 120
            spinners = [multiprocessing.Process(target=spin, args=(stop_at,))
                        for _ in range(args.busy)]
            for s in spinners:
                s.start()
            time.sleep(1.0)                      # the spinners own the cores
            ticks.clear()
            phase[0] = "start"
            sampler = Sampler(ticks) if args.where else None
            app.on_key_press(arcade.key.ENTER, 0)
            end = time.time() + 120
            while getattr(app.scene, "name", "") != "game" and time.time() < end:
                frame(app)
            phase[0] = "game"
            end = time.time() + args.after
            while time.time() < end:
                frame(app)
        finally:
            for s in spinners:
                s.terminate()
            if args.where and sampler is not None:
                sampler.stop()
                sampler.report()
            setattr(reactor, "runUntilCurrent", original)
            for j in joiners:
                j.kill()
            app.show_menu()
        gaps = sorted(((b[0] - a[0], a[1]) for a, b in zip(ticks, ticks[1:])), reverse=True)
        silent = [m for j in joiners for m in re.findall(r"silent for \d+ s", j.errors())]
        longest, where = gaps[0] if gaps else (0.0, "-")
        second = gaps[1][0] if len(gaps) > 1 else 0.0
        gaps_of_runs.append(longest)
        print(f"run {run + 1}: longest reactor stall {longest:.2f} s (began in: {where}), "
              f"next {second:.2f} s; {len(ticks)} reactor runs; the joiners saw this peer "
              f"{'silent: ' + ', '.join(silent) if silent else 'never silent'}", flush=True)
    print(f"longest stall over {args.runs} runs: {max(gaps_of_runs):.2f} s "
          f"(median of runs {sorted(gaps_of_runs)[len(gaps_of_runs) // 2]:.2f} s) "
          f"with {args.busy} spinning processes on {multiprocessing.cpu_count()} cores")
    return 0


class Sampler:
    """Where the main thread is while the reactor has not run for 0.3 s (a thread reads
    its stack every 20 ms): the lines of this project most often seen."""

    def __init__(self, ticks: list) -> None:
        import threading
        self.ticks = ticks
        self.seen: dict[str, int] = {}
        self.main = threading.main_thread().ident or 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import traceback
        root = str(Path(__file__).resolve().parents[2])
        while self.running:
            time.sleep(0.02)
            if not self.ticks or time.perf_counter() - self.ticks[-1][0] < 0.3:
                continue
            frame_ = sys._current_frames().get(self.main)
            if frame_ is None:
                continue
            ours = [f"{Path(f.filename).relative_to(root)}:{f.lineno} {f.name}"
                    for f in traceback.extract_stack(frame_)
                    if f.filename.startswith(root) and "/.venv/" not in f.filename
                    and "benchmarks" not in f.filename]
            if ours:
                self.seen[ours[-1]] = self.seen.get(ours[-1], 0) + 1

    def stop(self) -> None:
        self.running = False
        self.thread.join()

    def report(self) -> None:
        for where, n in sorted(self.seen.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {n * 0.02:5.2f} s in stalls at {where}")


def frame(app) -> None:
    app.dispatch_events()
    app.on_update(1 / 60)
    app.on_draw()
    app.flip()


if __name__ == "__main__":
    sys.exit(main())
