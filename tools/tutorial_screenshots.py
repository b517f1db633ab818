"""Screenshots of every tutorial step at several window sizes, for looking at (not
committed).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tools/tutorial_screenshots.py OUTDIR

For each size (960x640, 1280x800, 1920x1080 unless --sizes says otherwise) it opens the
menu (`menu-WxH.png`, with Learn to play), presses Learn to play and walks the tutorial
as the script's player does (`client/tutorial/autoplay.py`), saving
`tutorial-NN-STEP-WxH.png` when each step's card is shown (the battle step a moment into
the drop) and `tutorial-move-WxH.png` at the first opponent move watched one at a time.
`--lang nl` (or ro) shows the window in that language (file names end in `-nl`);
`--small` saves 256-colour PNGs (the set committed under docs/screenshots/first-hour).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# after the path; the same frames, saving, arguments and window as the game's screenshots
from tools.screenshots import (PALETTE, _frames, _save, add_window_arguments,  # noqa: E402
                               hidden_window, parse_sizes)

if TYPE_CHECKING:
    from client.app import App


def shoot(app: App, out: Path, size: tuple[int, int], suffix: str, seconds: float) -> list[str]:
    """Walk the tutorial at `size`; returns the steps shown."""
    from client.core.settings import SPEEDS
    from client.tutorial import script
    from client.tutorial.autoplay import coach_of, step_on
    w, h = size
    app.set_size(w, h)
    app.on_resize(w, h)
    tag = f"{w}x{h}{suffix}"
    app.show_menu()
    _frames(app, 3)
    _save(app, out / f"menu-{tag}.png")
    from client.game.game_scene import GameScene
    from client.scenes.menu import MenuScene
    menu = app.scene
    if not isinstance(menu, MenuScene):
        raise SystemExit(f"{tag}: the menu did not open")
    menu.b_tutorial.pressed.emit()
    scene = app.scene
    if not isinstance(scene, GameScene):
        raise SystemExit(f"{tag}: the tutorial did not open a game")
    coach = coach_of(scene)
    scene.speed_idx = len(SPEEDS) - 1            # the fastest pace: the steps hold anyway
    saved: set[str] = set()
    bar_saved = False
    t0 = time.time()
    while time.time() - t0 < seconds:
        _frames(app, dt=0.1)                 # 10 frames a game second: the walk is quicker
        st = coach.progress.current
        if st is not None and st.key not in saved:
            saved.add(st.key)
            _frames(app, 40 if st.key == "battle" else 3)   # the cubes on their way
            n = script.STEP_KEYS.index(st.key) + 1
            _save(app, out / f"tutorial-{n:02d}-{st.key}-{tag}.png")
        elif coach.waiting_move and not bar_saved:
            bar_saved = True
            _frames(app, 3)
            _save(app, out / f"tutorial-move-{tag}.png")
        step_on(scene)
        if "finished" in coach.progress.shown and coach.progress.current is None:
            break
    missing = [k for k in script.STEP_KEYS if k not in coach.progress.shown]
    if missing:
        print(f"{tag}: steps not reached: {', '.join(missing)}", file=sys.stderr)
    return list(coach.progress.shown)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_window_arguments(ap)
    ap.add_argument("--seconds", type=float, default=900.0, help="at most this long per size")
    ap.add_argument("--small", action="store_true",
                    help="256-colour PNGs (as tools/screenshots.py --small: the docs' set)")
    args = ap.parse_args()
    PALETTE[0] = args.small
    sizes = parse_sizes(ap, args.sizes)
    args.outdir.mkdir(parents=True, exist_ok=True)
    from lang.i18n import use
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    with hidden_window(sizes[0]) as app:
        use(args.lang)
        for size in sizes:
            shown = shoot(app, args.outdir, size, suffix, args.seconds)
            print(f"{size[0]}x{size[1]}: steps shown: {', '.join(shown)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
