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
    assert set(scene.local_choice().bots.values()) == {play_bots} == {"normal"}
    labels = [b.label for b in scene.b_seats[:scene.players]]
    assert labels[0] == "Blue: you"
    assert labels[1:] == ["Orange: normal bot", "Black: normal bot", "White: normal bot"]


def test_an_older_settings_files_baselines_read_as_levels(menu):
    scene = menu(LastGame(4, "sun", "beginner", ("you", "heuristic", "random", "hard", "normal")))
    labels = " ".join(b.label for b in scene.b_seats[:4])
    assert "heuristic" not in labels and "random" not in labels and "bot:" not in labels
    assert scene.local_choice().bots == {1: "normal", 2: "easy", 3: "hard"}


def test_the_menus_seats_reach_the_game_and_the_table_as_records(menu):
    """Issue 50: the menu hands a `LocalChoice` to the app and a `TableOptions` to the
    network, each from its seats, not a dict read by key on the way."""
    scene = menu(LastGame(5, "moon", "draft", ("hard", "you", "human", "easy", "normal")))
    choice = scene.local_choice()
    assert (choice.players, choice.side, choice.setup, choice.humans) == (5, "moon", "draft", (1, 2))
    assert choice.bots == {0: "hard", 3: "easy", 4: "normal"}
    scene.f_address.value, scene.f_code.value = " 127.0.0.1:7777 ", ""
    host = scene.table_choice("host")
    assert (host.command, host.address, host.code, host.players, host.side, host.setup,
            host.bots) == ("host", "127.0.0.1:7777", None, 5, "moon", "draft", 3)


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("size", [(960, 640), (1280, 800)])
def test_the_saves_heading_stands_clear_of_its_fields_label(app, menu, lang, size):
    """Issue 49 (round three, the first-hour screenshots): in the Romanian menu the
    heading "Salvări și jurnale" touched the save field's label under it ("Fișier de
    salvare sau jurnal"). Measured as drawn: at least 2 px between the heading's lowest
    pixel (its descenders) and the label's highest, and the label over its field."""
    from lang.i18n import use
    use(lang)
    try:
        app.set_size(*size)
        app.on_resize(*size)
        scene = menu()
        scene.on_layout()
        scene.rebuild()
        scene.f_path.rebuild()
        head, hint = scene.texts.labels["l3"], scene.f_path.texts.labels["l"]
        assert head.bottom >= hint.top + 2, (lang, size, head.bottom, hint.top)
        assert hint.bottom >= scene.f_path.top, (lang, size)
    finally:
        use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
