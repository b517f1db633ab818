"""The window opens sized to the screen it is on (issue 27, item 1): on a 960x640 screen
it is the screen, not 1280x800 with the panels off the edges; on 1920x1080 it fills most
of the screen, centred, and the automatic interface scale follows.

Each screen size is its own Xvfb (xvfb-run) running `client.app.run` in a subprocess,
with Arcade's event loop replaced by a report of the window's size and place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from client.core.ui_scale import MIN_LOGICAL

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import argparse
import arcade

def report():
    w = arcade.get_window()
    print("WINDOW", w.width, w.height, *w.get_location(), w.ui_scale, flush=True)
    w.close()

arcade.run = report
from client.app import run
run(argparse.Namespace(command=None))
"""


def test_the_size_fits_the_screen_and_keeps_the_smallest_layout():
    from client.core.ui_scale import window_size_for_screen
    assert window_size_for_screen(960, 640) == (960, 640)
    assert window_size_for_screen(800, 600) == (800, 600)        # never larger than the screen
    w, h = window_size_for_screen(1920, 1080)
    assert (w, h) == (1728, 972)
    w, h = window_size_for_screen(1280, 800)
    assert MIN_LOGICAL[0] <= w <= 1280 and MIN_LOGICAL[1] <= h <= 800


def _window_on_screen(width: int, height: int, home: Path) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SHOGUN_HOME=str(home))
    env.pop("DISPLAY", None)
    out = subprocess.run(
        ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x24", sys.executable, "-c", PROBE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    lines = [line for line in out.stdout.splitlines() if line.startswith("WINDOW ")]
    assert lines, out.stdout + out.stderr
    return [float(x) for x in lines[-1].split()[1:]]


@pytest.mark.skipif(not shutil.which("xvfb-run"), reason="needs xvfb-run")
@pytest.mark.parametrize("screen", [(960, 640), (1920, 1080)])
def test_the_window_opens_fitted_to_the_screen(screen, tmp_path):
    sw, sh = screen
    width, height, x, y, scale = _window_on_screen(sw, sh, tmp_path)
    assert width <= sw and height <= sh                       # nothing off the screen
    assert width >= min(sw, MIN_LOGICAL[0]) and height >= min(sh, MIN_LOGICAL[1])
    assert width * height >= 0.6 * sw * sh                    # not a small window in a corner
    assert abs(x - (sw - width) / 2) <= 1 and abs(y - (sh - height) / 2) <= 1   # centred
    if sw >= 1920:
        assert scale > 1.0                                    # the interface grows with it
