"""A real game's frames around its battles: what a player waits for, frame by frame.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/bench_game_frames.py --size 1920x1080

`bench_client.py` plays one recorded drop through the stage again and again; the frames
around a battle in a game also do what the game does then: each event's view set on the
board (the map's picture drawn again when it changed), the stage closing on the result,
the result card, the survivors' march, the table's layout coming back. Here a 4-bot game
(seed 3) is played in the window at normal pace (the game's clock advanced 1/60 s a
frame, as fast as the machine draws) until `--battles` battles have been staged; each
frame's update + draw + `ctx.finish()` is timed (wall and CPU) and labelled by what
happened in it: "stage opened", "stage closed" (the frame the board comes back), "event"
(an event was played), "stage" (the stage open), "table" (anything else). Prints per label
the count, median, p99 and max, and the largest frames with their labels.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.sessions.local_choice import LocalChoice  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1280x800", help="the window's size, WxH")
    ap.add_argument("--battles", type=int, default=4, help="battles staged before it stops")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--frames", type=int, default=60000, help="at most this many frames")
    args = ap.parse_args()

    from client.app import App
    width, height = (int(v) for v in args.size.split("x"))
    app = App(width, height, visible=False)
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=args.seed),
                            autosave=False)
    ctx = app.ctx
    played: list[str] = []
    scene.event_played.connect(lambda e, _coming: played.append(str(e.get("event"))))
    frames: list[tuple[str, float, float, str]] = []   # (label, wall, cpu, the frame's events)
    battles = 0
    big = scene.tower.big
    for _ in range(args.frames):
        played.clear()
        t, c = time.perf_counter(), time.process_time()
        app.on_update(1 / 60)
        app.on_draw()
        ctx.finish()
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        app.flip()
        now = scene.tower.big
        label = ("stage opened" if now and not big else "stage closed" if big and not now
                 else "stage" if now else "event" if played else "table")
        if now and not big:
            battles += 1
        big = now
        frames.append((label, wall, cpu, ",".join(played)))
        if battles > args.battles and not now:
            break
    print(f"window {width}x{height}, renderer: {ctx.info.RENDERER}; {len(frames)} frames, "
          f"{battles - (battles > args.battles)} battles staged (seed {args.seed})")
    walls = sorted(f[1] for f in frames)
    print(f"all frames: median {statistics.median(walls) * 1000:.2f} ms, "
          f"p99 {walls[int(len(walls) * 0.99)] * 1000:.2f} ms, max {walls[-1] * 1000:.2f} ms")
    print(f"  {'label':<14}{'frames':>7}{'median':>10}{'p99':>10}{'max':>10}{'cpu med':>10}{'cpu max':>10}")
    for label in ("stage opened", "stage", "stage closed", "event", "table"):
        ws = sorted(f[1] for f in frames if f[0] == label)
        cs = sorted(f[2] for f in frames if f[0] == label)
        if ws:
            print(f"  {label:<14}{len(ws):>7}{statistics.median(ws) * 1000:>8.2f}ms"
                  f"{ws[min(len(ws) - 1, int(len(ws) * 0.99))] * 1000:>8.2f}ms{ws[-1] * 1000:>8.2f}ms"
                  f"{statistics.median(cs) * 1000:>8.2f}ms{cs[-1] * 1000:>8.2f}ms")
    print("the largest frames (wall, CPU, label, the events played in them):")
    for label, wall, cpu, evs in sorted(frames, key=lambda f: -f[1])[:15]:
        print(f"  {wall * 1000:7.1f} ms {cpu * 1000:7.1f} ms  {label:<13} {evs}")
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
