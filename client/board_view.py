"""The map: 45 provinces as filled shapes, owners, armies, buildings, unrest, sea routes.

Inputs (call down): `set_state(public_state)`, `set_highlight(names)`, `set_selected(name)`.
Signals (up): `province_clicked(name)`, `province_hovered(name or None)`.
"""

from __future__ import annotations

import math

import arcade
from arcade import shape_list

from client import theme
from client.node import CachedLayer, Node, Signal, TextCache, damage
from client.shapes import MapTransform, load_shapes, point_in_poly


def _circle(cx, cy, r, colour, n=18):
    pts, cols = [], []
    for k in range(n):
        a0 = 2 * math.pi * k / n
        a1 = 2 * math.pi * (k + 1) / n
        pts += [(cx, cy), (cx + r * math.cos(a0), cy + r * math.sin(a0)),
                (cx + r * math.cos(a1), cy + r * math.sin(a1))]
        cols += [colour] * 3
    return pts, cols


def _thick_lines(segments, width):
    """Quads (as triangles) for a list of ((x1,y1),(x2,y2)) segments."""
    pts = []
    for (x1, y1), (x2, y2) in segments:
        dx, dy = x2 - x1, y2 - y1
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln * width / 2, dx / ln * width / 2
        a, b, c, d = (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x2 - nx, y2 - ny), (x2 + nx, y2 + ny)
        pts += [a, b, c, a, c, d]
    return pts


