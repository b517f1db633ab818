"""Films of battles (issue 28 item 5): `replay SAVE --film N --out FILE.gif` renders battle
N of a saved game as the window shows it, headless (the command starts its own virtual
display when DISPLAY is unset), from a headless game's save and from a game log (what a
spectator's `watch --headless --log` writes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[3]


def _shogun(*args: str, display: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if not display:
        env.pop("DISPLAY", None)             # headless: the film finds its own display
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("film")
    save, log = d / "game.save", d / "game.log"
    r = _shogun("headless", "--seed", "3", "--save", str(save), "--log", str(log), "--quiet")
    assert r.returncode == 0, r.stderr
    return save, log


def _frames(path: Path) -> tuple[int, tuple[int, int]]:
    with Image.open(path) as im:
        assert im.format == "GIF" and im.is_animated
        return im.n_frames, im.size


@pytest.mark.slow
def test_battle_3_of_a_headless_save_becomes_an_animated_gif(saved_game, tmp_path):
    save, _ = saved_game
    out = tmp_path / "b.gif"
    r = _shogun("replay", str(save), "--film", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    frames, (w, h) = _frames(out)
    assert frames >= 30 and h >= 480, (frames, w, h)
    assert "Battle 3: " in r.stdout and (" attacks " in r.stdout or " revolt " in r.stdout), r.stdout
    assert "wins" in r.stdout or "draw" in r.stdout, "the result is named"


@pytest.mark.slow
def test_a_game_log_films_the_same_battle_as_its_save(saved_game, tmp_path):
    """A spectator keeps a game log, not a save: the same battle, the same words."""
    save, log = saved_game
    r_log = _shogun("replay", str(log), "--film", "2", "--out", str(tmp_path / "l.gif"))
    r_save = _shogun("replay", str(save), "--film", "2", "--out", str(tmp_path / "s.gif"))
    assert r_log.returncode == 0 and r_save.returncode == 0, r_log.stderr + r_save.stderr
    frames, (_, h) = _frames(tmp_path / "l.gif")
    assert frames >= 30 and h >= 480
    # the log has no "from" province (its batches end at the result); the rest agrees
    head = lambda out: out.splitlines()[0].split(" — ", 1)[1].replace(" from Kai", "")
    assert head(r_log.stdout) == head(r_save.stdout)
    assert r_log.stdout.splitlines()[1] == r_save.stdout.splitlines()[1]


def test_a_film_asked_wrongly_gets_a_sentence(saved_game, tmp_path):
    save, _ = saved_game
    r = _shogun("replay", str(save), "--film", "1", "--out", str(tmp_path / "b.mp4"))
    assert r.returncode == 2 and "animated GIF" in r.stderr and "Traceback" not in r.stderr
    r = _shogun("replay", str(save), "--film", "1")
    assert r.returncode == 2 and "--out" in r.stderr
    r = _shogun("replay", str(tmp_path / "nothing.save"), "--film", "1", "--out", str(tmp_path / "b.gif"))
    assert r.returncode == 2 and "No such file" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_a_battle_the_game_does_not_have_is_named(saved_game, tmp_path):
    save, _ = saved_game
    r = _shogun("replay", str(save), "--film", "999", "--out", str(tmp_path / "b.gif"))
    assert r.returncode == 2 and "there is no battle 999" in r.stderr, r.stderr
    assert not (tmp_path / "b.gif").exists()
