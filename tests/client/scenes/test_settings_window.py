"""The Settings screen in the window (issue 49 item 7): the volume's minus and plus are
two boxes of their own, one each side of the value, at every window size."""

from __future__ import annotations

import pytest

from tests.client.conftest import frame


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)])
def test_the_volume_has_a_minus_box_a_value_and_a_plus_box(app, home, W, H):
    app.set_size(W, H)
    app.on_resize(W, H)
    try:
        app.show_settings()
        frame(app, 2)
        scene = app.scene
        minus, value, plus = scene.vol_down, scene.buttons["volume"], scene.vol_up
        assert minus.label == "−" and plus.label == "+"
        assert "+" not in value.label and "%" in value.label, value.label
        assert minus.right < value.left and value.right < plus.left       # a row of three
        assert (round(minus.width), round(minus.height)) == (round(plus.width), round(plus.height))
        assert minus.bottom == value.bottom == plus.bottom
        before = app.settings.volume if hasattr(app, "settings") else None
        level = scene.settings.volume
        plus.pressed.emit()
        frame(app)
        assert scene.settings.volume == min(100, level + 10)
        minus.pressed.emit()
        frame(app)
        assert scene.settings.volume == level, before
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
