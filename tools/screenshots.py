"""Screenshots of the game window at several sizes, for looking at (not committed).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tools/screenshots.py OUTDIR

For each size (960x640, 1280x800, 1920x1080 unless --sizes says otherwise) it starts a local
4-player beginner game (one human seat, heuristic bots), runs it until the human is asked to
plan, saves `planning-WxH.png`, then from a bots-only game `battle-WxH.png` in the middle
of its first battle drop (the battle view), `winter-WxH.png` during the final scoring
(fast-forward stops there) and `end-WxH.png` (the end screen); `--players 3` shows the
hatched out-of-play provinces.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _frames(app, n: int = 1) -> None:
    for _ in range(n):
        app.dispatch_events()
        app.on_update(1 / 60)
        app.on_draw()
        app.flip()


def _save(app, path: Path) -> None:
    import arcade
    app.on_draw()
    arcade.get_image(0, 0, app.width, app.height).save(path)
    print(f"saved {path}")


def _run_until(app, cond, seconds: float) -> bool:
    t0 = time.time()
    while time.time() - t0 < seconds:
        if cond():
            return True
        _frames(app)
    return cond()


def shoot(app, out: Path, size: tuple[int, int], players: int, seed: int) -> None:
    w, h = size
    app.set_size(w, h)
    app.on_resize(w, h)
    scene = app.start_local({"players": players, "side": "sun", "setup": "beginner",
                             "humans": [0], "bots": "heuristic"}, seed=seed, fast=True)
    tag = f"{players}p-{w}x{h}"
    if not _run_until(app, lambda: scene.planning.visible, 60):
        print(f"{tag}: never asked to plan", file=sys.stderr)
        return
    _frames(app, 3)
    _save(app, out / f"planning-{tag}.png")
    # a battle mid-drop: a bots-only game fast-forwarded until the first battle drop starts
    scene = app.start_local({"players": players, "side": "sun", "setup": "beginner",
                             "humans": [], "bots": "heuristic"}, seed=seed, fast=True)
    seen = []

    def on_shot(kind: str) -> None:
        e = scene.playing_event or {}
        if kind == "tower_coming" and e.get("reason") == "battle" and not seen:
            seen.append(True)
            scene.fast = False          # watch this drop at normal speed

    scene.screenshot_hook.connect(on_shot)
    tower = scene.tower
    if _run_until(app, lambda: seen and tower.playing and tower._rec is not None
                  and (tower.landed or tower._frame > len(tower._rec.frames) * 0.5), 120):
        _save(app, out / f"battle-{tag}.png")
    else:
        print(f"{tag}: no battle drop seen", file=sys.stderr)
    scene.fast = True
    if _run_until(app, lambda: scene.winter.visible and scene.winter.last, 240):
        _frames(app, 25)                # the points on their way to the players
        _save(app, out / f"winter-{tag}.png")
        scene.on_key_press(__import__("arcade").key.S, 0)
    else:
        print(f"{tag}: no final scoring seen", file=sys.stderr)
    if _run_until(app, lambda: app.scene.name == "end", 60):
        _frames(app, 3)
        _save(app, out / f"end-{tag}.png")
    else:
        print(f"{tag}: the game did not end", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--sizes", default="960x640,1280x800,1920x1080")
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    try:
        sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes must look like 960x640,1280x800 (got {args.sizes!r})")
    args.outdir.mkdir(parents=True, exist_ok=True)
    from client.app import App
    app = App(sizes[0][0], sizes[0][1], visible=False)
    try:
        for size in sizes:
            shoot(app, args.outdir, size, args.players, args.seed)
    finally:
        app.session = None
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
