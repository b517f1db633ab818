"""What the tutorial's window tests share (tests/client/tutorial/test_tutorial_*.py): a
tutorial started in the window and walked to a step, the window resized, and the
measures of a card against what it must not cover."""

from __future__ import annotations

import arcade

from client.core.settings import SPEEDS
from client.tutorial.autoplay import coach_of, step_on
from tests.client.conftest import frame, run_until


def _resize(app, w: int, h: int) -> None:
    app.set_size(w, h)
    app.on_resize(w, h)
    frame(app, 2)


def _start(app):
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.L, 0)                  # Learn to play
    frame(app)
    scene = app.scene
    assert scene.name == "game"
    return scene, coach_of(scene)


def _walk_to(app, scene, coach, key: str, seconds: float) -> bool:
    """Play as the script's player until step `key` is on show."""
    def there() -> bool:
        st = coach.progress.current
        if st is not None and st.key == key:
            return True
        step_on(scene)
        return False
    return run_until(app, there, seconds, dt=0.1)     # 10 frames a game second


def _inside(rect, w, h) -> bool:
    left, bottom, width, height = rect
    return left >= 0 and bottom >= 0 and left + width <= w + 0.5 and bottom + height <= h + 0.5


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _at_the_plan_step(app, w: int, h: int):
    """A tutorial started in a w x h window and walked to its plan step (its card shown)."""
    _resize(app, w, h)
    scene, coach = _start(app)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    coach.next()                                        # board -> plan
    frame(app, 2)
    assert coach.progress.current.key == "plan"
    return scene, coach


BUTTON_WORDS = ("Next move", "Play on", "Show me", "Skip tutorial", "Leave tutorial")


def _stage_rects(scene):
    """The tower (its shaft, handful and tray) and each side's tray with its count,
    measured from the stage's own layout."""
    from client.tower.stage_layout import shaft_rect
    t = scene.tower
    shaft = shaft_rect(t.geo, (t.left, t.bottom, t.width, t.height), True)
    return [tuple(float(v) for v in shaft), *t.tray_boxes()]


def _poly_box(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _cut_lines(card, panels):
    """The text lines of `panels` that the card's top edge runs through (their top
    pixels peeking out)."""
    return [(n.name, t.text) for n in panels for t in n.texts.labels.values()
            if t.visible and t.text.strip() and t.right > card.left and t.left < card.right
            and t.bottom + 1 < card.top < t.top - 1]


def _rect(n):
    return (n.left, n.bottom, n.width, n.height)


def _half_covered(card, panels):
    """The text lines of `panels` the card covers in part (any edge of it running
    through them: a line's top half, a field's name peeking out at its end)."""
    out = []
    for n in panels:
        if not n.visible:
            continue
        for t in n.texts.labels.values():
            if not (t.visible and t.text.strip()):
                continue
            box = (t.left, t.bottom, t.right - t.left, t.top - t.bottom)
            inside = card.left - 1 <= t.left and t.right <= card.right + 1 and \
                card.bottom - 1 <= t.bottom and t.top <= card.top + 1
            if _overlap(_rect(card), box) and not inside:
                out.append((n.name, t.text))
    return out


def _card_words_whole(card, where: str) -> None:
    """The card's words: none cut ("…"), none under 11 px, each line inside the card."""
    from client.core import theme
    shown = {k: t for k, t in card.texts.labels.items() if t.visible and t.text.strip()}
    assert shown["b"].text == card.body, f"{where}: the words are cut: {shown['b'].text[-40:]!r}"
    assert shown["k"].text == card.task_line(), f"{where}: {shown['k'].text!r}"
    for k, t in shown.items():
        assert not t.text.endswith("…"), (where, t.text)
        assert t.font_size >= theme.SMALLEST_TYPE, (where, k, t.text[:30], t.font_size)
        assert card.bottom - 0.5 <= t.bottom and t.top <= card.top + 0.5, (where, k, t.text[:30])


SIZES = [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)]


def _each_size_and_language(app, coach, check) -> None:
    """`check(where)` with the step on show at each size in en/nl/ro (its card shown
    again in each language, as it would be)."""
    from lang.i18n import use
    st = coach.progress.current
    try:
        for lang in ("en", "nl", "ro"):
            use(lang)
            for w, h in SIZES:
                if (app.width, app.height) != (w, h):     # the first: as the walk left it
                    _resize(app, w, h)
                coach._show(st, coach.shown_by)
                frame(app, 3)
                check(f"{st.key} {w}x{h} {lang}")
    finally:
        use("en")


def _walked_at_full_speed(app, key: str, seconds: float):
    """The tutorial started at 960x640, the bots at the fastest pace, walked to step `key`."""
    _resize(app, 960, 640)
    scene, coach = _start(app)
    scene.speed_idx = len(SPEEDS) - 1
    assert _walk_to(app, scene, coach, key, seconds), key
    frame(app, 3)
    return scene, coach


def _clear_of_the_panels(scene, card, panels, where: str) -> None:
    """The card off the players panel, cutting no panel's line at its edge, covering the
    track and the info panel whole or not at all, its own words whole."""
    assert not _overlap(_rect(card), _rect(scene.players)), (where, "the players panel")
    assert not _cut_lines(card, panels), (where, _cut_lines(card, panels))
    assert not _half_covered(card, (scene.track, scene.info)), (
        where, _half_covered(card, (scene.track, scene.info)))
    _card_words_whole(card, where)


def _point_in(point, rect) -> bool:
    x, y = point
    return rect[0] <= x <= rect[0] + rect[2] and rect[1] <= y <= rect[1] + rect[3]
