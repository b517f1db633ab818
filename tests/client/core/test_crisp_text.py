"""Crisp text at every interface scale (issue 27, item 8): at the automatic scale of a
1920x1080 window (1.35) a label is drawn as if it had been set at 1.35 times its size on
an unscaled window (glyphs rasterised at the shown size), not as small glyphs stretched;
and it still measures in the logical pixels the layout works in."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from client.core.text_cache import TextCache
from client.core.ui_scale import install

SCALE = 1.35
TEXT = "Shogun Awa-Shikoku 1234 ăîșț"


def _draw(app, scale: float, size: float, x: float, y: float) -> tuple[np.ndarray, tuple]:
    old = app.ui_scale
    app.ui_scale = scale
    install(app, scale)
    try:
        texts = TextCache()
        texts.begin()
        t = texts.put("t", TEXT, x, y, size=size, color=(0, 0, 0, 255))
        texts.end()
        app.ctx.screen.use()
        app.clear(color=(255, 255, 255, 255))
        texts.draw()
        img = np.asarray(arcade.get_image(0, 0, 700, 120).convert("L"), dtype=float)
        return img, (t.content_width, t.content_height, t.left, t.right)
    finally:
        app.ui_scale = old
        install(app, old)


@pytest.fixture
def window(app):
    app.set_size(1280, 800)
    yield app


def test_scaled_text_looks_like_text_set_at_the_shown_size(window):
    scaled, (w, h, left, right) = _draw(window, SCALE, 16, 20, 40)
    native, (nw, nh, _, _) = _draw(window, 1.0, 16 * SCALE, 20 * SCALE, 40 * SCALE)
    ink = (native < 250).sum()
    assert ink > 500
    diff = np.abs(scaled - native)
    # stretched glyphs differ from native ones all along every edge
    assert diff.mean() < 1.0, f"mean difference {diff.mean():.2f} per pixel"
    assert (diff > 64).sum() < ink * 0.02, f"{(diff > 64).sum()} of {ink} inked pixels differ"
    # the layout still measures in logical pixels
    assert abs(w * SCALE - nw) <= 2 and abs(h * SCALE - nh) <= 2
    assert left == pytest.approx(20) and right == pytest.approx(20 + w)


def test_a_wrapped_label_wraps_at_its_logical_width(window):
    window.ui_scale = SCALE
    install(window, SCALE)
    try:
        texts = TextCache()
        texts.begin()
        t = texts.put("w", "one two three four five six seven eight nine ten", 0, 100,
                      size=12, width=120, multiline=True)
        assert t.width == pytest.approx(120, abs=1)
        assert t.content_width <= 121
        assert t.content_height > 30          # wrapped onto several lines
    finally:
        window.ui_scale = 1.0
        install(window, 1.0)
