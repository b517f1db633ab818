"""The battle stage's opening beyond the map (issue 48: the stage's moments look finished).
While the camera moves in, the zoomed map's picture does not always reach the window's
edge (at 960x640 the map is narrower than the view): the sea goes on there with the map's
own swell, not as a flat blue slab. Measured in pixels: the bare part of the view has the
waves' many shades, as the map's sea has."""

from __future__ import annotations

import arcade
import numpy as np

from client.tower.stage_repaint import minus
from sim.tower import drop as tower
from tests.client.conftest import frame, paused_bot_table


def _shades(box: tuple[float, float, float, float]) -> int:
    x, y, w, h = (int(round(v)) for v in box)
    img = np.asarray(arcade.get_image(x + 2, y + 2, w - 4, h - 4).convert("RGB"))
    return len(np.unique(img.reshape(-1, 3), axis=0))


def test_the_sea_beyond_the_map_keeps_its_waves_while_the_camera_moves_in(app):
    app.set_size(960, 640)
    app.on_resize(960, 640)
    try:
        scene = paused_bot_table(app, players=4, seed=5)
        rec = tower.drop(tower.EMPTY, {0: 5, 1: 4}, b"opening".ljust(32, b"."), record=True).recording
        assert rec is not None
        dropped = {"event": "TowerDropped", "reason": "battle", "thrown": {"0": 5, "1": 4}}
        rest = [{"event": "BattleResolved", "kind": "attack", "province": "Echigo", "attacker": 0,
                 "defender": 1, "unrest": 0}]
        caption = scene.battle.start(dropped, rest, {})
        scene.tower.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds())
        tv = scene.tower
        n = 0
        while tv.opening < 0.4 and n < 100:
            frame(app)
            n += 1
        assert 0.4 <= tv.opening < 0.6, tv.opening
        opening = tv._opening
        box = tv._box()
        z, offx, offy = opening.board_xf(box)
        assert opening.backdrop is not None and opening.backdrop.rect is not None
        bl, bb, bw, bh = opening.backdrop.rect
        board = (bl * z + offx, bb * z + offy, bw * z, bh * z)
        bare = [b for strip in minus(box, opening.stage_rect(box)) for b in minus(strip, board)
                if b[2] > 40 and b[3] > 40]
        assert bare, "no part of the view beyond the zoomed map at this moment: nothing to look at"
        app.on_draw()
        sea = max(bare, key=lambda b: b[2] * b[3])
        assert _shades(sea) >= 8, f"the sea beyond the map {sea} is one flat colour"
        scene.battle.end()
        app.show_menu()
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
