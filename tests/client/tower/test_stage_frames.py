"""The battle stage's frames (issue 36 items 2-4 and 6): a software renderer's cost is the
pixels a frame fills, so the frames that used to repaint the whole stage now repaint
their own small rectangles: a cube landing repaints the shaft and the two counts, the
handful repaints the tiles its cubes cross; the opening is a camera move (the stage grows
as a picture, its proportions kept, out of the zoomed board) drawn without whole-window
frames. The result card is opaque; the side panels show the cubes each side threw in
their middle.

Counted in rectangles and frames, never in milliseconds (benchmarks/bench_client.py
times them)."""

from __future__ import annotations

from typing import cast

import arcade
import pytest

from client.tower.stage_sides import SideFacts, stage_sides
from client.tower.stage_trays import count_width
from client.tower.tower_view import TowerView
from sim.events import BattleResolved, TowerDropped
from sim.tower import drop as tower
from tests.client.conftest import count_calls, frame, paused_bot_table

W, H = 1280, 766


def _stage(handful: float = 0.9) -> TowerView:
    rec = tower.drop(tower.EMPTY, {0: 8, 1: 6, 5: 2}, b"stage-frames".ljust(32, b"."), record=True).recording
    assert rec is not None
    tv = TowerView(tower.GEOMETRY)
    tv.set_rect(0, 0, W, H)
    tv.set_big(True)
    dropped = {"event": "TowerDropped", "reason": "battle", "thrown": {"0": 8, "1": 6, "peasant": 2}}
    battle = {"event": "BattleResolved", "kind": "attack", "province": "Mikawa", "attacker": 0,
              "defender": 1, "attack_card": 1, "unrest": 0}
    tv.sides = stage_sides(cast(TowerDropped, dropped), cast(BattleResolved, battle), "Totomi", {}, {})
    tv.play(rec, "", (0, 1), handful=handful)
    return tv


def _quiet_table(app, thrown: dict[int, int], seed: bytes):
    """A 3-player game's table, paused and without a card over it, and a recorded drop of
    `thrown` cubes (colour code -> count) with the battle's events (Blue attacks Suruga
    from Kai): the scene, the recording, the TowerDropped event and the rest of the batch."""
    scene = paused_bot_table(app, players=3, seed=3)   # no card over the stage (each
    # frame would be whole: not this test's)
    rec = tower.drop(tower.EMPTY, thrown, seed.ljust(32, b"."), record=True).recording
    assert rec is not None
    dropped = {"event": "TowerDropped", "reason": "battle",
               "thrown": {("peasant" if c == 5 else str(c)): n for c, n in thrown.items()}}
    rest = [{"event": "BattleResolved", "kind": "attack", "province": "Suruga", "attacker": 0,
             "defender": 1, "unrest": 0},
            {"event": "ActionDone", "province": "Kai", "attacked": "Suruga"}]
    return scene, rec, dropped, rest


def _area(rects) -> int:
    return sum(w * h for _x, _y, w, h in rects)


def _inside(point: tuple[float, float], rects) -> bool:
    px, py = point
    return any(x <= px <= x + w and y <= py <= y + h for x, y, w, h in rects)


def test_a_cube_landing_repaints_the_counts_not_the_whole_stage():
    tv = _stage(handful=0.0)
    landings = 0
    for _ in range(3000):
        before = tv.landed
        tv.on_update(1 / 60)
        if not tv.playing:
            break
        if tv.landed != before:
            landings += 1
            rects = tv.damage_rects()
            for x, y, w, h in tv.tray_boxes():    # both counts (each side's tray, issue 48)
                cw = count_width((x, y, w, h), tv.type_scale())
                assert _inside((x + 2, y + 2), rects) and _inside((x + cw - 2, y + h - 2), rects)
            for p in tv.cubes.shown:              # and the cubes that just arrived in them
                if p.moving:
                    assert _inside((p.x, p.y), rects), p
            assert _area(rects) < 0.5 * W * H, f"{_area(rects) / (W * H):.0%} of the stage repainted"
    assert landings >= 5


