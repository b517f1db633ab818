"""The menu names the seats as `play` fills them (issue 27, item 13): normal bots by
default, said in words ("normal bot"), never a baseline's name ("bot: heuristic")."""

from __future__ import annotations

import pytest

from client.core.settings import LastGame, Settings
from main import build_parser


@pytest.fixture
def menu(app):
    from client.scenes.menu import MenuScene

    def make(last: LastGame | None = None) -> MenuScene:
        last = last or Settings().last_game
        scene = MenuScene({"players": last.players, "side": last.side, "setup": last.setup,
                           "seat_kinds": list(last.seat_kinds)})
        app.show(scene)
        return scene
    yield make
    app.show_menu()


def test_the_menus_bots_are_the_bots_play_gives(menu):
    play_bots = build_parser().parse_args(["play"]).bots
    scene = menu()
    assert set(scene.options()["bots"].values()) == {play_bots} == {"normal"}
    labels = [b.label for b in scene.b_seats[:scene.players]]
    assert labels[0] == "Blue: you"
    assert labels[1:] == ["Orange: normal bot", "Black: normal bot", "White: normal bot"]


def test_an_older_settings_files_baselines_read_as_levels(menu):
    scene = menu(LastGame(4, "sun", "beginner", ("you", "heuristic", "random", "hard", "normal")))
    labels = " ".join(b.label for b in scene.b_seats[:4])
    assert "heuristic" not in labels and "random" not in labels and "bot:" not in labels
    assert scene.options()["bots"] == {1: "normal", 2: "easy", 3: "hard"}