class BoardView(Node):
    def __init__(self, board, side: str = "sun", players: int = 4) -> None:
        super().__init__("board")
        self.board = board
        self.side = side
        self.players = players
        self.shapes = load_shapes()
        self.state: dict | None = None
        self.highlight: set[str] = set()
        self.highlight_colour = (255, 215, 0)
        self.selected: str | None = None
        self.hovered: str | None = None
        self.province_clicked = Signal("province_clicked")
        self.province_hovered = Signal("province_hovered")
        self._static: shape_list.ShapeElementList | None = None
        self._tokens: shape_list.ShapeElementList | None = None
        self._text = TextCache()
        self._tip = TextCache()
        self._xf: MapTransform | None = None
        self._layer = CachedLayer()
        self._screen_polys: dict[str, list] = {}
        self.excluded = set(board.excluded_3p[side]) if players == 3 else set()

    # -- inputs ---------------------------------------------------------------------------
    def configure(self, side: str, players: int) -> None:
        self.side, self.players = side, players
        self.excluded = set(self.board.excluded_3p[side]) if players == 3 else set()
        self.mark_dirty()

    def set_state(self, state: dict | None) -> None:
        self.state = state
        self.mark_dirty()

    def set_highlight(self, names, colour=(255, 215, 0)) -> None:
        names = set(names or ())
        if names != self.highlight or colour != self.highlight_colour:
            self.highlight = names
            self.highlight_colour = colour
            self.mark_dirty()

    def set_selected(self, name: str | None) -> None:
        if name != self.selected:
            self.selected = name
            self.mark_dirty()

    # -- drawing --------------------------------------------------------------------------
    def transform(self) -> MapTransform:
        return MapTransform(self.shapes["bounds"], self.left + 4, self.bottom + 4,
                            self.width - 8, self.height - 8)

    def province_centre(self, name: str) -> tuple[float, float]:
        xf = self._xf or self.transform()
        return xf(*self.shapes["label_pos"][name])

    def rebuild(self) -> None:
        xf = self._xf = self.transform()
        provs = self.state.get("provinces", {}) if self.state else {}
        fill_pts, fill_cols = [], []
        for name, tris in self.shapes["triangles"].items():
            region = self.board.provinces[name].region[self.side]
            base = theme.REGION_COLOURS[region]
            owner = provs.get(name, {}).get("owner")
            if name in self.excluded:
                col = theme.EXCLUDED
            elif owner is not None and owner != "peasant":
                col = theme.mix(base, theme.seat_colour(owner), 0.38)
            else:
                col = base
            for t in tris:
                for p in t:
                    fill_pts.append(xf(*p))
                    fill_cols.append(col)
        for tris in self.shapes["islet_triangles"]:
            for t in tris:
                for p in t:
                    fill_pts.append(xf(*p))
                    fill_cols.append((205, 200, 180))
        sl = shape_list.ShapeElementList()
        sl.append(shape_list.create_triangles_filled_with_colors(fill_pts, fill_cols))
        # outlines: thin province borders, thicker coast, region borders in region ink
        self._screen_polys = {n: [xf(*p) for p in poly] for n, poly in self.shapes["provinces"].items()}
        segs = []
        for poly in self._screen_polys.values():
            segs += [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
        sl.append(shape_list.create_triangles_filled_with_colors(
            _thick_lines(segs, 1.2), [(70, 60, 50)] * (6 * len(segs))))
        for reg, rings in (self.shapes.get("regions", {}).get(self.side, {}) or {}).items():
            rsegs = []
            for ring in rings:
                r = [xf(*p) for p in ring]
                rsegs += [(r[i], r[(i + 1) % len(r)]) for i in range(len(r))]
            if rsegs:
                sl.append(shape_list.create_triangles_filled_with_colors(
                    _thick_lines(rsegs, 2.6), [theme.REGION_DARK[reg]] * (6 * len(rsegs))))
        coast = []
        for ring in self.shapes["coast"]:
            r = [xf(*p) for p in ring]
            coast += [(r[i], r[(i + 1) % len(r)]) for i in range(len(r))]
        sl.append(shape_list.create_triangles_filled_with_colors(
            _thick_lines(coast, 2.4), [(40, 55, 70)] * (6 * len(coast))))
        # sea routes: dashed
        dash = []
        for a, b in self.board.sea_routes[self.side]:
            (x1, y1), (x2, y2) = xf(*self.shapes["label_pos"][a]), xf(*self.shapes["label_pos"][b])
            n = max(2, int(math.hypot(x2 - x1, y2 - y1) / 8))
            for k in range(0, n, 2):
                t0, t1 = k / n, min(1.0, (k + 1) / n)
                dash.append(((x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0),
                             (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1)))
        if dash:
            sl.append(shape_list.create_triangles_filled_with_colors(
                _thick_lines(dash, 2.0), [(30, 60, 120)] * (6 * len(dash))))
        # highlights and selection
        hl = []
        for n in sorted(self.highlight):
            if n in self._screen_polys:
                poly = self._screen_polys[n]
                hl += [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
        if hl:
            sl.append(shape_list.create_triangles_filled_with_colors(
                _thick_lines(hl, 3.5), [self.highlight_colour] * (6 * len(hl))))
        if self.selected in self._screen_polys:
            poly = self._screen_polys[self.selected]
            segs = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
            sl.append(shape_list.create_triangles_filled_with_colors(
                _thick_lines(segs, 4), [(220, 30, 30)] * (6 * len(segs))))
        self._static = sl

        # tokens: army discs, buildings, unrest; and labels
        tok_pts, tok_cols = [], []
        self._text.begin()
        s = max(0.6, min(1.4, xf.scale / 900))
        for name in self.shapes["provinces"]:
            cx, cy = xf(*self.shapes["label_pos"][name])
            info = provs.get(name, {})
            self._text.put(("n", name), name, cx, cy + 9 * s, size=max(7, 8 * s),
                           color=(40, 35, 30) if name not in self.excluded else (110, 110, 110),
                           anchor_x="center", anchor_y="baseline")
            owner = info.get("owner")
            armies = info.get("armies", 0) or 0
            if owner is not None and armies:
                col = theme.seat_colour(owner)
                p, c = _circle(cx, cy - 2 * s, 9 * s + 1.5, (20, 20, 20))
                tok_pts += p; tok_cols += c
                p, c = _circle(cx, cy - 2 * s, 9 * s, col)
                tok_pts += p; tok_cols += c
                self._text.put(("a", name), str(armies), cx, cy - 2 * s, size=max(8, 9 * s),
                               color=theme.text_on(col), anchor_x="center", anchor_y="center",
                               bold=True)
            bx = cx - 14 * s
            for k, b in enumerate(info.get("buildings", []) or []):
                x = bx + 14 * s * k
                y = cy - 18 * s
                if b == "palace":
                    pts = [(x - 5 * s, y - 5 * s), (x + 5 * s, y - 5 * s), (x + 5 * s, y + 5 * s),
                           (x - 5 * s, y - 5 * s), (x + 5 * s, y + 5 * s), (x - 5 * s, y + 5 * s)]
                    tok_pts += pts; tok_cols += [(120, 30, 30)] * 6
                elif b == "temple":
                    tok_pts += [(x - 6 * s, y - 5 * s), (x + 6 * s, y - 5 * s), (x, y + 6 * s)]
                    tok_cols += [(40, 40, 120)] * 3
                else:
                    p, c = _circle(x, y, 5 * s, (30, 110, 60), 10)
                    tok_pts += p; tok_cols += c
            for k in range(int(info.get("unrest", 0) or 0)):
                p, c = _circle(cx + 13 * s + 7 * s * k, cy + 2 * s, 3.2 * s, (200, 20, 20), 8)
                tok_pts += p; tok_cols += c
        self._text.end()
        tl = shape_list.ShapeElementList()
        if tok_pts:
            tl.append(shape_list.create_triangles_filled_with_colors(tok_pts, tok_cols))
        self._tokens = tl
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_map)

    def _draw_map(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, theme.SEA)
        if self._static is not None:
            self._static.draw()
        if self._tokens is not None:
            self._tokens.draw()
        self._text.draw()

    def on_draw(self) -> None:
        self._layer.draw()
        if self.hovered and self.hovered in self._screen_polys:
            arcade.draw_polygon_outline(self._screen_polys[self.hovered], (255, 255, 255), 2.5)

    def on_draw_over(self) -> None:
        if self.hovered:
            self._draw_tooltip(self.hovered)

    def _draw_tooltip(self, name: str) -> None:
        p = self.board.provinces[name]
        info = (self.state or {}).get("provinces", {}).get(name, {})
        used = len(info.get("buildings", []) or [])
        nb = self.board.neighbours[self.side][name]
        owner = info.get("owner")
        lines = [
            f"{name}  ({p.region[self.side]} region)" + ("  — out of play" if name in self.excluded else ""),
            f"Tax {p.tax}   Rice {p.rice}   Free slots {p.slots - used}/{p.slots}",
            f"Owner: {theme.seat_name(owner) if owner is not None else 'neutral'}"
            f"   Armies {info.get('armies', 0)}   Unrest {info.get('unrest', 0)}",
            "Buildings: " + (", ".join(info.get("buildings", []) or []) or "none"),
            "Neighbours: " + ", ".join(nb),
        ]
        w, lh = 330, 16
        h = lh * 6 + 8
        cx, cy = self.province_centre(name)
        x = min(max(self.left + 4, cx + 18), self.right - w - 4)
        y = cy + 20 if cy + 20 + h < self.top else cy - 20 - h
        arcade.draw_lbwh_rectangle_filled(x, y, w, h, (255, 252, 240, 235))
        arcade.draw_lbwh_rectangle_outline(x, y, w, h, (60, 50, 40), 1)
        self._tip.begin()
        self._tip.put("t", "\n".join(lines), x + 6, y + h - 6, size=9.5, width=w - 12,
                      multiline=True, anchor_y="top", color=(25, 25, 25))
        self._tip.end()
        self._tip.draw()

    # -- input ----------------------------------------------------------------------------
    def province_at(self, x: float, y: float) -> str | None:
        if not self.contains(x, y):
            return None
        for name, poly in self._screen_polys.items():
            if point_in_poly(x, y, poly):
                return name
        return None

    def on_mouse_motion(self, x, y, dx, dy) -> None:
        hit = self.province_at(x, y)
        if hit != self.hovered:
            self.hovered = hit
            damage()
            self.province_hovered.emit(hit)

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        hit = self.province_at(x, y)
        if hit is not None:
            self.province_clicked.emit(hit)
            return True
        return False