def test_the_tally_and_climax_repaint_the_stage_once_then_nothing():
    """Issue 48: nothing moves while the tally and the climax hold, so after the climax's
    whole stage (its sides lit and dimmed, its banner) has been drawn, a frame repaints
    nothing (it repainted the whole stage every frame of the 2.2 s climax)."""
    from client.tower.stage_climax import verdict
    tv = _stage(handful=0.0)
    tv.verdict = verdict({"event": "BattleResolved", "kind": "attack", "province": "Mikawa",
                          "attacker": 0, "defender": 1, "unrest": 0, "result": "attacker",
                          "attacker_count": 5, "defender_count": 3, "survivors": 2})
    assert tv.drop is not None
    tv.play(tv.drop.rec, "", (0, 1), handful=0.0)        # again, with its climax
    stages: dict[str, list[int]] = {}
    for _ in range(3000):
        tv.on_update(1 / 60)
        if not tv.playing:
            break
        stages.setdefault(tv.stage, []).append(_area(tv.damage_rects()))
    climax, tally = stages.get("climax", []), stages.get("tally", [])
    assert len(climax) > 60 and len(tally) > 20
    assert climax[0] >= W * H, "the climax's first frame: the whole stage"
    assert sum(1 for a in climax if a) <= 3, f"{sum(1 for a in climax if a)} climax frames repaint"
    assert sum(1 for a in tally if a) <= 3, f"{sum(1 for a in tally if a)} tally frames repaint"


def test_the_handful_repaints_only_the_tiles_its_cubes_cross():
    tv = _stage()
    seen = 0
    last: set[tuple[float, float]] = set()
    while tv.playing and tv.stage in ("handful", ""):
        tv.on_update(1 / 60)
        rects = tv.damage_rects()
        now = {(p.x, p.y) for p in tv.cubes.shown if p.thrown and p.y <= H}   # in the view
        if tv.stage == "handful":
            seen += 1
            # where each cube that moved is, and where it was (one that stays where it was
            # is not repainted: issue 48, the shaft is no longer repainted whole)
            for point in now ^ last:
                assert _inside(point, rects), point
            assert _area(rects) < 0.6 * W * H, f"{_area(rects) / (W * H):.0%} of the stage repainted"
        last = now
    assert seen > 20


def test_the_opening_grows_the_stage_as_a_picture_out_of_the_province():
    """A camera move, not a window opening: the stage keeps its proportions as it grows
    (scaled, not cropped), from a small picture near the province to the whole view."""
    tv = _stage()
    tv.open_from((300.0, 300.0))
    sizes = []
    while tv.opening < 1.0:
        left, bottom, w, h = tv.opening_rect()
        sizes.append(w)
        assert w / h == pytest.approx(W / H, rel=0.02), "the stage is scaled, not cropped"
        assert tv.left <= left and left + w <= tv.right + 0.01
        tv.on_update(1 / 60)
    assert sizes[0] < 0.15 * W and sizes == sorted(sizes)
    assert 0.4 <= len(sizes) / 60 <= 0.6, "the move takes 0.4 to 0.6 s"
    assert tv.opening_rect() == (tv.left, tv.bottom, tv.width, tv.height)


def test_the_opening_draws_no_whole_window_frames(app):
    """The camera move repaints the stage (its pixels once), not the window: on a software
    renderer the window's partial redraw stays on through it."""
    if not app.partial_redraw:
        pytest.skip("the window repaints everything on this renderer")
    scene, rec, dropped, rest = _quiet_table(app, {0: 5, 1: 4}, b"opening")
    caption = scene.battle.start(dropped, rest, {})
    scene.tower.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds())
    assert scene.tower.opening < 1.0
    frame(app, 2)                                 # the layout's change: the whole window
    full = app.full_frames
    n = 0
    while scene.tower.opening < 1.0 and n < 100:
        frame(app)
        n += 1
    assert n >= 10 and app.full_frames == full, f"{app.full_frames - full} whole-window frames"
    scene.battle.end()
    app.show_menu()


