"""Plain 2-D geometry for drawing the map: triangles for thick lines, discs and icons,
hatching clipped to a province, inner bands along outlines, sea-route dashes.

Everything returns flat lists of screen points (three per triangle) so that a whole layer
becomes one `create_triangles_filled_with_colors` call, i.e. one draw call.
"""

from __future__ import annotations

import math

Point = tuple[float, float]


def thick_lines(segments, width: float) -> list[Point]:
    """Quads (as triangles) for a list of ((x1,y1),(x2,y2)) segments."""
    pts: list[Point] = []
    for (x1, y1), (x2, y2) in segments:
        dx, dy = x2 - x1, y2 - y1
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln * width / 2, dx / ln * width / 2
        a, b, c, d = (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x2 - nx, y2 - ny), (x2 + nx, y2 + ny)
        pts += [a, b, c, a, c, d]
    return pts


def polyline_segments(pts, closed: bool = False) -> list[tuple[Point, Point]]:
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


def inner_band(poly: list[Point], centre: Point, width: float) -> list[Point]:
    """Triangles of a strip just inside a province outline (the outline moved `width` toward
    the province's centre; each cell is star-shaped around it). Used to show the region."""
    inner = []
    for x, y in poly:
        dx, dy = centre[0] - x, centre[1] - y
        d = math.hypot(dx, dy) or 1.0
        k = min(width, 0.45 * d) / d
        inner.append((x + dx * k, y + dy * k))
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        j = (i + 1) % n
        out += [poly[i], poly[j], inner[j], poly[i], inner[j], inner[i]]
    return out


def _inside(x: float, y: float, poly) -> bool:
    inside, j = False, len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi + 1e-12) + xi:
            inside = not inside
        j = i
    return inside


def sea_route(path: list[Point], poly_a, poly_b, dash: float) -> list[tuple[Point, Point]]:
    """Dashes along a route's path from where it leaves province a to where it reaches b,
    keeping one point inside each so the route is seen to land there."""
    i0 = 0
    while i0 + 1 < len(path) and _inside(*path[i0 + 1], poly_a):
        i0 += 1
    i1 = len(path) - 1
    while i1 - 1 > i0 and _inside(*path[i1 - 1], poly_b):
        i1 -= 1
    pts = path[i0:i1 + 1]
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


def text_width(text: str, size_pt: float, bold: bool = True) -> float:
    """Approximate drawn width in pixels of DejaVu Sans text (the client's font): the
    per-character advance of DejaVu Sans Bold averages 0.66 em, at 96 dpi."""
    return len(text) * size_pt * (96 / 72) * (0.66 if bold else 0.6)

