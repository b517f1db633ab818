"""tools/check_bundle.py's own judgements (the checks themselves run the built bundle in
tests/tools/test_bundle.py): what counts as a blank screen, a hash, a player's environment."""

from __future__ import annotations

import sys

import pytest
from PIL import Image, ImageDraw

from tools import check_bundle


def test_a_blank_or_one_colour_screen_is_not_a_game(tmp_path):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (1152, 720), (0, 0, 0)).save(blank)
    assert "blank" in (check_bundle.screen_problem(blank) or "")
    mostly = tmp_path / "mostly.png"
    img = Image.new("RGB", (1152, 720), (226, 218, 198))
    for k in range(600):                       # many colours, one covering most of it
        img.putpixel((k, 0), (k % 256, k // 256, 7))
    img.save(mostly)
    assert check_bundle.screen_problem(mostly) == "one colour covers half the screen"
    small = tmp_path / "small.png"
    Image.new("RGB", (200, 100)).save(small)
    assert "200x100" in (check_bundle.screen_problem(small) or "")


def test_a_drawn_screen_passes(tmp_path):
    shot = tmp_path / "drawn.png"
    img = Image.new("RGB", (1152, 720))
    d = ImageDraw.Draw(img)
    for x in range(0, 1152, 8):
        for y in range(0, 720, 8):
            d.rectangle((x, y, x + 7, y + 7), fill=(x % 256, y % 256, (x + y) % 256))
    img.save(shot)
    assert check_bundle.screen_problem(shot) is None


def test_the_final_hash_is_the_last_one_printed():
    text = "final state hash " + "a" * 64 + "\nmore\nfinal state hash " + "b" * 64 + "\n"
    assert check_bundle.final_hash(text) == "b" * 64
    with pytest.raises(check_bundle.CheckFailed, match="no final state hash"):
        check_bundle.final_hash("Winner: P3\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX environment")
def test_a_players_environment_holds_a_home_and_nothing_of_this_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.setenv("VIRTUAL_ENV", "/venv")
    env = check_bundle.player_env(tmp_path / "home", DISPLAY=":9")
    assert env == {"HOME": str(tmp_path / "home"), "DISPLAY": ":9"}
    assert (tmp_path / "home").is_dir()
