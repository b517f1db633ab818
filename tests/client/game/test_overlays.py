"""Overlays not in the way (issue 27, item 11), at three window sizes: a province's
tooltip is drawn over every panel and the tower and kept inside the window, its words
inside its box; the guide keeps its words inside its box and never covers a tooltip; a
drag hides the tooltip of where it began and carries the card under the pointer; "Got it"
lasts through Continue."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from client.core.settings import load_settings
from tests.client.conftest import frame
from tests.client.conftest import run_until, to_my_plan

SIZES = [(960, 640), (1280, 800), (1920, 1080)]
TIP_FILL = (45, 35, 30)


@pytest.fixture
def home(app, home):
    """The shared fresh-settings folder (tests/client/conftest.py), and the window back at
    1280x800 afterwards: these tests resize it."""
    yield home
    app.set_size(1280, 800)
    app.on_resize(1280, 800)


def _plan(app, seed: int = 21):
    return to_my_plan(app, seed, bots="easy")


def _resize(app, W, H):
    app.set_size(W, H)
    app.on_resize(W, H)
    frame(app, 2)


def _move(app, x, y):
    s = app.ui_scale
    app.on_mouse_motion(x * s, y * s, 0, 0)


def _pixel(app, x, y):
    s = app.ui_scale
    img = arcade.get_image(int(x * s), int(y * s), 1, 1).convert("RGB")
    return img.getpixel((0, 0))


def _edge_provinces(board):
    """The provinces whose names sit nearest the map's right, bottom and top edges."""
    names = [n for n in board.shapes["provinces"] if n not in board.excluded]
    at = {n: board.province_centre(n) for n in names}
    return {max(names, key=lambda n: at[n][0]), min(names, key=lambda n: at[n][1]),
            max(names, key=lambda n: at[n][1])}


@pytest.mark.parametrize("W,H", SIZES)
def test_a_province_tooltip_is_over_everything_and_inside_the_window(app, home, W, H):
    scene = _plan(app)
    _resize(app, W, H)
    tip = scene.comforts.tooltip
    board = scene.board_view
    for name in sorted(_edge_provinces(board)):
        x, y = board.province_centre(name)
        x, y = x + 2, y + 2
        assert board.province_at(x, y) == name
        _move(app, x, y)
        frame(app, 2)
        assert tip.visible and name in tip.text, f"{W}x{H} {name}: no tooltip over the table"
        l, b, w, h = tip.box
        assert 0 <= l and l + w <= scene.width and 0 <= b and b + h <= scene.height, \
            f"{W}x{H} {name}: tooltip {tip.box} leaves the window"
        t = tip._label.labels["t"]
        assert t.left >= l and t.right <= l + w + 1 and t.bottom >= b - 1 and t.top <= b + h + 1, \
            f"{W}x{H} {name}: its words leave the box"
        # drawn over whatever is beneath: every corner of its box shows the tooltip
        app.on_draw()
        for cx, cy in ((l + 3, b + 3), (l + w - 3, b + 3), (l + 3, b + h - 3), (l + w - 3, b + h - 3)):
            px = _pixel(app, cx, cy)
            assert max(abs(a - c) for a, c in zip(px, TIP_FILL)) <= 12, \
                f"{W}x{H} {name}: something is drawn over the tooltip at {cx:.0f},{cy:.0f}: {px}"


@pytest.mark.parametrize("W,H", SIZES)
def test_the_guide_keeps_its_words_in_its_box_and_under_a_tooltip(app, home, W, H):
    scene = _plan(app, seed=22)
    _resize(app, W, H)
    guide = scene.guide
    assert guide.visible
    g = (guide.left, guide.bottom, guide.right, guide.top)
    assert g[0] >= 0 and g[2] <= scene.width and g[1] >= 0 and g[3] <= scene.height
    frame(app)
    for key, t in guide.texts.labels.items():
        if t.visible and t.text:
            assert t.left >= g[0] and t.right <= g[2] + 1 and t.bottom >= g[1] - 1 \
                and t.top <= g[3] + 1, f"{W}x{H}: guide text {t.text[:30]!r} leaves its box"
    for b in (guide.next_btn, guide.off_btn):
        assert b.right <= g[2] and b.left >= g[0]
    # a province under the guide: its tooltip is drawn over the guide
    board = scene.board_view
    under = [n for n in board.shapes["provinces"] if n not in board.excluded
             and guide.contains(*board.province_centre(n))
             and board.province_at(*board.province_centre(n)) == n]
    if not under:      # the guide keeps off the map now (the test below): nothing to tip
        return
    x, y = board.province_centre(under[0])
    _move(app, x, y)
    frame(app, 2)
    tip = scene.comforts.tooltip
    assert tip.visible
    l, b, w, h = tip.box
    app.on_draw()
    px = _pixel(app, l + 3, b + h - 3)
    assert max(abs(a - c) for a, c in zip(px, TIP_FILL)) <= 12, f"the guide covers the tooltip: {px}"


