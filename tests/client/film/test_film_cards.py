"""A film's title card and result card (issue 36 item 5): the battle named in sentences of
the player's language, readable over the darkened frame whatever the seat's colour."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from client.film.film_cards import card, title_lines
from client.core.film_encoder import film_command
from lang.i18n import use

ATTACK = {"event": "BattleResolved", "kind": "attack", "province": "Kai", "attacker": 0,
          "defender": 2}


def test_the_title_names_the_season_and_year_the_sides_and_the_province():
    use("en")
    assert title_lines(ATTACK, {"year": 2, "season": "summer"}) == [
        "Summer of year 2", "Blue against Black", "Battle in Kai"]
    revolt = {**ATTACK, "kind": "revolt", "attacker": "peasant"}
    assert title_lines(revolt, {"year": 3, "season": "autumn"})[1:] == [
        "Peasants against Black", "Revolt in Kai"]


def test_the_title_is_in_the_players_language():
    try:
        use("nl")
        when, who, where = title_lines(ATTACK, {"year": 2, "season": "summer"})
        assert "jaar 2" in when and " tegen " in who and "Kai" in where
    finally:
        use("en")


def test_a_dark_seat_colour_is_outlined_light_on_the_card():
    """Black's name on the darkened frame: its outline is light (it was unreadable)."""
    frame = Image.new("RGB", (640, 360), (60, 60, 60))
    out = card(frame, ["Summer of year 2", "Black against Blue", "Battle in Kai"], 2)
    assert out.size == (640, 360)
    row = [out.getpixel((x, 180)) for x in range(640)]
    assert any(min(p) > 200 for p in row), "a light outline around the dark name"


def test_the_window_films_in_its_own_language():
    try:
        use("ro")
        assert film_command("g.save", 3, Path("f.mp4"))[:2] == ["--lang", "ro"]
    finally:
        use("en")
