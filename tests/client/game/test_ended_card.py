"""A network game that ends for me mid-game (net's `on_refused`: cut off from more than half
of the table, my seat given to a bot, no player left to watch) says why whole on a card in
the game scene, with the way back to the menu (button, Esc); the top bar keeps a short line.
Measured at 960x640 in en, nl and ro: the reason is wrapped inside the card, nothing cut."""

from __future__ import annotations

import arcade
import pytest

from client.words.net_words import for_players as net_said
from lang import i18n
from lang.i18n import _
from tests.client.conftest import frame, screenshot
from tests.client.game.test_net_comforts import ComfyTable, _click, _table_game

CUT_OFF = ("your seat 2 has gone to a bot if the others play on: none of them has heard from "
           "you for 70 s, and more than half of the table may give a silent seat to a bot; the "
           "game ended here for you")


@pytest.fixture
def small(app):
    app.set_size(960, 640)
    app.on_resize(960, 640)
    try:
        yield app
    finally:
        i18n.use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
        frame(app)


def _ended_in(app, lang: str):
    i18n.use(lang)
    session, scene = _table_game(app, ComfyTable(role="join"), role="join")
    frame(app, 3)
    assert not scene.dialog.visible
    session.on_refused(CUT_OFF)
    frame(app, 3)
    return session, scene


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_the_reason_is_read_whole_on_a_card_and_the_top_bar_says_it_short(small, lang, shots):
    app = small
    session, scene = _ended_in(app, lang)
    said = net_said(CUT_OFF)
    assert lang == "en" or said != CUT_OFF           # translated: the catalogue has the row
    d = scene.dialog
    assert d.visible, "no card says why the game ended"
    l, b, w, h = d._box()
    assert 0 <= l and l + w <= scene.width and 0 <= b and b + h <= scene.height, (l, b, w, h)
    card = said[:1].upper() + said[1:] + "."      # a sentence on its own: capital, full stop
    shown = [t for t in d.texts.labels.values() if t.visible and t.text == card]
    assert shown, [t.text for t in d.texts.labels.values() if t.visible]
    t = shown[0]                                     # the whole sentence, no "…"
    assert t.multiline and t.content_width <= w - 20, (t.content_width, w)
    top, bottom = t.y, t.y - t.content_height        # anchored at its top
    button = d.buttons[0]
    assert top <= b + h - 40 and bottom >= button.top + 4, (top, bottom, b, h, button.top)
    assert t.content_height > 2 * 11.5, "the long reason is wrapped onto several lines"
    status = scene.topbar.texts.labels["status"]
    assert session.status == _("The game ended for you")
    assert lang == "en" or session.status != "The game ended for you"     # translated
    title = d.texts.labels["t"]
    assert title.text == session.status and title.content_width <= w - 20
    assert status.text == session.status            # whole in the top bar, not cut
    if lang == "nl":
        screenshot(app, shots / "ended-card-960x640-nl.png")
    _click(app, button)
    frame(app, 2)
    assert app.scene is not scene and type(app.scene).__name__ == "MenuScene", type(app.scene)


def test_esc_on_the_card_goes_back_to_the_menu(small):
    app = small
    session, scene = _ended_in(app, "en")
    assert scene.dialog.visible
    app.on_key_press(arcade.key.ESCAPE, 0)
    frame(app, 2)
    assert app.scene is not scene and type(app.scene).__name__ == "MenuScene", type(app.scene)


def test_a_refusal_in_the_lobby_is_no_end_of_a_game(app):
    from client.sessions.network import NetSession
    session = NetSession(ComfyTable(role="join"), "join")
    session.on_refused("the host left before the game started")
    assert session.offers.ended_why is None
    assert session.status.startswith("Refused: the host left")