def test_the_result_card_is_opaque(app):
    """Readable over any province: what lies under the card does not show through."""
    from client.game.table_messages import Banner
    app.show_menu()
    banner = Banner()
    banner.set_rect(100, 100, 300, 120)
    banner.show(["Attack on Mikawa", "Blue wins"], colour=(60, 40, 30))
    seen = []
    for under in ((220, 30, 30), (30, 200, 60)):
        app.clear()
        arcade.draw_lbwh_rectangle_filled(0, 0, 600, 400, under)
        banner.draw()
        seen.append(arcade.get_image(110, 106, 1, 1).convert("RGB").getpixel((0, 0)))
    app._force_full = True
    assert seen[0] == seen[1], f"the card shows what is under it: {seen}"
    assert seen[0] == (60, 40, 30), "the card's own colour (inside it, under no text)"


@pytest.mark.parametrize("box", [(20, 200, 230, 90), (30, 220, 330, 230), (40, 230, 420, 300)])
def test_a_panel_shows_the_cubes_its_side_threw_in_its_middle(box):
    """Item 4: the panel's middle (empty at large sizes) holds the side's thrown cubes, its
    own then what cards and tray added, as large as fit, inside the box, apart."""
    from client.tower.stage_sides import handful_places
    f = SideFacts(0, "Anna (Blue)", "Attacker", "from Totomi", 7, 9, ("+1 from the attack card",))
    places = handful_places(f, box, 1.0)
    left, bottom, width, height = box
    assert len(places) == f.thrown and {p[0] for p in places} == {0}
    for _c, x, y, size in places:
        assert size >= 9
        assert left <= x - size / 2 and x + size / 2 <= left + width
        assert bottom <= y - size / 2 and y + size / 2 <= bottom + height
    for a in places:
        for b in places:
            if a is not b:
                assert abs(a[1] - b[1]) >= a[3] or abs(a[2] - b[2]) >= a[3], "cubes apart"
    own, added = places[f.committed - 1], places[f.committed]
    assert own[2] != added[2] or added[1] - own[1] > 2 * own[3], "a gap before the added cubes"
    assert handful_places(f, (0, 0, 40, 5), 1.0) == [], "no room: none drawn"


def test_the_handful_leaves_from_the_cubes_its_panel_shows(app):
    """Gathered where it comes from: each side's own thrown cubes start on the cubes its
    panel draws (not at scattered spots of the panel)."""
    tv = _stage()
    app.clear()
    tv.draw()                                     # the panels, and their cubes, drawn
    app._force_full = True
    d = tv.drop
    assert d is not None and tv.sides is not None
    s, ox, oy = tv._xf()
    starts = {(round(ox + x * s), round(oy + y * s)) for x, y in d.origins.values()}
    for f, key in zip(tv.sides, ("a", "d")):
        drawn = {(round(x), round(y)) for code, x, y, _size in tv._icons[key] if code == f.code}
        assert len(drawn) == f.thrown
        assert len(drawn & starts) >= f.committed, f"{key}: the cubes leave from elsewhere"