@pytest.mark.parametrize("W,H", [(960, 640), (1920, 1080)])
def test_the_guide_covers_neither_the_legend_nor_a_province(app, home, W, H):
    """Issue 37, item 12: the guide's note sat on the map's top left, over the legend and
    the provinces its hints talk about."""
    from client.board.map_legend import legend_rect
    scene = _plan(app, seed=22)
    _resize(app, W, H)
    guide = scene.guide
    assert guide.visible
    g = (guide.left, guide.bottom, guide.right, guide.top)
    board = scene.board_view
    left, bottom, width, height = legend_rect(board, board.token_scale())
    assert not _overlap(g, (left, bottom, left + width, bottom + height)), \
        f"{W}x{H}: the guide {g} covers the legend"
    covered = [n for n, poly in board.screen_polys.items()
               if _overlap(g, (min(x for x, _ in poly), min(y for _, y in poly),
                               max(x for x, _ in poly), max(y for _, y in poly)))]
    assert not covered, f"{W}x{H}: the guide {g} covers {covered}"
    assert g[0] >= 0 and g[2] <= scene.width and g[1] >= 0 and g[3] <= scene.height


def _overlap(a, b) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def test_a_drag_hides_the_tooltip_and_carries_the_card(app, home):
    scene = _plan(app, seed=23)
    panel = scene.planning
    card, (cl, cb, cw, ch) = next((c, r) for c, r in panel.card_rects() if isinstance(c, str))
    fl, fb, fw, fh = panel.field_rect(0)
    _move(app, cl + cw / 2, cb + ch / 2)
    frame(app)
    assert scene.comforts.tooltip.visible
    s = app.ui_scale
    app.on_mouse_press((cl + cw / 2) * s, (cb + ch / 2) * s, arcade.MOUSE_BUTTON_LEFT, 0)
    mx, my = fl + fw / 2, fb + fh + 40          # between the fields and the map
    app.on_mouse_drag(mx * s, my * s, 0, 40, arcade.MOUSE_BUTTON_LEFT, 0)
    frame(app)
    assert not scene.comforts.tooltip.visible, "the tooltip of where the drag began stays"
    app.on_draw()
    px = _pixel(app, mx - cw / 2 + 3, my - ch / 2 + 3)   # inside the card's corner
    assert max(abs(a - c) for a, c in zip(px, (255, 170, 80))) <= 30, \
        f"no card under the pointer while dragging: {px}"
    app.on_mouse_drag((fl + fw / 2) * s, (fb + fh / 2) * s, 0, -40, arcade.MOUSE_BUTTON_LEFT, 0)
    app.on_mouse_release((fl + fw / 2) * s, (fb + fh / 2) * s, arcade.MOUSE_BUTTON_LEFT, 0)
    frame(app)
    assert panel.fields["palace"] == card
    assert not scene.comforts.tooltip.visible


def test_got_it_lasts_through_continue(app, home):
    scene = _plan(app, seed=24)
    guide = scene.guide
    assert guide.visible and guide.kind == "plan"
    b = guide.next_btn
    s = app.ui_scale
    app.on_mouse_press((b.left + 3) * s, (b.bottom + 3) * s, arcade.MOUSE_BUTTON_LEFT, 0)
    assert not guide.visible
    assert "plan" in load_settings()[0].guide_seen
    app.on_key_press(arcade.key.ESCAPE, 0)
    app.on_key_press(arcade.key.ENTER, 0)                      # leave (the game is kept)
    frame(app)
    assert app.scene.name == "menu"
    app.on_key_press(arcade.key.C, 0)                          # Continue
    frame(app)
    scene = app.scene
    assert scene.name == "game"
    assert run_until(app, lambda: scene.planning.visible, 30)
    frame(app, 3)
    assert not scene.guide.visible, "the plan's hint is back after Continue"


def test_a_tooltip_belongs_to_what_is_under_the_pointer_now(app, home):
    """Issue 37, item 4: at 960 Suggest's tooltip stayed after the plan was locked, over
    the special-card choices that took the planning panel's place."""
    scene = _plan(app, seed=25)
    _resize(app, 960, 640)
    b = scene.planning.sugg_btn
    _move(app, b.left + b.width / 2, b.top - 3)
    frame(app)
    tip = scene.comforts.tooltip
    assert tip.visible and tip.text.startswith("Fill the fields")
    scene.asker.suggest()
    scene.planning.lock_btn.pressed.emit()               # the pointer stays where it was
    assert run_until(app, lambda: not scene.planning.visible, 30)
    frame(app, 2)
    assert not (tip.visible and tip.text.startswith("Fill the fields")), \
        "Suggest's tooltip outlived the planning panel"


