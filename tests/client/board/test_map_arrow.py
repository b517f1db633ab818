"""The battle arrow on the map (issue 48): set or cleared, it redraws only the part of the
map's picture under it (the map was rebuilt from scratch for it: an 80-110 ms frame just
before the stage opened and another just after it closed, on llvmpipe at 1920x1080), and
the picture is pixel for pixel the one a whole rebuild draws, with the arrow on the map
in the window and in the stage's opening, which zooms into that picture.

Counted in rebuilds and pixels, never in milliseconds (benchmarks/bench_client.py times
the frames)."""

from __future__ import annotations

import arcade
import numpy as np

from client.core.theme import seat_colour
from sim.tower import drop as tower
from tests.client.conftest import count_calls, frame, paused_bot_table


def _table(app):
    """A 3-player bots' game's table, paused, without a card over the map."""
    scene = paused_bot_table(app, players=3, seed=3)
    frame(app, 2)
    return scene


def _picture(board) -> np.ndarray:
    surface = board.picture.surface
    assert surface is not None
    return np.asarray(surface.to_image().convert("RGB"), dtype=np.int16)


def _window(app) -> np.ndarray:
    return np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"), dtype=np.int16)


def _along(ends, n: int = 9) -> list[tuple[float, float]]:
    """Points on the arrow's shaft, between its two ends (the head excluded)."""
    (x0, y0), (x1, y1) = ends
    return [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) for t in np.linspace(0.15, 0.6, n)]


def _differs(a: np.ndarray, b: np.ndarray) -> float:
    return float((np.abs(a - b).max(axis=2) > 0).mean())


def test_setting_and_clearing_the_arrow_redraws_its_part_of_the_map_not_the_map(app):
    scene = _table(app)
    board = scene.board_view
    builds = count_calls(board, "rebuild")
    plain = _picture(board)
    colour = seat_colour(0)
    board.set_arrow("Kai", "Suruga", colour)
    frame(app)
    assert builds[0] == 0, "the whole map rebuilt to draw the arrow"
    with_arrow = _picture(board)
    # the arrow is there, on the map in the window
    k = app.get_pixel_ratio() * app.ui_scale
    l, b = board.picture.rect[:2]
    window = _window(app)
    on_shaft = 0
    for x, y in _along(board.arrow_ends()):
        px, py = int((x - l) * k), int((y - b) * k)
        row = with_arrow.shape[0] - 1 - py                  # the image's rows run downwards
        assert (with_arrow[row, px] != plain[row, px]).any(), f"no arrow at ({x:.0f}, {y:.0f})"
        on_shaft += int(np.abs(with_arrow[row, px] - colour[:3]).max() <= 2)
        wrow = window.shape[0] - 1 - int(y * k)
        assert (window[wrow, int(x * k)] == with_arrow[row, px]).all(), "the window shows the picture"
    assert on_shaft >= 7, f"the shaft in the attacker's colour at {on_shaft} of 9 points"
    changed = _differs(with_arrow, plain)
    assert 0 < changed < 0.05, f"{changed:.2%} of the map changed for the arrow"
    # pixel for pixel what a whole rebuild draws
    board.mark_dirty()
    frame(app)
    assert builds[0] == 1
    assert _differs(_picture(board), with_arrow) == 0.0, "the arrow's part differs from a rebuild"
    # cleared: the map as it was, again without a rebuild
    board.set_arrow(None, None)
    frame(app)
    assert builds[0] == 1, "the whole map rebuilt to take the arrow away"
    assert _differs(_picture(board), plain) == 0.0, "the arrow left marks on the map"
    # a revolt's ring round the province, and back
    board.set_arrow(None, "Suruga", colour)
    frame(app)
    ring = _picture(board)
    assert builds[0] == 1 and 0 < _differs(ring, plain) < 0.05
    board.mark_dirty()
    frame(app)
    assert _differs(_picture(board), ring) == 0.0, "the ring's part differs from a rebuild"
    board.set_arrow(None, None)
    frame(app)
    assert builds[0] == 2 and _differs(_picture(board), plain) == 0.0
    del board.rebuild
    app.show_menu()


def test_the_stages_opening_zooms_into_the_map_with_its_arrow(app):
    """The opening's camera moves in on the map's picture: the arrow the battle's start
    draws on it is in the zoomed map (where the growing stage is not), in the attacker's
    colour; without it, not."""
    scene = _table(app)
    board, tv = scene.board_view, scene.tower
    rec = tower.drop(tower.EMPTY, {0: 5, 1: 4}, b"map-arrow".ljust(32, b"."), record=True).recording
    assert rec is not None
    dropped = {"event": "TowerDropped", "reason": "battle", "thrown": {"0": 5, "1": 4}}
    rest = [{"event": "BattleResolved", "kind": "attack", "province": "Suruga", "attacker": 0,
             "defender": 1, "unrest": 0},
            # from a province far off (a long arrow: the stage grows out of the target)
            {"event": "ActionDone", "province": "Kozuke", "attacked": "Suruga"}]
    caption = scene.battle.start(dropped, rest, {})
    tv.play(rec, caption, scene.battle.sides, scene.battle.handful_seconds())
    frame(app)
    tv._opening.progress = 0.25                  # the camera a quarter of its way in
    ends = board.arrow_ends()
    z, offx, offy = tv._opening.board_xf(tv._box())
    left, bottom, w, h = tv.opening_rect()
    k = app.get_pixel_ratio() * app.ui_scale
    points = [(x * z + offx, y * z + offy) for x, y in _along(ends, 20)]
    points = [(x, y) for x, y in points if not (left - 4 <= x <= left + w + 4 and bottom - 4 <= y <= bottom + h + 4)
              and tv.left < x < tv.right - 1 and tv.bottom < y < tv.top - 1]
    assert z > 1.1 and len(points) >= 4, "the zoomed arrow is hidden by the stage's picture"

    def at(img: np.ndarray) -> list[np.ndarray]:
        return [img[img.shape[0] - 1 - int(y * k), int(x * k)] for x, y in points]
    app._force_full = True
    app.on_draw()
    zoomed = at(_window(app))
    colour = np.array(seat_colour(0)[:3])
    # (a name or an army's count may be written over the shaft)
    inked = sum(int(np.abs(p - colour).max() <= 6) for p in zoomed)
    assert inked >= 0.7 * len(points), f"the arrow's colour at {inked} of {len(points)} zoomed points"
    board.set_arrow(None, None)
    board.rebuild_if_dirty()
    app._force_full = True
    app.on_draw()
    bare = at(_window(app))
    gone = sum(int((a != c).any()) for a, c in zip(zoomed, bare))
    assert gone >= inked, f"without the arrow {gone} of {len(points)} zoomed points change"
    scene.battle.end()
    app.show_menu()
