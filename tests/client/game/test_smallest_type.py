"""No word under 11 px (issue 37, item 11): every label a planning screen draws at the
smallest supported window, 960x640 (ui scale 1, so points are the window's), is at least
`theme.SMALLEST_TYPE` (8.5 pt, 11 px); a map name shortened to get there is named whole
by its tooltip. Larger windows scale the type up, but lay out anew (2560x1440 is about
1420x800 logical points), so the other screens are checked at both ends: the battle
view, the end screen, the lobby, settings, the menu's saves and the save dialog, the
replay's header and the tutorial's cards, in English, Dutch and Romanian."""

from __future__ import annotations

import pytest

from client.core import theme
from client.core.text_cache import TextCache
from tests.client.conftest import frame, to_my_plan

# every node, the tower included (its "tray" word was 8 pt across the tray: issue 37)
NOT_HERE: set[tuple[str, str]] = set()
ENDS = [(960, 640), (2560, 1440)]
LANGS = ["en", "nl", "ro"]


@pytest.fixture
def home(app, home):
    yield home
    app.set_size(1280, 800)
    app.on_resize(1280, 800)


def drawn_labels(root):
    """(node path, key, text, size in points) of every label a shown node draws."""
    out = []

    def walk(node, path):
        if not node.visible:
            return
        path = f"{path}/{node.name or type(node).__name__}"
        for attr, v in vars(node).items():
            if isinstance(v, TextCache):
                out.extend((f"{path}.{attr}", key, t.text, t.font_size)
                           for key, t in v.labels.items() if t.visible and t.text.strip()
                           and (node.name, key) not in NOT_HERE)
        for child in node.children:
            walk(child, path)
    walk(root, "")
    return out


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_no_word_in_the_planning_screen_is_under_11_px_at_960(app, home, lang):
    from lang.i18n import use
    use(lang)
    try:
        scene = to_my_plan(app, seed=22, bots="easy")
        app.set_size(960, 640)
        app.on_resize(960, 640)
        frame(app, 3)
        assert app.ui_scale == 1.0
        labels = drawn_labels(scene)
        assert len(labels) > 100 and any("/board." in p for p, *_ in labels)
        small = sorted({f"{size:g} pt {path} {text[:30]!r}" for path, _k, text, size in labels
                        if size < theme.SMALLEST_TYPE})
        assert not small, f"{lang}: {len(small)} labels under 11 px:\n" + "\n".join(small[:40])
        board = scene.board_view
        for name in board.shapes["provinces"]:
            label = board.texts.labels[("n", name)].text
            if label != name:
                x, y = board.province_centre(name)
                assert board.province_at(x, y) == name         # hovering the name ...
                tip = board.tooltip_text(name)                  # ... shows this, whole
                assert label.endswith(".") and tip.startswith(name), (name, label, tip[:40])
        track = scene.track            # a shortened action card: whole in its tooltip
        for k, short in track.shortened.items():
            if short:
                x, w = track.card_x(k)
                whole = theme.ACTION_SHORT[track.actions[k]]
                tip = track.tooltip_at(x + 3, track.bottom + 12) or ""
                assert tip.startswith(whole), (k, whole, tip)
    finally:
        use("en")



def too_small(root) -> list[str]:
    """The labels a shown tree draws under 11 px, said for the assertion."""
    return sorted({f"{size:g} pt {path} {key!r} {text[:30]!r}"
                   for path, key, text, size in drawn_labels(root)
                   if size < theme.SMALLEST_TYPE})


@pytest.fixture
def sized(app, home):
    """Sets the window's size for a test (and its language by `use`); back after."""
    from lang.i18n import use

    def to(W, H, lang):
        use(lang)
        app.set_size(W, H)
        app.on_resize(W, H)
    yield to
    use("en")


def _check(app, where: str, W: int, H: int, lang: str, root=None) -> None:
    frame(app, 3)
    root = root or app.scene
    labels = drawn_labels(root)
    assert labels, f"{where}: no label drawn"
    small = too_small(root)
    assert not small, f"{where} {W}x{H} {lang}: {len(small)} labels under 11 px:\n" + \
        "\n".join(small[:30])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_in_the_menu_saves_settings_and_save_dialog(app, sized, home, W,
                                                                         H, lang):
    import arcade
    sized(W, H, lang)
    scene = to_my_plan(app, seed=12)
    app.on_key_press(arcade.key.S, arcade.key.MOD_CTRL)     # the save dialog
    _check(app, "save dialog", W, H, lang)
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    assert scene.dialog is None or not scene.dialog.visible
    app.show_menu()                                         # the menu lists the save
    from client.sessions.autosave import named_saves
    assert named_saves()
    _check(app, "menu", W, H, lang)
    app.show_settings()
    _check(app, "settings", W, H, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_in_the_lobby(app, sized, monkeypatch, W, H, lang):
    from tests.client.scenes.test_lobby_window import hosted_lobby
    sized(W, H, lang)
    with hosted_lobby(app, monkeypatch, bots=1):
        _check(app, "lobby", W, H, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_on_the_end_screen(app, sized, W, H, lang):
    from client.scenes.end_record import end_record
    from client.scenes.end_scene import EndScene
    from sim.game import public_state
    from tests.client.scenes.test_end_scene import _game
    sized(W, H, lang)
    state, events = _game(11, 4)
    rec = end_record(events, 4)
    summary = {"players": 4, "labels": {0: "Aiko (Blue)"}, "scores": {}, "money": {},
               "winners": rec.winners, "history": {}}
    app.show(EndScene(summary, rec, dict(public_state(state)), "sun"))
    _check(app, "end screen", W, H, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_in_the_replay_and_its_header(app, sized, tmp_path, W, H, lang):
    import arcade
    import main
    save = tmp_path / "g.save"
    assert main.main(["headless", "--seed", "3", "--quiet", "--save", str(save)]) == 0
    sized(W, H, lang)
    app.replay_log(str(save))
    for _ in range(2):
        app.on_key_press(arcade.key.PAGEDOWN, 0)
    app.on_key_press(arcade.key.SPACE, 0)                   # paused: the longest header
    frame(app, 3)
    assert app.scene.replay_controls is not None
    _check(app, "replay", W, H, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_on_any_tutorial_card(app, sized, W, H, lang):
    from client.tutorial import script
    from client.tutorial.autoplay import coach_of
    sized(W, H, lang)
    scene = app.start_tutorial()
    coach = coach_of(scene)
    for st in script.STEPS:                    # each step's card, as the coach shows it
        coach._show(st)
        _check(app, f"tutorial card {st.key}", W, H, lang)
    app.show_menu()


@pytest.mark.slow            # a bots' game to its first attack, six times (CI runs it)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", ENDS)
def test_no_word_under_11_px_in_the_battle_view(app, sized, W, H, lang):
    from tests.client.tower.test_battle_view import _watch_next_attack
    sized(W, H, lang)
    scene, _battle, _origin = _watch_next_attack(app, seed=5)
    assert scene.battle.active and scene.tower.big
    _check(app, "battle view", W, H, lang)
