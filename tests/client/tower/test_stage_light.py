"""Light and depth on the battle stage (issue 48, item 4): a soft shadow under each cube,
away from the light (the top left); the stage's lamplight, warm over the tower and dark at
the corners, laid once into the stage's cached picture (a frame does not draw it); the
cubes, their glows and shadows stay under the window's top bar through a whole battle.
Measured in pixels drawn by the window (Mesa llvmpipe under Xvfb) and in the stage's
model."""

from __future__ import annotations

import arcade
import pytest

from client.tower import tower_art as art
from client.tower import stage_layout as layout
from client.tower.cube_sprites import SHADOW, SHADOW_SIZE
from client.tower.cube_textures import shadow
from client.tower.tower_view import TowerView
from sim.tower import drop as tower
from sim.tower.drop import Recording

from tests.client.tower.test_cubes import _still


def _lum(img) -> float:
    g = img.convert("L")
    data = list(g.getdata())
    return sum(data) / len(data)


def _stage(w: float = 1280, h: float = 766) -> TowerView:
    tv = TowerView(tower.GEOMETRY)
    tv.set_rect(0, 0, w, h)
    tv.set_big(True)
    return tv


def test_a_resting_cube_casts_a_soft_shadow_down_and_right(app):
    tv = _stage()
    tv.play(_still(3, 0.0), "")
    x, y = tv.to_screen(60.0, 170.0)
    size = tv._xf()[0] * tower.GEOMETRY["cube"]
    band = int(size * 0.22)
    # just outside the cube's lower right edge (its shadow) and upper left edge (the light)
    below = (int(x + size / 2), int(y - size / 2 - band), band, band)
    above = (int(x - size / 2 - band), int(y + size / 2), band, band)

    def measure() -> tuple[float, float]:
        app.clear()
        tv.draw()
        return _lum(arcade.get_image(*below)), _lum(arcade.get_image(*above))

    lit = measure()
    halos = [sp for sp in tv.cubes.sprites if sp.visible and sp.texture is shadow()]
    assert len(halos) == 1, "one shadow under the one cube"
    for sp in halos:
        sp.visible = False
    bare = measure()
    assert lit[0] < bare[0] * 0.85, f"the shadow darkens the wall below right: {lit[0]:.0f} vs {bare[0]:.0f}"
    assert abs(lit[1] - bare[1]) < 2, "no shadow on the lit side (top left)"
    assert SHADOW * size >= 2, "the shadow shows beside the cube, not only under it"


def _stage_pixels(app, monkeypatch, light: bool):
    if not light:
        monkeypatch.setattr(art, "draw_stage_light", lambda rect: None)
    tv = _stage()
    tv.play(_still(3, 0.0), "")
    app.clear()
    tv.draw()
    img = arcade.get_image(0, 0, 1280, 766).convert("RGB")
    monkeypatch.undo()
    return tv, img


def test_the_stage_is_lit_warm_in_the_middle_and_dark_at_its_corners(app, monkeypatch):
    tv, lit = _stage_pixels(app, monkeypatch, True)
    _tv, bare = _stage_pixels(app, monkeypatch, False)
    corner = (0, 766 - 60, 60, 766)     # PIL's box: left, upper, right, lower (the bottom left)
    middle = (560, 300, 720, 460)
    dark = _lum(lit.crop(corner)) / max(1.0, _lum(bare.crop(corner)))
    assert dark < 0.8, f"the corner is {dark:.2f} of its light without the lamp"

    def warmth(img) -> float:
        r, _g, b = (sum(c) / len(c) for c in zip(*img.crop(middle).getdata()))
        return r - b

    assert warmth(lit) > warmth(bare) + 3, "the light over the tower is warm"
    assert _lum(lit.crop(middle)) >= _lum(bare.crop(middle)) * 0.97, "the middle is not darkened"


def test_the_light_is_drawn_into_the_cached_picture_not_each_frame(app, monkeypatch):
    calls = []
    real = art.draw_stage_light
    monkeypatch.setattr(art, "draw_stage_light", lambda rect: (calls.append(rect), real(rect)))
    res = tower.drop(tower.EMPTY, {0: 6, 1: 5}, b"light".ljust(32, b"."), record=True)
    assert res.recording is not None
    tv = _stage()
    tv.play(res.recording, "", (0, 1))
    for _ in range(60):
        tv.on_update(1 / 60)
        tv.draw()
    assert len(calls) == 1, f"the lamp drawn {len(calls)} times in 60 frames"


@pytest.mark.parametrize("size", [(960, 606), (2560, 1406)])
def test_cubes_their_glows_and_shadows_stay_under_the_top_bar(size):
    """Issue 48: cubes waiting for the pour were drawn over the top bar. Every cube of a
    big battle, its glow or shadow included, from the handful to the climax, lies in the
    stage (whose top is the top bar's bottom)."""
    res = tower.drop(tower.EMPTY, {0: 16, 1: 14, 5: 4}, b"top-bar".ljust(32, b"."), record=True)
    rec: Recording | None = res.recording
    assert rec is not None
    tv = _stage(*size)
    tv.play(rec, "", (0, 1), handful=1.2)
    seen = 0
    while tv.playing and seen < 4000:
        tv.on_update(1 / 60)
        seen += 1
        for p in tv.cubes.shown:
            reach = p.size * (1.7 if p.thrown else SHADOW_SIZE) / 2 + (0 if p.thrown else p.size * SHADOW)
            assert p.y + reach <= tv.top + 0.5, \
                f"a cube's top at {p.y + reach:.0f} over the stage's {tv.top:.0f} ({tv.stage})"
    assert seen > 100