def test_a_pour_frame_draws_the_stage_once_over_its_rectangles(app):
    """Issue 48 item 1: a frame of the pour repaints several rectangles (the shaft, the
    counts, the tiles of cubes tossed into the trays); the stage was drawn once per
    rectangle (about 1.7 draws a frame, 10-17 ms on llvmpipe), now once over their union,
    touching no pixel outside them: after the pour's partial frames the window is what a
    whole repaint of the same moment draws."""
    if not app.partial_redraw:
        pytest.skip("the window repaints everything on this renderer")
    import numpy as np
    scene, rec, dropped, rest = _quiet_table(app, {0: 9, 1: 8, 5: 3}, b"one-draw")
    caption = scene.battle.start(dropped, rest, {"peasant": 1})
    tv = scene.tower
    tv.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds(), scene.battle.from_tray)
    draws = count_calls(tv, "draw")
    several = 0
    n = 0
    compared: list[float] = []
    counted_at = -1
    x, y, w, h = (int(v) for v in (tv.left, tv.bottom, tv.width, tv.height))

    def differs() -> float:
        parts = np.asarray(arcade.get_image(x, y, w, h).convert("RGB"), dtype=np.int16)
        app._force_full = True
        app.on_draw()
        whole = np.asarray(arcade.get_image(x, y, w, h).convert("RGB"), dtype=np.int16)
        return float((np.abs(parts - whole).max(axis=2) > 8).mean())
    while tv.playing and tv.stage != "tally" and n < 900:
        app.dispatch_events()
        app.on_update(1 / 60)
        pour = tv.stage == "pour" and tv.opening >= 1.0
        rects = len(tv.damage_rects())
        partial, draws[0] = app.partial_frames, 0
        app.on_draw()
        if pour and app.partial_frames != partial:
            # a frame where no cube moved repaints nothing (the shaft is repainted only
            # where cubes move)
            assert draws[0] == min(1, rects), f"the stage drawn {draws[0]} times in a frame of {rects} rectangles"
            several += rects > 1
            if several % 60 == 40 and rects > 1 and counted_at != several:
                # this frame, drawn in parts over the ones before, against a whole repaint
                compared.append(differs())
                counted_at = several
        app.flip()
        n += 1
    assert several >= 40, f"only {several} pour frames of several rectangles"
    app.on_update(1 / 60)                 # the pour over: all it drew, against a whole repaint
    app.on_draw()
    compared.append(differs())
    # drawn over itself outside the rectangles (no stencil), about 0.05% differs here;
    # the shaft repainted only where cubes moved, the stage as it was (issue 48)
    assert len(compared) >= 2 and max(compared) < 0.0001, \
        f"{max(compared):.2%} of the stage differs from a whole repaint ({compared})"
    del tv.draw                             # the class's own again
    scene.battle.end()
    app.show_menu()


def test_the_stages_first_frame_draws_no_map_under_it(app):
    """Issue 48 (the stage's first frame): a whole frame while the stage is open drew the
    map under it (11-15 ms of the first frame at 1920x1080 on llvmpipe), which the stage
    covers whole. The map is hidden under the stage; the first frame is pixel for pixel
    the one drawn with the map under it, its arrow included (the opening zooms into the
    map's picture, which the battle's start makes current)."""
    import numpy as np
    scene, rec, dropped, rest = _quiet_table(app, {0: 5, 1: 4}, b"first-frame")
    board = scene.board_view
    drawn = count_calls(board, "on_draw")
    # no `prepare` before it: the arrow is new at the start (the map's picture is stale)
    caption = scene.battle.start(dropped, rest, {})
    scene.tower.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds())
    app.on_update(1 / 60)
    full = app.full_frames
    app.on_draw()
    assert app.full_frames == full + 1, "the stage's first frame is a whole one"
    assert drawn[0] == 0, "the map drawn under the stage"
    first = np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"), dtype=np.int16)
    board.visible = True                          # as before: the map drawn under the stage
    app._force_full = True
    app.on_draw()
    assert drawn[0] == 1
    under = np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"), dtype=np.int16)
    differs = float((np.abs(first - under).max(axis=2) > 0).mean())
    assert differs == 0.0, f"{differs:.2%} of the window differs from a frame with the map under it"
    del board.on_draw
    scene.battle.end()
    assert board.visible
    app.show_menu()


