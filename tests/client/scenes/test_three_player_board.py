"""Moon-side 3-player games say which provinces are out of play and that this edition
chose them (issue 27, item 16): the rulebooks give that list only as a picture, and
`assets/board.json` marks the moon side's list as proposed."""

from __future__ import annotations

from net.table.options import TableOptions
import json
from pathlib import Path

import pytest

from sim.board import board

ROOT = Path(__file__).resolve().parents[3]


def test_the_board_knows_which_sides_lists_are_this_editions_choice():
    raw = json.loads((ROOT / "assets" / "board.json").read_text())["three_player_excluded"]
    chosen = {k.removesuffix("_PROPOSED") for k in raw if k.endswith("_PROPOSED")}
    assert board().excluded_3p_chosen == chosen == {"moon"}


def test_the_rules_help_names_the_provinces_and_says_whose_choice_they_are():
    from client.words.rules_text import sections
    three = [s for s in sections() if s.title == "Three players"]
    assert len(three) == 1
    text = " ".join(three[0].paragraphs)
    moon = [p for p in three[0].paragraphs if p.startswith("Moon side")][0]
    assert "this edition chose them" in moon and "picture" in moon
    assert all(name in moon for name in board().excluded_3p["moon"])
    assert all(name in text for name in board().excluded_3p["sun"])


@pytest.mark.parametrize("players, side, says", [(3, "moon", True), (3, "sun", False),
                                                 (4, "moon", False)])
def test_the_lobby_says_so_for_a_moon_side_three_player_table(app, monkeypatch, players, side, says):
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    from tests.client.conftest import frame, screenshot
    session = NetSession.open(TableOptions("host", port=0, players=players, side=side, setup="draft", bots=players - 1, name="Aiko"))
    app.session = session
    try:
        scene = LobbyScene(session, "host")
        app.show(scene)
        frame(app, 3)
        note = scene.board_note()
        shown = [t.text for t in scene.texts.labels.values() if t.visible]
        if says:
            assert "this edition chose them" in note
            assert all(name in note for name in board().excluded_3p["moon"])
            assert note in shown
            screenshot(app, ROOT / "out" / "screenshots" / "lobby-moon-3p.png")
        else:
            assert note == "" and not any("this edition" in t for t in shown)
    finally:
        app.close_session()


def test_the_menu_says_so_when_a_local_game_is_set_to_it(app):
    from client.scenes.menu import MenuScene
    scene = MenuScene({"players": 4, "side": "sun", "setup": "draft"})
    scene._cycle_players()                 # 4 -> 5
    scene._cycle_players()                 # 5 -> 3
    assert scene.players == 3 and "this edition" not in scene.board_note
    scene._set(side="moon")
    assert "this edition chose them" in scene.board_note
    app.show(scene)
    from tests.client.conftest import frame
    frame(app, 2)
    assert scene.board_note in [t.text for t in scene.texts.labels.values() if t.visible]
