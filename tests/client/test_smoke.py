"""`shogun smoke --out FILE.png` from a clone: the window opens, draws the menu and the first
plan of a game against bots, the screenshot shows it, and the player's own saves stay as
they were. Without a display it says so, as `./shogun` does. (The bundled game runs the
same command in tests/tools/test_bundle.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tools.check_bundle import screen_problem

ROOT = Path(__file__).resolve().parents[2]


def test_smoke_saves_the_first_plan_and_keeps_the_players_saves(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "SHOGUN_HOME": str(home)}
    out = tmp_path / "screen.png"
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "smoke", "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "menu drawn after" in done.stdout
    assert f"planning screen saved to {out}" in done.stdout
    assert screen_problem(out) is None, screen_problem(out)
    saves = [p for p in home.rglob("*") if p.is_file() and p.suffix == ".save"]
    assert saves == [], f"smoke wrote {saves}: the player's Continue game would be replaced"


def test_without_a_display_smoke_says_so_and_exits_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "screen.png"
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "smoke", "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no display" in done.stderr
    assert not out.exists()