def test_the_stages_picture_is_drawn_a_part_a_frame_before_it_opens(app):
    """Issue 48 (the frame before the stage's first): `BattleShow.prepare` drew the whole
    picture of the stage (the table and tower, the sides' panels, the lamp, the words) in
    one frame, 75-190 ms at 1920x1080 on llvmpipe: the same hitch one frame earlier. The
    scene calls it once a frame while the event before the drop holds; each call now draws
    one part, the map's arrow coming last, and the parts make the picture a whole drawing
    makes, pixel for pixel."""
    import numpy as np
    scene, _rec, dropped, rest = _quiet_table(app, {0: 5, 1: 4}, b"in-parts")
    tv, board = scene.tower, scene.board_view
    layer = tv._layers[True]
    renders = count_calls(layer, "render")
    tv._drawn = None                        # as for a battle whose picture is not drawn yet
    done, calls, parts = False, 0, []
    while not done and calls < 10:
        before = renders[0]
        done = scene.battle.prepare(dropped, rest, {})
        calls += 1
        parts.append(renders[0] - before)
        assert done or board.arrow is None, "the arrow drawn before the stage's picture is whole"
    assert done is True and board.arrow is not None
    assert parts == [1] * TowerView.PARTS + [0], f"parts drawn per call: {parts}"
    assert layer.surface is not None
    in_parts = np.asarray(layer.surface.to_image().convert("RGB"), dtype=np.int16)
    # the same picture drawn whole, in the first of the calls
    whole_draw = tv._draw_static
    tv._draw_static = lambda part=None: whole_draw() if part == 0 else None
    tv._drawn = None
    while not scene.battle.prepare(dropped, rest, {}):
        pass
    tv._draw_static = whole_draw
    whole = np.asarray(layer.surface.to_image().convert("RGB"), dtype=np.int16)
    differs = float((np.abs(in_parts - whole).max(axis=2) > 0).mean())
    assert differs == 0.0, f"{differs:.2%} of the picture drawn in parts differs from it drawn whole"
    # and the stage opens on it without drawing it again
    rendered = renders[0]
    caption = scene.battle.start(dropped, rest, {})
    scene.tower.play(_rec, caption, scene.battle.sides, scene.battle.handful_seconds())
    app.on_update(1 / 60)
    app.on_draw()
    assert renders[0] == rendered and tv._drawn == tv._stage_key()
    del layer.render
    scene.battle.end()
    app.show_menu()


def test_a_drop_first_in_its_batch_has_its_picture_drawn_before_the_stage_opens(app):
    """Issue 48: in a game the battle's drop comes first in its batch (always, in a bots'
    game), so no event held before it and `prepare` was never called: the stage's first
    frame drew the whole picture (and the map's arrow) after all. The drop now waits a
    frame per part of its picture (3-4 frames), then the stage opens on it, drawn."""
    scene, _rec, dropped, rest = _quiet_table(app, {0: 5, 1: 4}, b"first-in-batch")
    tv, player = scene.tower, scene.player
    tv._drawn = None                        # a battle whose picture is not drawn yet
    layer = tv._layers[True]
    renders: list[int] = []                 # the frame of each drawing into the stage's layer
    render = layer.render
    n = [0]

    def counted(*args, **kw) -> None:
        renders.append(n[0])
        render(*args, **kw)
    layer.render = counted
    opened: list[int] = []
    player._drop = lambda e, caption: opened.append(n[0])   # the drop itself: not this test's
    dropped = {**dropped, "out": {"0": 2, "1": 1}, "inside_after": {}}    # the log's line reads them
    player.batch, player.batch_views, player.wait = [dropped, *rest], None, 0.0
    while not opened and n[0] < 20:
        player.advance(1 / 60)
        app.on_draw()
        app.flip()
        n[0] += 1
    assert opened, "the drop never played"
    app.on_update(1 / 60)
    app.on_draw()                           # the stage's first frame
    layer.render = render
    assert len(renders) == TowerView.PARTS and len(set(renders)) == len(renders), \
        f"the stage's picture drawn in frames {renders}, the stage opened in frame {opened[0]}"
    assert max(renders) < opened[0], f"drawn in frames {renders}, opened in frame {opened[0]}"
    scene.battle.end()
    app.show_menu()


