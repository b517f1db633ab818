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


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)])
def test_no_label_or_hint_runs_into_another(app, home, lang, W, H):
    """Issue 49 (the first-hour screenshots): at 960x640 each row's small hint ("getoond
    bij je plaats aan tafel") ran into the next row's label ("Taal"). Measured by the drawn
    texts' extents (their line boxes): no label or hint overlaps another row's, and each
stays left of the boxes."""
    from lang import i18n
    app.set_size(W, H)
    app.on_resize(W, H)
    i18n.use(lang)
    try:
        app.show_settings()
        frame(app, 2)
        scene = app.scene
        texts = [(k[1], t) for k, t in scene.texts.labels.items()
                 if isinstance(k, tuple) and k[0] in ("l", "h") and t.visible and t.text]
        assert len(texts) > 20
        for i, (row_a, a) in enumerate(texts):
            for row_b, b in texts[i + 1:]:
                if row_a == row_b:
                    continue            # a row's label and its own hint: one above the other
                apart = a.right <= b.left or b.right <= a.left or a.top <= b.bottom or b.top <= a.bottom
                assert apart, f"{W}x{H} {lang}: {a.text!r} runs into {b.text!r}"
            assert a.right <= scene.width / 2 + 10 and a.left >= 0, a.text
    finally:
        i18n.use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
