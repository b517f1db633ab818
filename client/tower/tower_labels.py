"""The words drawn with the tower's still picture: the 'tray' word under the tray, and
the small tower's row of what is inside (its cubes are too small to read).

Tests: tests/client/tower/test_cubes.py, tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import arcade

from client.core.text_cache import TextCache
from client.tower.cube_textures import cube_face, cube_mark
from client.tower.drop_play import code_of
from client.tower.stage_layout import Box
from lang.i18n import _

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData


def put_tray_word(texts: TextCache, geo: GeometryData, still: Callable[[float, float], tuple[float, float]],
                  right: float, size: float, colour: tuple[int, int, int]) -> None:
    """Under the tray's box, on the base, never across its edge (issue 37: it was 8 pt
    across the edge); a longer word ("opvangschaal") keeps inside the view (`right`)."""
    _x, foot_y = still(0, -6)                     # the tray box's foot
    mid = (geo["width"] + geo["tray_end"]) / 2 + 4
    tx, _y = still(mid, 0)
    t = texts.put("tray", _("tray"), tx, foot_y - 2, size=size, color=colour,
                  anchor_x="center", anchor_y="top")
    if t.right > right - 3:
        texts.put("tray", _("tray"), right - 3 - t.content_width / 2, foot_y - 2,
                  size=size, color=colour, anchor_x="center", anchor_y="top")


def draw_inside_counts(texts: TextCache, rest: list[tuple[int, float, float, float]],
                       box: Box) -> None:
    """The small tower's row under its title: a readable cube (face and letter) and a
    count per colour of the cubes resting inside (`rest`: colour, x, y, angle)."""
    counts: dict[int, int] = {}
    for colour, *_pose in rest:
        counts[code_of(colour)] = counts.get(code_of(colour), 0) + 1
    if not counts:
        return
    left, bottom, width, height = box
    size, gap = 13.0, 30.0
    x = left + width / 2 - gap * len(counts) / 2 + size / 2
    y = bottom + height - 34
    for code, n in sorted(counts.items()):
        for tex in (cube_face(code), cube_mark(code)):
            arcade.draw_texture_rect(tex, arcade.XYWH(x, y, size, size))
        texts.put(("n", code), str(n), x + size / 2 + 2, y, size=8.5, bold=True,
                  color=(240, 230, 210), anchor_y="center")
        x += gap