def test_the_stages_first_frame_copies_the_tower_drawn_at_layout(app, monkeypatch):
    """Issue 48: the stage's first frame drew the table and the tower (and made a
    framebuffer for the stage's picture) in one 67-159 ms frame. The scene draws them at
    its layout (`prepare_stage`); the first frame only copies them, and the stage's
    picture keeps its framebuffer from one battle to the next."""
    tv = TowerView(tower.GEOMETRY)
    tv.set_rect(900, 0, 380, 766)                   # the tower in its column
    tv.draw()
    tv.prepare_stage((0, 0, 1280, 766))             # the scene's layout, the stage closed
    calls = []
    monkeypatch.setattr(art, "draw_tower", lambda *a, **k: calls.append(a))
    res = tower.drop(tower.EMPTY, {0: 3, 1: 3}, b"first".ljust(32, b"."), record=True)
    assert res.recording is not None
    surfaces = []
    for _battle in range(2):
        tv.set_rect(0, 0, 1280, 766)
        tv.set_big(True)
        tv.play(res.recording, "", (0, 1))
        tv.draw()
        surfaces.append(tv._layer.surface)
        tv.skip()
        tv.skip()
        tv.set_big(False)
        tv.set_rect(900, 0, 380, 766)
        tv.draw()
    assert len(calls) == 0, f"the tower drawn {len(calls)} times in two battles: the column's " \
        "picture of it was drawn before them, at its place"
    assert surfaces[0] is surfaces[1], "the stage's picture keeps its framebuffer"


def test_the_columns_tower_is_drawn_once_per_place_not_at_each_change(app, monkeypatch):
    """Issue 48 (a game's frames): the column's picture is drawn again whenever its
    counts or tray change and as a battle's stage closes, and each time it drew the
    tower's ~300 shapes (20-35 ms on llvmpipe). The tower is drawn once per place and
    resolution; the column's picture copies it."""
    tv = TowerView(tower.GEOMETRY)
    calls = []
    real = art.draw_tower
    monkeypatch.setattr(art, "draw_tower", lambda *a, **k: (calls.append(a), real(*a, **k)))
    tv.set_rect(900, 0, 380, 766)
    for n in range(3):                # the tray's cubes change three times: drawn again
        tv.set_tray({"0": n + 1})
        tv.mark_dirty()                 # as its counts do (`show_contents`)
        tv.draw()
    assert len(calls) == 1, f"the column's tower drawn {len(calls)} times for three changes"
    tv.set_rect(880, 0, 400, 766)                   # another place: drawn there once
    tv.draw()
    tv.draw()
    assert len(calls) == 2


def test_the_opening_shows_the_sea_beyond_a_narrow_map_not_the_tables_colour(app):
    """Issue 48 (screenshots): while the camera moves in, a map narrower than the window
    (1280x800: the map is about 530 px wide) left the rest of the view in the table's
    beige, as if the window were unfinished; it is the map's sea there now."""
    from client.core import theme
    from client.core.cached_layer import CachedLayer
    board = CachedLayer()
    board.render((0, 150, 530, 616), lambda: arcade.draw_lbwh_rectangle_filled(0, 150, 530, 616, (40, 120, 40)))
    res = tower.drop(tower.EMPTY, {0: 3, 1: 3}, b"open".ljust(32, b"."), record=True)
    assert res.recording is not None
    tv = _stage()
    tv.play(res.recording, "", (0, 1), handful=1.0)
    tv.open_from((300.0, 400.0), board)
    while tv.opening < 0.4:
        tv.on_update(1 / 60)
    app.clear()
    tv.draw()
    right = arcade.get_image(1240, 700, 30, 30).convert("RGB")
    colours = set(right.getdata())
    assert tuple(theme.BG[:3]) not in colours, "the table's colour beyond the map"
    assert colours == {tuple(theme.SEA[:3])}, colours


def test_the_stage_roofs_slanted_edge_is_blended_not_a_stair_of_whole_pixels(app):
    """Issue 48 (screenshots): the great roof's upturned eave, a long shallow slope, was a
    stair of whole pixels (the stage's picture is drawn once offscreen; the window is not
    multisampled). Along the slope, read back from the stage's picture as a battle would
    show it, each column has a pixel between the roof's slate and the room's brown."""
    box = (0.0, 0.0, 1280.0, 766.0)
    tv = TowerView(tower.GEOMETRY)
    tv.prepare_stage(box)
    while not tv.prepare_sides(box, None):
        pass
    surface = tv._layers[True].surface
    assert surface is not None
    img = surface.to_image().convert("RGB")
    k = surface.pixel_ratio
    s, ox, oy = layout.tower_xf(tower.GEOMETRY, box, True)
    x0, y = -art.LEFT + 4, float(tower.GEOMETRY["top"]) + 4       # `_roof`'s great roof
    (ax, ay), (bx, by) = (x0 - 2, y + 12), (x0 + 14 * 1.6, y + 14)  # its tip to its top
    columns = blended = 0
    for i in range(5, 96):
        ux, uy = ax + (bx - ax) * i / 100, ay + (by - ay) * i / 100
        col = int((ox + ux * s - box[0]) * k)
        row = int(img.height - (oy + uy * s - box[1]) * k)
        sky, roof = img.getpixel((col, row - 5)), img.getpixel((col, row + 5))
        span = sum((a - b) ** 2 for a, b in zip(sky, roof))
        assert span > 600, f"no edge at column {col}: {sky} above, {roof} below"
        ts = [sum((p - b) * (a - b) for p, a, b in zip(img.getpixel((col, r)), sky, roof)) / span
              for r in range(row - 3, row + 4)]
        columns += 1
        blended += any(0.15 < t < 0.85 for t in ts)
    assert blended >= columns * 0.6, f"{blended} of {columns} columns blend the roof's edge"
