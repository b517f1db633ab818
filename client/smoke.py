"""`shogun smoke --out FILE.png`: does the game's window work on this machine? A screenshot says.

Why: a downloaded game (`tools/bundle`) is checked as a player's machine would run it, and
a player can send "what my screen shows". The command opens the window, draws the menu,
starts a 4-player beginner game against three normal bots (fast animations, a fixed seed,
no autosave, so the player's Continue game stays as it was), plays on to the first plan
the player is asked for, saves that screen to FILE.png and exits 0. It prints when the
menu was first drawn (with the CPU time the process has used by then, a figure a loaded
machine does not inflate much) and when the screenshot was taken, in seconds since the
command began (benchmarks/start/bench_bundle.py times a whole start by the first line). Exit 1 when the game never
asks for a plan in time.

Tests: tests/client/test_smoke.py; the bundled game: tests/tools/test_bundle.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import arcade

from client.app import App, open_window
from client.sessions.local_choice import LocalChoice
from lang.i18n import _, use

SEED = 3
PLAN_TIMEOUT = 120.0      # seconds: bots on a loaded machine under a software renderer


def _frame(app: App) -> None:
    app.dispatch_events()
    app.on_update(1 / 60)
    app.on_draw()
    app.flip()


def _say(line: str) -> None:
    """A progress line in English: tools/check_bundle.py and benchmarks/start/bench_bundle.py
    read it, as scripts read `final state hash` (the player's file is the screenshot)."""
    print(line, flush=True)


def run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    out = Path(args.out)
    app = open_window()
    if getattr(args, "lang", None):      # --lang wins over the settings, as in client.app.run
        use(args.lang)
    app.show_menu()
    _frame(app)
    _frame(app)            # the second frame: the menu is on screen, not only drawn once
    _say(f"menu drawn after {time.perf_counter() - began:.2f} s "
         f"({time.process_time():.2f} s of CPU since the process started)")
    scene = app.start_local(LocalChoice.one_level("normal", seed=SEED), fast=True,
                            autosave=False)
    deadline = time.perf_counter() + PLAN_TIMEOUT
    while not scene.planning.visible and time.perf_counter() < deadline:
        _frame(app)
    if not scene.planning.visible:
        print(_("error: the game did not ask for a plan within {seconds} s").format(
            seconds=f"{PLAN_TIMEOUT:.0f}"), file=sys.stderr)
        app.close()
        return 1
    for _frame_no in range(3):         # let the planning panel settle before the picture
        _frame(app)
    app.on_draw()
    out.parent.mkdir(parents=True, exist_ok=True)
    arcade.get_image(0, 0, app.width, app.height).save(out)
    _say(f"planning screen saved to {out} after {time.perf_counter() - began:.2f} s")
    app.close_session()
    app.close()
    return 0
