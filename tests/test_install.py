"""`pip install .` into a fresh virtual environment gives a working `shogun` command that
does not need the clone: run from another folder, it finds its board data and plays."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_pip_install_puts_a_working_shogun_on_path(tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(ROOT)],
                   check=True, cwd=tmp_path, timeout=900)
    shogun = bin_dir / "shogun"
    assert shogun.exists()
    out = subprocess.run([str(shogun), "--help"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "headless" in out.stdout and "replay" in out.stdout
    game = subprocess.run([str(shogun), "headless", "--players", "3", "--seed", "2", "--quiet",
                           "--save", "g.save"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert game.returncode == 0, game.stderr
    assert "final state hash" in game.stdout
    check = subprocess.run([str(shogun), "replay", "g.save", "--verify"], capture_output=True,
                           text=True, cwd=tmp_path, timeout=300)
    assert check.returncode == 0 and "every state hash matches" in check.stdout, check.stderr
    # the installed copy is used, not the clone
    where = subprocess.run([str(bin_dir / "python"), "-c", "import sim; print(sim.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert str(ROOT) not in where.stdout and str(env_dir) in where.stdout
