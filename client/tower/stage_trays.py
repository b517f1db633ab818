"""The tray in focus on the battle stage (issue 48): under each side's panel a wooden tray
of its own, where the cubes that count for that side are laid as they land, in columns
of five, large (at least 14 px at 960x640), with the side's total in large type beside
them. A cube slides out of the tower's exit and on into its side's tray; the cubes that
count for no one (another player's, peasants under unrest) stay in the tower's own tray,
as the rules leave them there.

Pure layout (`tray_boxes`, `box_places`) apart from the drawing (`draw_tray_box`, into
the tower view's cached layer; `draw_box_count`, each frame a cube lands), so tests read
where every cube goes without a window.

Tests: tests/client/tower/test_climax.py, tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.text_cache import TextCache
from client.tower.cube_textures import cube_face, cube_mark
from lang.i18n import _, ngettext

Box = tuple[float, float, float, float]          # left, bottom, width, height
ROWS = 5               # cubes in a column (counted in fives, as by hand)
STEP = 1.16            # a column's pitch against the cube's size


def count_width(rect: Box, k: float) -> float:
    """The part of a side's tray its total is written in (left)."""
    return min(rect[2] * 0.36, 118 * k)


def box_places(rect: Box, groups: list[tuple[int, int]], k: float) -> list[tuple[int, float, float, float]]:
    """Where the cubes of a side's tray lie (pixels): `groups` are (colour code, cubes) in
    order (the side's own colour first, then the peasants that count for it); each
    colour in columns of ROWS from the bottom left, one column's gap between colours.
    Returns (code, x, y, size) in that order, the k-th cube of a colour on its k-th place."""
    left, bottom, width, height = rect
    pad = 10 * k
    x0 = left + count_width(rect, k) + pad
    room_w = left + width - pad - x0
    room_h = height - 2 * pad - 16 * k
    cols = sum(-(-n // ROWS) for _c, n in groups if n) + max(0, sum(1 for _c, n in groups if n) - 1) * 0.5
    size = min(34.0 * k, room_h / (ROWS * STEP), room_w / max(1.0, cols * STEP))
    step = size * STEP
    out: list[tuple[int, float, float, float]] = []
    x = x0 + step / 2
    base = bottom + pad + step / 2
    for code, n in groups:
        if n <= 0:
            continue
        for j in range(n):
            col, row = divmod(j, ROWS)
            out.append((code, x + col * step, base + row * step, size))
        x += (-(-n // ROWS)) * step + step * 0.5
    return out


def draw_tray_box(rect: Box, code: int, k: float) -> None:
    """A side's tray: a low wooden box, its rim lit from the top left, its inside in
    shade, a strip of the side's colour along its front."""
    left, bottom, width, height = rect
    colour = theme.seat_colour("peasant" if code == 5 else code)
    arcade.draw_lrbt_rectangle_filled(left + 5 * k, left + width + 5 * k, bottom - 5 * k, bottom + height - 5 * k,
                                      (0, 0, 0, 80))                          # its shadow on the table
    arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + height, (112, 76, 48))
    rim = 6 * k
    arcade.draw_lrbt_rectangle_filled(left + rim, left + width - rim, bottom + rim, bottom + height - rim,
                                      (70, 46, 30))                           # the inside
    arcade.draw_lrbt_rectangle_filled(left + rim, left + width - rim, bottom + height - rim - 8 * k,
                                      bottom + height - rim, (0, 0, 0, 60))   # the far rim's shade
    arcade.draw_lrbt_rectangle_filled(left, left + width, bottom + height - 2, bottom + height, (190, 150, 100))
    arcade.draw_lrbt_rectangle_filled(left, left + 2, bottom, bottom + height, (170, 130, 86))
    arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + 3 * k, colour)


def draw_box_count(words: TextCache, key: str, rect: Box, code: int, total: int, peasants: int,
                   k: float, lit: bool | None = None) -> None:
    """A side's total in its tray, large, with the peasants it includes said under it."""
    left, bottom, width, height = rect
    cw = count_width(rect, k)
    x = left + cw / 2 + 4 * k
    ink = (255, 244, 222) if lit is not False else (170, 160, 150)
    words.put((key, "total"), str(total), x, bottom + height * 0.5, size=44 * k, bold=True,
              color=ink, anchor_x="center", anchor_y="center")
    words.put((key, "out"), _("counted"), x, bottom + height - 10 * k, size=11 * k,
              color=(236, 220, 190), anchor_x="center", anchor_y="top")
    if peasants:
        words.put((key, "p"), ngettext("incl. {n} peasant", "incl. {n} peasants", peasants)
                  .format(n=peasants), x, bottom + 12 * k, size=11 * k, color=(200, 230, 190),
                  anchor_x="center", anchor_y="bottom")


def draw_box_cube(code: int, x: float, y: float, size: float) -> None:
    for tex in (cube_face(code), cube_mark(code)):
        arcade.draw_texture_rect(tex, arcade.XYWH(x, y, size, size))
