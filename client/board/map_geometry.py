"""Plain 2-D geometry for drawing the map: triangles for thick lines, discs and icons,
hatching clipped to a province, inner bands along outlines, sea-route dashes.

Everything returns flat lists of screen points (three per triangle) so that a whole layer
becomes one `create_triangles_filled_with_colors` call, i.e. one draw call.

Tests: tests/client/board/test_board_layout.py, tests/client/board/test_event_marks.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike
from client.core.text_cache import bold_font_files

if TYPE_CHECKING:
    from PIL import ImageFont

Point = tuple[float, float]


def thick_lines(segments: ArrayLike, width: float) -> np.ndarray:
    """Quads (as triangles, a (6n, 2) array) for a list of ((x1,y1),(x2,y2)) segments."""
    seg = np.asarray(segments, dtype="f8").reshape(-1, 2, 2)
    if not len(seg):
        return np.zeros((0, 2))
    p, q = seg[:, 0], seg[:, 1]
    d = q - p
    ln = np.hypot(d[:, 0], d[:, 1])
    ln[ln == 0] = 1.0
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / ln[:, None] * (width / 2)
    a, b, c, e = p + n, p - n, q - n, q + n
    return np.stack([a, b, c, a, c, e], axis=1).reshape(-1, 2)


def polyline_segments(pts: Sequence[Point], closed: bool = False) -> list[tuple[Point, Point]]:
    n = len(pts)
    segs = [(pts[i], pts[i + 1]) for i in range(n - 1)]
    if closed and n > 2:
        segs.append((pts[-1], pts[0]))
    return segs


def regular_polygon(cx: float, cy: float, r: float, sides: int, rot: float = 0.0) -> list[Point]:
    return [(cx + r * math.cos(rot + 2 * math.pi * k / sides),
             cy + r * math.sin(rot + 2 * math.pi * k / sides)) for k in range(sides)]


# Army-disc outlines per seat shape: (sides, rotation, radius factor). A circle is 20 sides.
SHAPES = {
    "circle": (20, 0.0, 1.0),
    "square": (4, math.pi / 4, 1.12),
    "diamond": (4, 0.0, 1.25),
    "hexagon": (6, 0.0, 1.08),
    "pentagon": (5, math.pi / 2, 1.12),
    "triangle": (3, math.pi / 2, 1.45),
}


def shape_outline(shape: str, cx: float, cy: float, r: float) -> list[Point]:
    sides, rot, k = SHAPES.get(shape, SHAPES["circle"])
    return regular_polygon(cx, cy, r * k, sides, rot)


def fan(poly: list[Point]) -> list[Point]:
    """Triangles of a convex polygon."""
    out: list[Point] = []
    for i in range(1, len(poly) - 1):
        out += [poly[0], poly[i], poly[i + 1]]
    return out


def rect(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)]


def building_icon(kind: str, x: float, y: float, s: float) -> list[Point]:
    """A silhouette per building, distinct by outline rather than only colour:
    palace = castle keep with battlements, temple = pagoda roof on a hall,
    nō theatre = a mask (an oval face with two eyes cut out is drawn as a face and brows)."""
    if kind == "palace":
        pts = rect(x - 5 * s, y - 5 * s, x + 5 * s, y + 2 * s)
        for k in (-5, -1, 3):   # three merlons
            pts += rect(x + k * s, y + 2 * s, x + (k + 2) * s, y + 5 * s)
        return pts
    if kind == "temple":
        return ([(x - 7 * s, y + 1 * s), (x + 7 * s, y + 1 * s), (x, y + 6 * s)]
                + rect(x - 4 * s, y - 5 * s, x + 4 * s, y + 1 * s))
    # theatre: a mask
    return fan(regular_polygon(x, y, 5.5 * s, 12, math.pi / 2))


def hatch(poly: list[Point], spacing: float) -> list[tuple[Point, Point]]:
    """Diagonal (45°) hatch segments clipped to a simple polygon (even-odd rule)."""
    if len(poly) < 3:
        return []
    us = [x + y for x, y in poly]           # lines x + y = c
    c = math.floor(min(us) / spacing) * spacing + spacing / 2
    segs = []
    n = len(poly)
    while c < max(us):
        xs = []
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            u1, u2 = x1 + y1 - c, x2 + y2 - c
            if (u1 < 0) != (u2 < 0):
                t = u1 / (u1 - u2)
                xs.append(x1 + (x2 - x1) * t)
        xs.sort()
        for a, b in zip(xs[0::2], xs[1::2]):
            segs.append(((a, c - a), (b, c - b)))
        c += spacing
    return segs


def stripes(poly: list[Point], spacing: float, angle: float) -> list[tuple[Point, Point]]:
    """Parallel stripes at `angle` degrees (0: horizontal) clipped to a simple polygon
    (even-odd rule): the colour-blind mode's ownership patterns."""
    if len(poly) < 3:
        return []
    a = math.radians(angle)
    dx, dy = math.cos(a), math.sin(a)          # along the stripes
    nx, ny = -dy, dx                           # across them
    us = [x * nx + y * ny for x, y in poly]
    c = math.floor(min(us) / spacing) * spacing + spacing / 2
    segs = []
    n = len(poly)
    while c < max(us):
        ts = []
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            u1, u2 = us[i] - c, us[(i + 1) % n] - c
            if (u1 < 0) != (u2 < 0):
                t = u1 / (u1 - u2)
                ts.append((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t))
        ts.sort(key=lambda p: p[0] * dx + p[1] * dy)
        segs += list(zip(ts[0::2], ts[1::2]))
        c += spacing
    return segs