def test_no_tip_of_what_a_banner_covers(app, home):
    """The tower's or a province's tooltip stayed over the result banner shown on top of
    it: under the banner there is no tip of what it covers."""
    scene = _plan(app, seed=26)
    _resize(app, 960, 640)
    scene.banner.show(["Battle in Owari", "The attacker wins"], 30)
    frame(app)
    banner, board = scene.banner, scene.board_view
    under = [n for n in board.shapes["provinces"] if n not in board.excluded
             and banner.contains(*board.province_centre(n))
             and board.province_at(*board.province_centre(n)) == n]
    assert under
    x, y = board.province_centre(under[0])
    scene.banner.visible = False
    _move(app, x, y)
    frame(app)
    tip = scene.comforts.tooltip
    assert tip.visible and under[0] in tip.text
    scene.banner.show(["Battle in Owari", "The attacker wins"], 30)
    frame(app, 2)
    assert not tip.visible, "a province's tip over the banner that covers it"


def test_the_tooltip_is_drawn_over_the_tutorial_card(app, home):
    """The bid field's tooltip was drawn behind the tutorial's card, added to the table
    after the tooltip."""
    from client.tutorial.autoplay import coach_of
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.L, 0)
    frame(app)
    scene = app.scene
    coach = coach_of(scene)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    tip = scene.comforts.tooltip
    assert scene.children.index(tip) > scene.children.index(coach)
    # a tip whose box reaches over the card: drawn over it
    card = coach.card
    l, b, w, h = scene.planning.field_rect(10) if scene.planning.visible else (0, 0, 0, 0)
    tip.show("The highest bid chooses first.", card.left - 20, card.top - 30)
    frame(app)
    bl, bb, bw, bh = tip.box
    assert bl < card.right and card.left < bl + bw and bb < card.top and card.bottom < bb + bh
    app.on_draw()
    for cx, cy in ((bl + 3, bb + 3), (bl + bw - 3, bb + 3), (bl + 3, bb + bh - 3),
                   (bl + bw - 3, bb + bh - 3)):
        px = _pixel(app, cx, cy)
        assert max(abs(a - c) for a, c in zip(px, TIP_FILL)) <= 12, f"covered at {cx},{cy}: {px}"


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_every_hint_of_the_guide_reads_whole_over_the_log_at_960(app, home, lang):
    """In its place over the game log (narrower than it was) each hint is whole, in its
    box, and no word is under 11 px (theme.SMALLEST_TYPE)."""
    from client.core import theme
    from client.game.guide import HINTS
    from lang.i18n import use
    scene = _plan(app, seed=22)
    _resize(app, 960, 640)
    guide = scene.guide
    g = (guide.left, guide.bottom, guide.right, guide.top)
    try:
        use(lang)
        for kind in HINTS:
            guide.kind = kind
            guide.rebuild()
            for key, t in guide.texts.labels.items():
                if not (t.visible and t.text):
                    continue
                assert not t.text.endswith("…"), f"{lang} {kind}: {t.text!r} is cut"
                assert t.font_size >= theme.SMALLEST_TYPE, f"{lang} {kind}: {t.font_size} pt"
                assert t.left >= g[0] and t.right <= g[2] + 1 and t.bottom >= g[1] - 1 \
                    and t.top <= g[3] + 1, f"{lang} {kind}: {t.text[:30]!r} leaves the box"
                if key == "b":
                    assert t.bottom >= guide.next_btn.top, f"{lang} {kind}: over the buttons"
    finally:
        use("en")


def test_a_tooltip_dies_with_its_element_and_none_opens_without_the_mouse(app, home):
    """Issue 49 item 8: the guide's card vanished under the pointer and the log's tooltip
    opened mid-screen over the decision text. A tip belongs to one element (its owner):
    none of what the guide covers, none that opens when an element vanishes under a still
    pointer, and the tip goes when its element goes."""
    scene = _plan(app, seed=22)
    _resize(app, 960, 640)
    guide, tip, log = scene.guide, scene.comforts.tooltip, scene.log
    assert guide.visible
    x, y = guide.left + guide.width / 2, guide.bottom + 6
    assert log.contains(x, y), "the guide is not over the log here"
    _move(app, x, y)
    frame(app, 2)
    assert not tip.visible, f"a tip of what the guide covers: {tip.text[:40]!r}"
    guide.visible = False                      # the card goes; the pointer stays
    frame(app, 3)
    assert not tip.visible, f"a tip opened without the mouse moving: {tip.text[:40]!r}"
    _move(app, x + 1, y)                       # the mouse moves: the log's own tip
    frame(app)
    assert tip.visible and tip.owner is log
    log.visible = False                        # its element goes: the tip with it
    frame(app, 2)
    assert not tip.visible, f"the log's tip outlived the log: {tip.text[:40]!r}"
    log.visible = True
