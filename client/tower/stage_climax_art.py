"""The climax drawn on the stage (issue 48): the winning side's panel and tray lit with a
gold edge, the losing side's dimmed (a draw dims neither), and a lacquered banner over
the tower saying the decision: "White takes Suruga", the totals "White 4 : 3 Blue" and
what it leaves ("1 army survives"). Drawn each frame of the climax (a few rectangles and
one batch of words); the words are `stage_climax.verdict`'s.

Tests: tests/client/tower/test_climax.py.
"""

from __future__ import annotations

import arcade

from client.core.text_cache import TextCache
from client.tower.stage_climax import Verdict

Box = tuple[float, float, float, float]
GOLD = (236, 196, 110)


def banner_rect(view: Box, panels: tuple[Box, Box], k: float, x_mid: float) -> Box:
    """The banner's place: over the tower, reaching a little into the panels at the
    height of their thrown cubes (gone into the tower by now), never over their words
    or the sides' trays."""
    left, bottom, width, height = view
    (al, ab, aw, ah), (dl, _db, _dw, _dh) = panels
    w = min(width * 0.62, (dl - (al + aw)) + 2 * min(aw * 0.45, 150 * k), 820 * k)
    h = 132 * k
    x = min(max(left + 8, x_mid - w / 2), left + width - 8 - w)
    return x, ab + ah * 0.3 - h / 2, w, h


def draw_climax(words: TextCache, v: Verdict, panels: tuple[Box, Box], trays: tuple[Box, Box],
                view: Box, k: float, x_mid: float) -> None:
    for side, panel, tray in zip(("a", "d"), panels, trays):
        for left, bottom, width, height in (panel, tray):
            if v.winner == side:
                arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, (255, 214, 140, 26))
                arcade.draw_lbwh_rectangle_outline(left - 2, bottom - 2, width + 4, height + 4, GOLD, 3 * k)
            elif v.winner:
                arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, (8, 6, 10, 150))
    x, y, w, h = banner_rect(view, panels, k, x_mid)
    arcade.draw_lbwh_rectangle_filled(x + 6 * k, y - 6 * k, w, h, (0, 0, 0, 110))      # its shadow
    arcade.draw_lbwh_rectangle_filled(x, y, w, h, (104, 30, 24))
    arcade.draw_lbwh_rectangle_filled(x, y + h * 0.5, w, h * 0.5, (255, 220, 180, 14))
    arcade.draw_lbwh_rectangle_outline(x + 5 * k, y + 5 * k, w - 10 * k, h - 10 * k, GOLD, 2 * k)
    arcade.draw_lbwh_rectangle_outline(x, y, w, h, (60, 16, 12), 2)
    words.begin()
    words.put("head", v.headline, x + w / 2, y + h - 18 * k, size=26 * k, bold=True,
              color=(255, 240, 206), anchor_x="center", anchor_y="top", width=int(w - 30 * k),
              multiline=True, align="center")
    words.put("totals", v.totals, x + w / 2, y + h * 0.36, size=21 * k, bold=True, color=GOLD,
              anchor_x="center", anchor_y="center")
    words.put("detail", v.detail, x + w / 2, y + 14 * k, size=14 * k, color=(250, 232, 204),
              anchor_x="center", anchor_y="bottom", width=int(w - 30 * k), multiline=True,
              align="center")
    words.end()
    words.draw()