def test_the_openings_sea_is_drawn_only_where_the_zoomed_map_is_not(app):
    """Issue 48 (the frame budget): where the zoomed map does not reach the view's edge,
    the opening draws the sea on. It was drawn over each whole strip around the stage and
    the map over it: the first frames of the move filled about twice the view's pixels
    (the sea blended, 1 M of 1.09 M logical pixels at 1920x1080). Now the sea fills only
    the strips' parts beyond the map (rounded out to whole pixels), and the frame is the
    same: every pixel beyond the map is sea, the map's own pixels the map."""
    import numpy as np
    from client.core.cached_layer import CachedLayer
    from client.tower.cube_sprites import CubeSprites
    from client.tower.stage_opening import Opening
    from client.tower.stage_repaint import minus

    ctx = app.ctx
    board, stage = CachedLayer(), CachedLayer()
    board.render((200, 250, 600, 400), lambda: arcade.draw_lbwh_rectangle_filled(
        200, 250, 600, 400, (40, 160, 60)))
    box = (0.0, 0.0, 1280.0, 766.0)
    stage.render(box, lambda: arcade.draw_lbwh_rectangle_filled(*box, (90, 60, 40)))
    filled: list[tuple[int, int, int, int]] = []

    class Sea:
        def draw(self) -> None:
            filled.append(ctx.scissor)
            arcade.draw_lbwh_rectangle_filled(-5000, -5000, 10000, 10000, (20, 40, 200))

    opening = Opening()
    opening.start((400.0, 420.0), board, True, Sea())
    opening.progress = 0.1                        # early: the map smaller than the view
    app.clear()
    opening.draw(box, stage, CubeSprites())
    z, offx, offy = opening.board_xf(box)
    bl, bb, bw, bh = board.rect
    zoomed = (bl * z + offx, bb * z + offy, bw * z, bh * z)
    px = app.get_pixel_ratio() * app.ui_scale
    bare = sum(w * h for strip in minus(box, opening.stage_rect(box))
               for _x, _y, w, h in minus(strip, zoomed)) * px * px
    drawn = sum(w * h for _x, _y, w, h in filled)
    assert filled and drawn <= bare * 1.02 + 4000, \
        f"the sea filled {drawn:.0f} pixels where {bare:.0f} are beyond the map"
    # the frame itself: the map's middle is the map, the view's corner the sea
    image = np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"))
    mx, my = (zoomed[0] + zoomed[2] * 0.9) * px, (zoomed[1] + zoomed[3] * 0.9) * px
    assert tuple(image[app.height - 1 - int(my), int(mx)]) == (40, 160, 60)
    assert tuple(image[app.height - 3, 2]) == (20, 40, 200)


def test_a_pour_frame_repaints_where_cubes_moved_not_the_whole_shaft(app):
    """Issue 48 (the frame budget): a pour frame repainted the whole shaft, from the
    stage's foot to the tower's top (about half its pixels), though only the cubes that
    moved change it. Now it repaints the tiles where a cube's drawing changed, where it
    was and where it is; a cube at rest is not repainted."""
    from client.tower import stage_layout as layout
    tv = _stage(handful=0.0)
    sx, sy, sw, sh = layout.shaft_rect(tv.geo, (tv.left, tv.bottom, tv.width, tv.height), True)
    areas: list[int] = []
    last: set[tuple[float, float]] = set()
    for _ in range(3000):
        tv.on_update(1 / 60)
        if not tv.playing or tv.stage != "pour":
            break
        tv.cubes.draw()                           # as the frame does
        rects = tv.damage_rects()
        now = {(p.x, p.y) for p in tv.cubes.shown}
        if tv._repaint.whole:
            last = now
            continue
        areas.append(_area(rects))
        for point in now ^ last:                    # a cube that moved: where it is and was
            assert _inside(point, rects), point
        last = now
    assert len(areas) > 60
    mean = sum(areas) / len(areas)
    assert mean < 0.5 * sw * sh, f"a pour frame repaints {mean / (sw * sh):.0%} of the shaft's area"
