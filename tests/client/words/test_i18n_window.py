"""Languages in the window (under Xvfb): the font has every Romanian and Dutch letter,
choosing a language in the settings redraws at once (Cancel goes back), the menu and the
rules read in Dutch and Romanian, and their buttons' words fit."""

from __future__ import annotations

import arcade
import pytest

from lang import i18n
from tests.client.conftest import frame, screenshot

LETTERS = "ăâîșțôōĂÂÎȘȚÔŌ"


@pytest.fixture
def home(app, tmp_path, monkeypatch):
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path))
    app.reload_settings()
    yield tmp_path
    i18n.use("en")
    app.show_menu()


def _drawn(node, key) -> str:
    return node.texts.labels[key].text


def _buttons_fit(scene) -> list[str]:
    """Labels wider than their button (drawn text, measured by pyglet)."""
    too_wide = []
    for b in scene.walk():
        label = getattr(b, "texts", None) and b.texts.labels.get("l")
        if b.visible and label is not None and hasattr(b, "pressed") and b.width > 0 \
                and label.content_width > b.width - 4:
            too_wide.append(f"{label.text!r} ({label.content_width:.0f} > {b.width:.0f})")
    return too_wide


def test_the_window_font_has_every_letter_of_the_three_languages(app):
    import pyglet

    from client.core.text_cache import BUNDLED_FONTS, FONT
    assert BUNDLED_FONTS, "matplotlib's DejaVu Sans should be registered"
    for weight in ("normal", "bold"):
        font = pyglet.font.load(FONT, 12, weight=weight)
        assert font.name == "DejaVu Sans"
        missing = [c for c in LETTERS if font.face.get_character_index(c) == 0]
        assert not missing, f"{weight}: no glyph for {missing}"


def test_a_language_chosen_in_the_settings_applies_at_once(app, home, shots):
    from client.core.settings import load_settings
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.O, 0)
    frame(app, 2)
    scene = app.scene
    assert scene.name == "settings" and _drawn(scene, "t") == "Settings"
    b = scene.buttons["language"]
    while b.label != "Nederlands":
        app.on_mouse_press(b.left + 3, b.bottom + 3, arcade.MOUSE_BUTTON_LEFT, 0)
    frame(app, 2)
    assert _drawn(scene, "t") == "Instellingen"
    assert _drawn(scene.save_btn, "l") == "Opslaan  [Enter]"
    screenshot(app, shots / "settings-nl.png")
    app.on_key_press(arcade.key.ESCAPE, 0)          # Cancel: back to English
    frame(app, 2)
    assert app.scene.name == "menu" and i18n.current() == "en"
    assert _drawn(app.scene.b_start, "l") == "Start local game  [Enter]"
    app.on_key_press(arcade.key.O, 0)
    frame(app)
    scene = app.scene
    b = scene.buttons["language"]
    while b.label != "Română":
        app.on_mouse_press(b.left + 3, b.bottom + 3, arcade.MOUSE_BUTTON_LEFT, 0)
    app.on_key_press(arcade.key.ENTER, 0)           # Save: kept, and the menu is Romanian
    frame(app, 2)
    assert load_settings()[0].language == "ro"
    assert _drawn(app.scene.b_start, "l") == "Începe jocul  [Enter]"
    app.reload_settings()                           # a restart reads it again
    assert i18n.current() == "ro"


@pytest.mark.parametrize("lang, title, section", [("nl", "Zo speel je Shogun", "Doel van het spel"),
                                                   ("ro", "Cum se joacă Shogun", "Obiectivul jocului")])
def test_the_menu_and_the_rules_read_in_the_language(app, home, shots, lang, title, section):
    i18n.use(lang)
    app.show_menu()
    frame(app, 2)
    menu = app.scene
    assert _drawn(menu, "l1") != "New local game"
    assert not _buttons_fit(menu), _buttons_fit(menu)
    screenshot(app, shots / f"menu-{lang}.png")
    app.on_key_press(arcade.key.F1, 0)
    frame(app, 2)
    help_ = menu.help
    assert help_.visible and help_.titles()[0] == section
    assert _drawn(help_, "title") == title
    screenshot(app, shots / f"help-{lang}.png")
    for _ in range(4):
        app.on_key_press(arcade.key.PAGEDOWN, 0)
    frame(app, 2)
    screenshot(app, shots / f"help-{lang}-scrolled.png")
    app.on_key_press(arcade.key.ESCAPE, 0)
    app.on_key_press(arcade.key.O, 0)
    frame(app, 2)
    assert app.scene.name == "settings"
    assert not _buttons_fit(app.scene), _buttons_fit(app.scene)
    screenshot(app, shots / f"settings-{lang}.png")


@pytest.mark.parametrize("lang,words", [("en", "Echigo  (brown region)"),
                                        ("nl", "Echigo  (bruine regio)"),
                                        ("ro", "Echigo  (regiunea maro)")])
def test_a_provinces_tooltip_names_its_region_in_the_language(app, lang, words):
    """Issue 37, items 9 and 13: "Echigo (regio brown)", "Kaga (regiunea brown)"."""
    from client.board.board_view import BoardView
    from sim.board import board
    i18n.use(lang)
    try:
        view = BoardView(board(), "sun", 4)
        first = view.tooltip_text("Echigo").split("\n")[0]
        assert first == words
    finally:
        i18n.use("en")


def test_settings_name_the_language_a_lang_run_speaks(app, home, monkeypatch):
    """Issue 37, item 12: with `--lang nl` the settings said "Taal: systeem (English)"
    while every word on screen was Dutch."""
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.use("nl")                                    # what `--lang nl` does
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.O, 0)
    frame(app, 2)
    scene = app.scene
    assert scene.name == "settings"
    label = scene.buttons["language"].label
    assert "Nederlands" in label and "English" not in label, label
