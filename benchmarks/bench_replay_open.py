"""How soon `./shogun replay FILE` shows its table (issue 49: a game log showed about 3 s
of an empty window, then the map, the tower's fill on the large stage, the map again).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/bench_replay_open.py [--runs 3] [LOG]

Each run starts `main.py replay LOG` as its own process (the way a player starts it: the
window's own `client.app.run`), with a probe that notes when the window exists, when the
first frame is drawn and whether that frame shows the map set up (20 or more provinces
owned), and whether the tower's large stage opened in the next 3 s of frames (the fill
shown again). Prints, per run and as the median: the process's start to the window, the
window to its first drawn frame, and the start to that frame. Without LOG a bot game's
log is written first (`headless --seed 3 --log`).

`opening(log)` is the same measurement for a test (tests/client/sessions/test_log_replay_window.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the child: the real `main.py replay` with timers around the window and its frames
PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, ROOT)
import pyglet
import client.app as appmod
seen = {"window": None, "first": None, "window_cpu": None, "first_cpu": None, "owned": 0,
        "big": False, "frames": 0}
opened = appmod.open_window
def open_window(*a, **k):
    w = opened(*a, **k)
    seen["window"] = time.perf_counter() - t0
    seen["window_cpu"] = time.process_time()
    return w
appmod.open_window = open_window
drawn = appmod.App.on_draw
def on_draw(self):
    drawn(self)
    scene = self.scene
    if seen["first"] is None:
        seen["first"] = time.perf_counter() - t0
        seen["first_cpu"] = time.process_time()
        d = getattr(scene, "display", None) or {}
        seen["owned"] = sum(1 for p in (d.get("provinces") or {}).values()
                            if p.get("owner") is not None)
        pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 3.0)
    seen["frames"] += 1
    tower = getattr(scene, "tower", None)
    seen["big"] = seen["big"] or bool(tower is not None and tower.big)
appmod.App.on_draw = on_draw
appmod.run(LOG)
print("OPENING " + json.dumps(seen))
"""


def opening(log: Path, timeout: float = 120) -> dict[str, float | int | bool | None]:
    """One run of the window on `log`: {"window": s, "first": s (wall seconds from the
    process's start), "window_cpu", "first_cpu" (the process's CPU seconds then: on a busy
    machine the wall time is mostly the wait for a core), "owned": provinces owned on the
    first frame, "big": the large stage opened, "frames": drawn}."""
    code = PROBE.replace("ROOT", repr(str(ROOT))).replace("LOG", repr(str(log)))
    env = dict(os.environ, SHOGUN_HOME=tempfile.mkdtemp(prefix="shogun-open-"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=timeout, env=env, cwd=ROOT)
    for line in out.stdout.splitlines():
        if line.startswith("OPENING "):
            seen: dict[str, float | int | bool | None] = json.loads(line[len("OPENING "):])
            return seen
    raise RuntimeError(f"the replay window did not report (exit {out.returncode}):\n"
                       f"{out.stdout[-2000:]}\n{out.stderr[-3000:]}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("log", nargs="?", help="a JSON game log (default: a bot game's)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if args.log:
        log = Path(args.log)
    else:
        log = Path(tempfile.mkdtemp()) / "game.jsonl"
        subprocess.run([sys.executable, str(ROOT / "main.py"), "headless", "--seed", "3",
                        "--quiet", "--log", str(log)], check=True, stdout=subprocess.DEVNULL)
    rows = []
    for k in range(args.runs):
        seen = opening(log)
        window, first = float(seen["window"] or 0), float(seen["first"] or 0)
        cpu = float(seen["first_cpu"] or 0) - float(seen["window_cpu"] or 0)
        rows.append((window, first - window, first, cpu))
        print(f"run {k + 1}: window after {window:.2f} s, first frame {first - window:.2f} s "
              f"later ({cpu:.2f} s of CPU; {first:.2f} s from the start), {seen['owned']} "
              f"provinces owned on it, large stage opened: {seen['big']}, {seen['frames']} frames")
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"median: window {med[0]:.2f} s, window to first frame {med[1]:.2f} s "
          f"({med[3]:.2f} s of CPU), start to first frame {med[2]:.2f} s; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
