"""The tower-only repaint also under an interface scale (issue 28 item 4's frame budget at
1920x1080, where the automatic scale is 1.35): a frame that repaints only the animated
tower shows, inside the tower's rectangle, exactly what a whole repaint shows."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from tests.client.conftest import frame, run_until
from client.sessions.local_choice import LocalChoice


@pytest.mark.parametrize("W,H", [(1920, 1080), (1280, 800)])
def test_a_partial_frame_equals_a_full_one_under_the_scale(app, W, H):
    from client.core.damage import damage
    from sim.tower import drop as tower
    if not app.partial_redraw:
        pytest.skip("this renderer repaints everything (no partial redraw)")
    scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
    try:
        assert run_until(app, lambda: scene.planning.visible, 60)
        app.set_size(W, H)
        app.on_resize(W, H)
        frame(app, 3)
        scene.paused = True
        res = tower.drop(tower.EMPTY, {0: 8, 1: 8, 5: 8}, b"partial-redraw".ljust(32, b"."),
                         record=True)
        scene.tower.play(res.recording, "test drop")
        damage()                  # as the event that starts a real drop does
        frame(app, 3)
        before = app.partial_frames
        for _ in range(12):
            app.on_update(1 / 60)
            app.on_draw()
            app.flip()
        assert app.partial_frames > before, f"no tower-only frames at scale {app.ui_scale:g}"
        app.on_update(1 / 60)
        n = app.partial_frames
        app.on_draw()
        assert app.partial_frames == n + 1
        partial = np.asarray(arcade.get_image(0, 0, W, H).convert("RGB"), dtype=int)
        app._force_full = True
        app.on_draw()
        full = np.asarray(arcade.get_image(0, 0, W, H).convert("RGB"), dtype=int)
        # inside the rectangle the partial frame repaints (in window pixels)
        sc = app.ui_scale
        l, b, w, h = scene.tower.damage_rect()
        x0, x1 = int(l * sc) + 2, int((l + w) * sc) - 2
        y0, y1 = H - int((b + h) * sc) + 2, H - int(b * sc) - 2
        diff = np.abs(partial - full).max(axis=2)[y0:y1, x0:x1]
        assert diff.size > 10000
        assert (diff > 40).sum() < 50, f"{(diff > 40).sum()} pixels differ at scale {sc:g}"
    finally:
        app.show_menu()
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