def inner_band(poly: ArrayLike, centre: Point, width: float) -> np.ndarray:
    """Triangles of a strip just inside a province outline (the outline moved `width` toward
    the province's centre; each cell is star-shaped around it). Used to show the region."""
    p = np.asarray(poly, dtype="f8")
    d = np.asarray(centre, dtype="f8") - p
    ln = np.hypot(d[:, 0], d[:, 1])
    ln[ln == 0] = 1.0
    k = np.minimum(width, 0.45 * ln) / ln
    inner = p + d * k[:, None]
    pn, inn = np.roll(p, -1, axis=0), np.roll(inner, -1, axis=0)
    return np.stack([p, pn, inn, p, inn, inner], axis=1).reshape(-1, 2)


def segments_of(line: ArrayLike) -> np.ndarray:
    """(n-1, 2, 2) segments of an open polyline given as an (n, 2) array."""
    a = np.asarray(line, dtype="f8")
    return np.stack([a[:-1], a[1:]], axis=1)


def _inside(x: float, y: float, poly: Sequence[Point]) -> bool:
    inside, j = False, len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi + 1e-12) + xi:
            inside = not inside
        j = i
    return inside


def route_ends(path: Sequence[Point], poly_a: Sequence[Point], poly_b: Sequence[Point]) -> tuple[int, int]:
    """Indices bounding the part of a route's path between province a and province b,
    keeping one point inside each so the route is seen to land there."""
    i0 = 0
    while i0 + 1 < len(path) and _inside(path[i0 + 1][0], path[i0 + 1][1], poly_a):
        i0 += 1
    i1 = len(path) - 1
    while i1 - 1 > i0 and _inside(path[i1 - 1][0], path[i1 - 1][1], poly_b):
        i1 -= 1
    return i0, i1


def dashes(pts: list[Point], dash: float) -> list[tuple[Point, Point]]:
    """Dash segments along a polyline: `dash` long, gaps of 0.6 dash."""
    out, on, left = [], True, dash
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while seg - pos > 1e-9:
            step = min(left, seg - pos)
            a, b = pos / seg, (pos + step) / seg
            if on:
                out.append(((x1 + (x2 - x1) * a, y1 + (y2 - y1) * a),
                            (x1 + (x2 - x1) * b, y1 + (y2 - y1) * b)))
            pos += step
            left -= step
            if left <= 1e-9:
                on, left = not on, dash * (1.0 if not on else 0.6)
    return out


@lru_cache(maxsize=1)
def _bold_font() -> ImageFont.FreeTypeFont | None:
    from PIL import ImageFont  # Pillow: only when a label is measured

    for name in bold_font_files():
        try:
            return ImageFont.truetype(name, 100)
        except OSError:
            continue
    return None


def text_width(text: str, size_pt: float) -> float:
    """Drawn width in pixels of bold DejaVu Sans text (the client's font) at 96 dpi, measured
    with Pillow; estimated at 0.75 em per character when the font file is not found."""
    px = size_pt * 96 / 72
    font = _bold_font()
    if font is None:
        return len(text) * px * 0.75
    return font.getlength(text) / 100 * px
