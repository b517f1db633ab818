"""Where the tower and the stage's parts sit in a view's box (left, bottom, width,
height): the tower's scale and origin (`tower_xf`), the stage's type size, the two
panels beside the tower, the shaft (what a frame of falling cubes repaints) and the
panels' live counts. Pure functions of the box, so the drawing, the repaint and the
tests agree on one layout.

Tests: tests/client/tower/test_stage.py, tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from client.tower import tower_art as art
from client.tower.stage_trays import count_width

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData

Box = tuple[float, float, float, float]          # left, bottom, width, height
Pixels = tuple[int, int, int, int]               # the same in whole pixels (a repaint)


def tower_xf(geo: GeometryData, box: Box, big: bool) -> tuple[float, float, float]:
    """The tower's scale and origin: a point (x, y) of the tower is drawn at
    (ox + x * s, oy + y * s). The stage (`big`) has the tower in the middle, as tall as
    the view; the column fits it under its title."""
    left, bottom, width, height = box
    w_units = art.LEFT + geo["tray_end"] + art.RIGHT
    if big:
        h_units = art.STAGE_BELOW + geo["top"] + art.STAGE_ABOVE
        s = min(width * 0.46 / w_units, (height - 8) / h_units)
        ox = left + (width - w_units * s) / 2 + art.LEFT * s
        return s, ox, bottom + 4 + art.STAGE_BELOW * s
    h_units = art.BELOW + geo["top"] + art.ABOVE
    s = min((width - 8) / w_units, (height - 44 - 14) / h_units)
    ox = left + 4 + ((width - 8) - w_units * s) / 2 + art.LEFT * s
    return s, ox, bottom + 14 + art.BELOW * s


def type_scale(height: float) -> float:
    """The stage's type grows with the view (1 at 1280x800)."""
    return max(0.8, min(1.8, height / 766))


def panel_rects(geo: GeometryData, box: Box, big: bool) -> tuple[Box, Box]:
    """The attacker's panel left of the tower, the defender's right of it."""
    left, bottom, width, height = box
    s, ox, _ = tower_xf(geo, box, big)
    x0 = ox - art.LEFT * s
    x1 = ox + (geo["tray_end"] + art.RIGHT) * s
    k = type_scale(height)
    gap = 18 * k
    w = max(60.0, min(420 * k, x0 - left - 2 * gap))
    if big:                  # the panels above, each side's tray under its panel (issue 48)
        b = bottom + height * (TRAY_LOW + TRAY_HIGH) + 10 * k
        h = bottom + height * 0.975 - b
    else:
        h = height * 0.66
        b = bottom + (height - h) * 0.55
    return (x0 - gap - w, b, w, h), (x1 + gap, b, min(w, left + width - gap - x1 - gap), h)


TRAY_LOW, TRAY_HIGH = 0.03, 0.31      # the sides' trays: from and how high, against the view


def tray_boxes(geo: GeometryData, box: Box, big: bool) -> tuple[Box, Box]:
    """Each side's tray under its panel (`stage_trays`), as wide as the panel."""
    left, bottom, width, height = box
    (al, _ab, aw, _ah), (dl, _db, dw, _dh) = panel_rects(geo, box, big)
    b, h = bottom + height * TRAY_LOW, height * TRAY_HIGH
    return (al, b, aw, h), (dl, b, dw, h)


def shaft_rect(geo: GeometryData, box: Box, big: bool) -> Pixels:
    """Where cubes can be (the shaft, the handful beside it, the tray) and the count
    below; not the roofs or the caption, which stay the same during a drop."""
    left, bottom, width, height = box
    s, ox, oy = tower_xf(geo, box, big)
    pad = 2 * s + 2
    x0 = max(left, ox - pad)
    x1 = min(left + width, ox + (geo["tray_end"] + art.RIGHT) * s + pad)
    top_y = oy + (geo["top"] + (art.STAGE_ABOVE if big else 0)) * s
    y1 = min(bottom + height, top_y + pad)
    return int(x0), int(bottom), int(x1 - x0) + 1, int(y1 - bottom) + 1


def count_rects(geo: GeometryData, box: Box, big: bool) -> list[Pixels]:
    """The sides' live counts (the left part of each side's tray): repainted as a cube
    lands (the cube itself is repainted where it flies and lies, `stage_repaint`)."""
    out = []
    k = type_scale(box[3])
    for x, y, w, h in tray_boxes(geo, box, big):
        out.append((int(x) - 1, int(y) - 1, int(count_width((x, y, w, h), k) + 14 * k) + 3, int(h) + 3))
    return out
