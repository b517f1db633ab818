"""Client frame time during a 60-cube tower animation, at 1280x800, on this machine.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/bench_client.py
    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/bench_client.py --size 1920x1080

By default the whole battle scene is played (issue 36 item 6): the stage opening from
the province, the side panels, the handful gathered and poured in, the pour, the tally
(`--drop-only`: only the drop in the large view, as before issue 36).

Sets up the real game scene (board, panels, log, tower) of a 4-player game, pauses the
game, switches to the battle view (the tower large; `--small` keeps it in its column), then plays a recorded drop of 60 thrown cubes (15 of three seats and 15 peasants)
through the tower view several times. Per frame it times the window's update + draw,
including `ctx.finish()` so the software renderer's work (Mesa llvmpipe) is counted, not
just queued. On a software renderer the window repaints only the animated tower while
nothing else changes (`SHOGUN_PARTIAL_REDRAW=0` forces full repaints, for comparison;
`SHOGUN_ANTIALIAS=1` a multisampled window, as before issue 36). Prints the median and
99th percentile frame time and the peak RSS, and per frame kind (the stage: opening,
handful, pour, tally; whole window or partial; +count when a cube landed) the count and
the wall and CPU time: on a loaded machine the CPU time shows the work, the wall time
mostly the wait for a core. The stage's first frame is also printed per drop (issue 48:
it was a 67-159 ms hitch), timed from the battle's start (`BattleShow.start`, the tower's
`play`) to the first frame's update + draw + finish, as the game does them in one frame;
the first drop is the game's first battle (nothing of the stage made yet). As in the game,
the frames before the stage opens draw its picture and the map's arrow
(`BattleShow.prepare`, a part a frame), and the frame after it the board back: they are
counted with the stage's frames (kinds "before: prepare", "after: board back").
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import cast

# this checkout's code, not the shared virtualenv's editable install (which points at
# another checkout): the path goes first, before any of the project's imports
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.sessions.interface import Played  # noqa: E402
from client.sessions.local_choice import LocalChoice  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=4, help="times the drop is played")
    ap.add_argument("--cubes", type=int, default=60)
    ap.add_argument("--size", default="1280x800", help="the window's size, WxH")
    ap.add_argument("--small", action="store_true",
                    help="the tower in its column, not the battle view's large tower")
    ap.add_argument("--drop-only", action="store_true",
                    help="only the drop in the large view (no stage opening, panels or handful)")
    args = ap.parse_args()

    import arcade
    from client.app import App
    import client
    print(f"code: {Path(client.__file__).resolve().parent.parent}")
    from sim import events as ev
    from sim.tower import drop as tower

    width, height = (int(v) for v in args.size.split("x"))
    app = App(width, height, visible=False)
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=3), fast=True)
    # play into the first round so the board, panels and log are populated
    t0 = time.time()
    while (scene.display is None or not scene.display.get("actions") or
           scene.display["actions"][0] is None) and time.time() - t0 < 60:
        app.on_update(1 / 60)
        app.on_draw()
    scene.fast = False
    scene.paused = True               # no new events: only the tower moves
    if not args.small and args.drop_only:       # the large view, the drop alone
        scene.battle.active = True
        scene.tower.set_big(True)
        scene.on_layout()
    per = args.cubes // 4
    thrown = {0: per, 1: per, 2: per, 5: args.cubes - 3 * per}
    res = tower.drop(tower.EMPTY, thrown, b"bench-client-drop".ljust(32, b"."), record=True)
    rec = res.recording
    assert rec is not None   # record=True
    most = max(sum(p is not None for p in f) for f in rec.frames)
    times = []
    ctx = app.ctx
    app.on_draw()                      # one full frame after the setup
    full0, part0 = app.full_frames, app.partial_frames
    import inspect
    staged = not args.small and not args.drop_only and \
        "from_tray" in inspect.signature(scene.tower.play).parameters
    dropped = cast(ev.TowerDropped, {   # the keys the stage reads
        "event": "TowerDropped", "reason": "battle",
        "thrown": {("peasant" if c == 5 else str(c)): n for c, n in thrown.items()}})
    battle = {"event": "BattleResolved", "kind": "attack", "province": "Suruga", "attacker": 0,
              "defender": 1, "unrest": 0, "attack_card": 1}
    rest = cast("list[Played]",   # the keys the stage reads
                [battle, {"event": "ActionDone", "province": "Kai", "attacked": "Suruga"}])
    stage_size = ""
    kinds: dict[str, list[float]] = {}    # frame kind -> its frames' times (the structure)
    cpus: dict[str, list[float]] = {}     # the same frames' CPU time (all threads, llvmpipe's too)
    firsts: list[float] = []              # each drop's first frame, its start included
    first_cpus: list[float] = []          # and its CPU time
    befores: list[list[float]] = []       # per drop, the frames before it that draw its stage's picture
    before_cpus: list[list[float]] = []   # and their CPU time
    backs: list[tuple[float, float]] = []  # per drop, the frame after it: wall and CPU time
    for _ in range(args.repeats):
        if staged and hasattr(scene.battle, "prepare"):
            # as the game does while the event before the drop holds (issue 48): the stage's
            # picture and the map's arrow drawn before the stage opens, a part a frame
            # (`prepare` True: all drawn; before, None and in one frame). Each battle's
            # panels differ: the picture is drawn again for each drop, as in a game
            scene.tower._drawn = None
            befores.append([])
            before_cpus.append([])
            done = False
            while not done:
                t, c = time.perf_counter(), time.process_time()
                done = scene.battle.prepare(dropped, rest, {"peasant": 2, "2": 1}) in (True, None)
                app.on_update(1 / 60)
                app.on_draw()
                ctx.finish()
                spent = time.perf_counter() - t
                befores[-1].append(spent)
                times.append(spent)
                kinds.setdefault("before: prepare", []).append(spent)
                cpus.setdefault("before: prepare", []).append(time.process_time() - c)
                before_cpus[-1].append(cpus["before: prepare"][-1])
                app.flip()
        t_first, c_first = time.perf_counter(), time.process_time()
        if staged:                    # the whole battle scene, as the game plays it
            caption = scene.battle.start(dropped, rest, {"peasant": 2, "2": 1})
            scene.tower.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds(),
                             scene.battle.from_tray)
            stage_size = f"{scene.tower.width:.0f}x{scene.tower.height:.0f}"
        else:
            scene.tower.play(rec, "Benchmark drop")
        first = True
        while scene.tower.playing:
            tv = scene.tower
            opening, landed, full = tv.opening < 1.0, tv.landed, app.full_frames
            t, c = time.perf_counter(), time.process_time()
            if first:                 # the game starts the stage within a frame's update
                t, c = t_first, c_first
            app.on_update(1 / 60)
            app.on_draw()
            ctx.finish()
            spent = time.perf_counter() - t
            times.append(spent)
            cpu = time.process_time() - c
            kind: str = "opening" if opening else (tv.stage or "end")
            kind += " full" if app.full_frames != full else " partial"
            if tv.landed != landed:
                kind += " +count"          # a cube landed: the panels' counts changed
            if first:
                firsts.append(spent)
                first_cpus.append(cpu)
                first = False
            kinds.setdefault(kind, []).append(spent)
            cpus.setdefault(kind, []).append(cpu)
            app.flip()
        if staged:
            scene.battle.end()
            # the frame after: the board back, without the arrow (counted too: a frame the
            # player waits for)
            t, c = time.perf_counter(), time.process_time()
            app.on_update(1 / 60)
            app.on_draw()
            ctx.finish()
            spent = time.perf_counter() - t
            times.append(spent)
            kinds.setdefault("after: board back", []).append(spent)
            cpus.setdefault("after: board back", []).append(time.process_time() - c)
            backs.append((spent, cpus["after: board back"][-1]))
            app.flip()
    times.sort()
    med = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"window {width}x{height}, renderer: {ctx.info.RENDERER}; tower "
          f"{stage_size or f'{scene.tower.width:.0f}x{scene.tower.height:.0f}'} px ({'column' if args.small else 'drop only' if not staged else 'battle scene'})")
    print(f"drop: {sum(thrown.values())} cubes thrown, up to {most} cubes in the tower at once "
          f"(+ tray), {len(rec.frames)} recorded frames, played {args.repeats}x")
    print(f"frames timed: {len(times)} ({app.full_frames - full0} full redraws, "
          f"{app.partial_frames - part0} tower-only; partial redraw "
          f"{'on' if app.partial_redraw else 'off'})")
    print(f"update+draw per frame: median {med:.2f} ms, p99 {p99:.2f} ms, max {times[-1] * 1000:.2f} ms")
    print("the stage's first frame (the battle's start, the play and the first update+draw), "
          "per drop: " + ", ".join(f"{f * 1000:.1f}" for f in firsts) + " ms wall, "
          + ", ".join(f"{c * 1000:.1f}" for c in first_cpus) + " ms CPU")
    if befores:
        print("the frames before it, drawing the stage's picture and the map's arrow (BattleShow.prepare), "
              "per drop: " + "; ".join(", ".join(f"{f * 1000:.1f}" for f in fs) for fs in befores)
              + " ms wall (in the figures above and below); CPU: "
              + "; ".join(", ".join(f"{f * 1000:.1f}" for f in fs) for fs in before_cpus) + " ms")
    if backs:
        print("the frame after it (the board back, the arrow gone), per drop: "
              + ", ".join(f"{w * 1000:.1f}" for w, _c in backs) + " ms wall, "
              + ", ".join(f"{c * 1000:.1f}" for _w, c in backs) + " ms CPU")
    print("per frame kind (stage; whole window or partial repaint; +count: a cube landed), wall "
          "time and CPU time of the process (the renderer's threads included: on a loaded "
          "machine the CPU time shows the work, the wall time the wait for a core):")
    print(f"  {'kind':<26}{'frames':>7}{'median':>10}{'p99':>10}{'max':>10}"
          f"{'cpu med':>10}{'cpu p99':>10}")
    for kind, ts in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        ts.sort()
        cs = sorted(cpus[kind])
        print(f"  {kind:<26}{len(ts):>7}{statistics.median(ts) * 1000:>8.2f}ms"
              f"{ts[min(len(ts) - 1, int(len(ts) * 0.99))] * 1000:>8.2f}ms{ts[-1] * 1000:>8.2f}ms"
              f"{statistics.median(cs) * 1000:>8.2f}ms{cs[min(len(cs) - 1, int(len(cs) * 0.99))] * 1000:>8.2f}ms")
    allc = sorted(c for cs in cpus.values() for c in cs)
    print(f"CPU per frame: median {statistics.median(allc) * 1000:.2f} ms, "
          f"p99 {allc[min(len(allc) - 1, int(len(allc) * 0.99))] * 1000:.2f} ms; "
          f"window multisampled: {app.config.samples or 0}x")
    print(f"load average: {' '.join(f'{v:.2f}' for v in __import__('os').getloadavg())}")
    print(f"peak RSS: {rss:.0f} MB")
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
