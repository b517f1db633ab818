"""The map: 45 provinces as filled shapes, owners, armies, buildings, unrest, sea routes.

Inputs (call down): `set_state(public_state)`, `set_highlight(names)`, `set_selected(name)`,
`set_arrow(origin, target, colour)` (a battle: from the attacking province to the target;
a revolt has no origin and rings the target), `set_marks(marks)` (winter scoring badges).
Signals (up): `province_clicked(name)`, `province_hovered(name or None)`.

Reading order on the map (issue 13): the owner's colour fills the province (an unclaimed one
is parchment tinted by its region), on paper grain over a sea with swell and shallows along
the coast (issue 28, `map_textures.py`); the region is a
band along the inside of its outline and a heavy line where regions meet; names carry a
halo; armies are a
high-contrast token in the seat's shape (colour is never the only cue); buildings are
silhouettes on white chips, explained by a legend; unrest is a red badge with its count;
provinces out of play in a 3-player game are hatched grey.

The whole map is one cached picture (`picture`), rebuilt when its inputs change; the battle
arrow alone redraws only its part of it (issue 48).

Tests: tests/client/board/test_board_layout.py, tests/client/board/test_board_clicks.py, tests/client/board/test_event_marks.py, tests/client/core/test_colour_blind.py, tests/client/board/test_map_arrow.py.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

import arcade
import numpy as np

from client.board import map_geometry as geo
from client.core import theme
from client.board.map_legend import draw_legend, legend_rect
from client.board.map_textures import TexturedMesh
from client.core.gpu_mesh import Mesh
from client.core.cached_layer import CachedLayer
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.core.palette import PATTERNS, style_of
from client.board.shapes import MapTransform, load_shapes, point_in_poly
from lang.i18n import N_, Translated, _, ngettext
from client.board.map_marks import build_event_badges
from client.board.map_marks import Put, build_winter_marks
from client.board.map_marks import province_notes

if TYPE_CHECKING:
    from sim.board import Board
    from sim.snapshot import ProvinceView, PublicState

LINE = (70, 62, 54)
REGION_LINE = (20, 18, 16)
COAST = (30, 50, 70)
SHALLOWS = (196, 224, 230)      # the lighter water along the coast
REGION_TINT = 0.22              # how much of its region's colour an unclaimed province takes
ROUTE = (20, 50, 120)
BUILDING_NAMES = Translated({"palace": N_("castle"), "temple": N_("temple"), "theatre": N_("Nō theatre")})


def _pt(size: float) -> float:
    """Font sizes in whole half-points: pyglet clips glyphs at some fractional sizes."""
    return max(1.0, int(size * 2) / 2)


def _union(a: tuple[float, float, float, float],
           b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _area(r: tuple[float, float, float, float]) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def owner_fill(owner: int | str | None) -> tuple[int, int, int]:
    """A province's fill: its owner's colour (slightly softened so names stay readable)."""
    style = style_of(owner)
    if owner is None or style is None:
        return theme.UNCLAIMED
    return theme.mix(style.colour, (255, 255, 255), 0.12)


class BoardView(Node):
    def __init__(self, board: Board, side: str = "sun", players: int = 4) -> None:
        super().__init__("board")
        self.board = board
        self.side = side
        self.players = players
        self.shapes = load_shapes()
        self.state: PublicState | None = None
        # what the map's picture shows of the last state given: the provinces and the
        # round's event, copied (a game log's events patch the state in place)
        self._shown: tuple[object, object] | None = None
        self.highlight: set[str] = set()
        self.highlight_colour = (255, 215, 0)
        self.selected: str | None = None
        self.hovered: str | None = None
        self.province_clicked = Signal("province_clicked")
        self.province_hovered = Signal("province_hovered")
        self._static: Mesh | None = None
        self._tokens: Mesh | None = None
        self._legend: Mesh | None = None
        self._marks: Mesh | None = None       # the winter marks, over the arrow
        # the battle arrow as drawn into the picture (issue 48): its mesh, what it shows
        # and the window's rectangle it covers (left, bottom, right, top)
        self._arrow: tuple[Mesh, tuple[str | None, str, tuple[int, ...]] | None,
                           tuple[float, float, float, float] | None] | None = None
        self.texts = TextCache()
        self._halo = TextCache()              # the names' halos, under the names
        self.mark_boxes: list[tuple[float, float, float, float]] = []   # winter marks (map_marks)
        # what else the winter marks keep clear of, asked at each build (left, bottom,
        # width, height): the winter show's title at the top of the map
        self.marks_clear_of: Callable[[], Sequence[tuple[float, float, float, float]]] = tuple
        self._short_names: dict[tuple[str, float], str] = {}     # see `name_label`
        self._ground: list[Mesh | TexturedMesh] = []
        self._water_key: tuple[float, ...] = ()
        self._water: tuple[TexturedMesh, TexturedMesh, Mesh, TexturedMesh] | None = None
        self._open_sea: tuple[tuple[float, ...], TexturedMesh] | None = None
        self._xf: MapTransform | None = None
        self._layer = CachedLayer()
        self.screen_polys: dict[str, list[tuple[float, float]]] = {}
        self._route_ends: dict[tuple[str, str], tuple[int, int]] = {}
        self.excluded = set(board.excluded_3p[side]) if players == 3 else set()
        # (origin or None, target, colour)
        self.arrow: tuple[str | None, str, tuple[int, ...]] | None = None
        self.marks: dict[str, list[tuple[int, str]]] = {}              # region -> [(seat, text)] (winter scoring)
        self.colour_blind = False             # stripes per owner and letter chips (settings)

    # -- inputs ---------------------------------------------------------------------------
    def set_colour_blind(self, on: bool) -> None:
        """Colour-blind mode: every owned province carries its owner's stripe pattern
        (`palette.PATTERNS`) and a chip with the owner's letter beside the army token."""
        if bool(on) != self.colour_blind:
            self.colour_blind = bool(on)
            self.mark_dirty()

    def set_state(self, state: PublicState | None) -> None:
        """The state the map shows. Its picture is drawn again only when what it shows
        changed (the provinces, the round's event): most events change neither (a card
        turned, an action revealed, a tower's drop), and a rebuild is a 30-60 ms frame on
        llvmpipe (issue 48: the stage's first frame and nearly every event's frame drew
        the whole map again)."""
        self.state = state
        shown = None if state is None else \
            (copy.deepcopy(state["provinces"]), copy.deepcopy(state.get("current_event")))
        if shown != self._shown or shown is None:
            self._shown = shown
            self.mark_dirty()

    def set_highlight(self, names: Iterable[str] | None,
                      colour: tuple[int, int, int] = (255, 215, 0)) -> None:
        names = set(names or ())
        if names != self.highlight or colour != self.highlight_colour:
            self.highlight = names
            self.highlight_colour = colour
            self.mark_dirty()

    def set_selected(self, name: str | None) -> None:
        if name != self.selected:
            self.selected = name
            self.mark_dirty()

    def set_arrow(self, origin: str | None, target: str | None,
                  colour: tuple[int, ...] = (200, 30, 30)) -> None:
        """The battle arrow (None: no arrow). Only the part of the map's picture under the
        old and the new arrow is drawn again at the next draw (`rebuild_if_dirty`), not the
        whole map (issue 48: a rebuild from scratch was an 80-110 ms frame just before the
        stage opened and another just after it closed)."""
        arrow = (origin, target, tuple(colour)) if target else None
        if arrow != self.arrow:
            self.arrow = arrow
            damage()

    def set_marks(self, marks: Mapping[str, list[tuple[int, str]]] | None) -> None:
        """Winter scoring: region -> [(seat, "palace 3, temple 2")], drawn at the region."""
        marks = dict(marks or {})
        if marks != self.marks:
            self.marks = marks
            self.mark_dirty()

    def region_centre(self, region: str) -> tuple[float, float]:
        """The middle of a region's province labels (where its scoring badges go)."""
        pts = [self.province_centre(n) for n, p in self.board.provinces.items()
               if p.region[self.side] == region and n not in self.excluded]
        if not pts:
            return self.left + self.width / 2, self.bottom + self.height / 2
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)

    def arrow_ends(self) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """Screen points where the battle arrow starts and where its head's tip is."""
        if not self.arrow or not self.arrow[0] or self.arrow[1] not in self.shapes["label_pos"]:
            return None
        (x0, y0), (x1, y1) = self.province_centre(self.arrow[0]), self.province_centre(self.arrow[1])
        d = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
        trim = min(14 * self.token_scale(), d * 0.2)
        ux, uy = (x1 - x0) / d, (y1 - y0) / d
        return (x0 + ux * trim, y0 + uy * trim), (x1 - ux * trim, y1 - uy * trim)

    def rebuild_if_dirty(self) -> None:
        """The whole picture rebuilt if marked dirty; else, if only the arrow changed, the
        picture drawn again (everything, in the same order) where the old and the new
        arrow lie, pixel for pixel what a rebuild draws there."""
        super().rebuild_if_dirty()
        if self._arrow is None or self._arrow[1] == self.arrow:
            return
        rect = (self.left, self.bottom, self.width, self.height)
        if not self._layer.holds(rect):
            self.rebuild()
            return
        old = self._arrow[2]
        self._arrow = self._arrow_mesh(self.token_scale())
        new = self._arrow[2]
        boxes = [b for b in (old, new) if b is not None]
        if len(boxes) == 2 and _area(_union(*boxes)) <= _area(boxes[0]) + _area(boxes[1]):
            boxes = [_union(*boxes)]
        for box in boxes:
            self._layer.render(rect, partial(self._draw_map_in, box), clear=False)

    def _arrow_mesh(self, s: float) -> tuple[Mesh, tuple[str | None, str, tuple[int, ...]] | None,
                                           tuple[float, float, float, float] | None]:
        """The arrow's triangles, what they show and the rectangle round them (a margin
        for the edges' pixels), or no rectangle for no arrow."""
        mesh = Mesh()
        pts: list[np.ndarray] = []

        def put(shape: object, colour: Sequence[int]) -> None:
            a = np.asarray(shape, dtype="f4").reshape(-1, 2)
            if len(a):
                mesh.add(a, colour)
                pts.append(a)
        self._build_arrow(put, s)
        if not pts:
            return mesh, self.arrow, None
        a = np.concatenate(pts)
        (x0, y0), (x1, y1) = a.min(axis=0), a.max(axis=0)
        m = 3.0
        return mesh, self.arrow, (float(x0) - m, float(y0) - m, float(x1) + m, float(y1) + m)

    def _draw_map_in(self, box: tuple[float, float, float, float]) -> None:
        """The map drawn whole but only inside `box` (left, bottom, right, top in window
        coordinates), into the picture's framebuffer (`CachedLayer.render`)."""
        ctx = arcade.get_window().ctx
        fbo = ctx.active_framebuffer
        surface = self._layer.surface
        lrect = self._layer.rect
        assert surface is not None and lrect is not None    # `holds` said so
        k, (l, b) = surface.pixel_ratio, lrect[:2]
        fw, fh = fbo.size
        x0, y0 = max(0, int((box[0] - l) * k)), max(0, int((box[1] - b) * k))
        x1, y1 = min(fw, int((box[2] - l) * k) + 2), min(fh, int((box[3] - b) * k) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        part = (x0, y0, x1 - x0, y1 - y0)
        fbo.clear(viewport=part)
        ctx.scissor = part
        try:
            self._draw_map()
        finally:
            ctx.scissor = None

    def _build_arrow(self, put: Put, s: float) -> None:
        arrow = self.arrow
        if arrow is None:
            return
        ends = self.arrow_ends()
        colour = arrow[2]
        edge = (255, 255, 255) if sum(colour) < 200 else (20, 20, 20)
        if ends is None:          # a revolt: a ring round the province
            if arrow[1] in self.screen_polys:
                segs = geo.polyline_segments(self.screen_polys[arrow[1]], closed=True)
                put(geo.thick_lines(segs, 6 * s), edge)
                put(geo.thick_lines(segs, 3.5 * s), colour)
            return
        (x0, y0), (x1, y1) = ends
        d = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
        ux, uy = (x1 - x0) / d, (y1 - y0) / d
        head = min(18 * s, d * 0.45)
        bx, by = x1 - ux * head, y1 - uy * head
        wing = head * 0.6
        tri = [(x1, y1), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
        big = [(x1 + ux * 2.5 * s, y1 + uy * 2.5 * s),
               (bx - uy * (wing + 3 * s) - ux * 2 * s, by + ux * (wing + 3 * s) - uy * 2 * s),
               (bx + uy * (wing + 3 * s) - ux * 2 * s, by - ux * (wing + 3 * s) - uy * 2 * s)]
        put(geo.thick_lines([((x0, y0), (bx, by))], 9 * s), edge)
        put(big, edge)
        put(geo.thick_lines([((x0, y0), (bx + ux, by + uy))], 5.5 * s), colour)
        put(tri, colour)

    def on_layout(self) -> None:
        """A new place or size: the map's transform is worked out again when next asked
        (a card placed after a resize, before the map's next drawing, read the old one:
        the tutorial's plan card covered Noto and Kaga after 960x640 -> 1280x800)."""
        self._xf = None

    # -- drawing --------------------------------------------------------------------------
    def transform(self) -> MapTransform:
        return MapTransform(self.shapes["bounds"], self.left + 4, self.bottom + 4,
                            self.width - 8, self.height - 8, y_stretch=1.7)

    def token_scale(self) -> float:
        """Size of names and tokens relative to a 1280x800 window's map."""
        xf = self._xf or self.transform()
        return max(0.8, min(2.2, xf.scale / 620))

    def legend_box(self) -> tuple[float, float, float, float]:
        """The legend's box (left, bottom, width, height): cards placed on the map keep
        clear of it (`BattleShow.card_rect`)."""
        return legend_rect(self, self.token_scale())

    def name_size(self, name: str) -> float:
        """A province's name size in points: shrunk where the generator found it too wide."""
        return _pt(8.5 * self.token_scale() * self.shapes.get("label_size", {}).get(name, 1.0))

    def name_label(self, name: str) -> tuple[str, float]:
        """A province's name as drawn, and its size: never under 11 px (SMALLEST_TYPE).
        Where the room the generator found is too small for that (a 960x640 window), the
        name is shortened with a dot ('Shimot.'); its tooltip names it whole (issue 37)."""
        size = self.name_size(name)
        floor = theme.SMALLEST_TYPE
        if size >= floor:
            return name, size
        key = (name, size)
        if key not in self._short_names:
            # a name the generator kept whole has room to spare, unless it then meets a
            # neighbour's name; a crowded one has not
            room = geo.text_width(name, size) * 1.1
            if self.shapes.get("label_size", {}).get(name, 1.0) >= 1.0 \
                    and not self._meets_a_name(name, geo.text_width(name, floor), floor):
                room = geo.text_width(name, floor)
            label = name
            for n in range(len(name) - 1, 2, -1):
                if geo.text_width(label, floor) <= room:
                    break
                label = name[:n].rstrip("-") + "."
            self._short_names[key] = label
        return self._short_names[key], floor

    def _meets_a_name(self, name: str, width: float, size: float) -> bool:
        """Would `name`, `width` wide at `size`, run into another province's name (drawn
        at most 1.1 times its generator's width)?"""
        s = self.token_scale()
        cx, cy = self.province_centre(name)
        h = size * 96 / 72 * 0.75
        for other in self.shapes["provinces"]:
            if other == name:
                continue
            ox, oy = self.province_centre(other)
            ow = geo.text_width(other, self.name_size(other)) * 1.1
            if abs(ox - cx) * 2 < ow + width and abs(oy - cy) < h + 2:
                return True
        return False

    def province_centre(self, name: str) -> tuple[float, float]:
        xf = self._xf or self.transform()
        return xf(*self.shapes["label_pos"][name])

    def province_box(self, name: str) -> tuple[float, float, float, float]:
        """The screen rectangle (left, bottom, width, height) around a province's outline,
        at the map's present size (what a card or a banner keeps clear of)."""
        a = (self._xf or self.transform()).apply(self.shapes["arrays"][name])
        (x0, y0), (x1, y1) = a.min(axis=0), a.max(axis=0)
        return (float(x0), float(y0), float(x1 - x0), float(y1 - y0))

    def rebuild(self) -> None:
        xf = self._xf = self.transform()
        s = self.token_scale()
        provs = self.state["provinces"] if self.state else {}
        arrays = self.shapes["arrays"]
        self.screen_polys = {n: xf.apply(a).tolist() for n, a in arrays.items()}
        mesh = Mesh()
        hatch = []
        self._build_ground(provs, s)
        for name, a in arrays.items():
            poly = xf.apply(a)
            if name in self.excluded:
                hatch += geo.hatch([tuple(p) for p in poly], 7 * s)
                continue
            owner = provs[name]["owner"] if name in provs else None
            if self.colour_blind and owner in PATTERNS:
                fill = owner_fill(owner)
                ink = theme.mix(fill, theme.text_on(fill), 0.4)
                pts = [tuple(p) for p in poly]
                for angle in PATTERNS[owner]:
                    mesh.add(geo.thick_lines(geo.stripes(pts, 7 * s, angle), 1.3 * s), ink)
            region = self.board.provinces[name].region[self.side]
            mesh.add(geo.inner_band(poly, self.province_centre(name), 6 * s),
                     theme.REGION_COLOURS[region])
        mesh.add(geo.thick_lines(hatch, 1.6 * s), theme.EXCLUDED_HATCH)
        # lines: thin between provinces of one region, heavy between regions, coast
        thin: list[np.ndarray] = []
        heavy: list[np.ndarray] = []
        coast: list[np.ndarray] = []
        for (a, b), line in self.shapes["border_arrays"].items():
            same = self.board.provinces[a].region[self.side] == self.board.provinces[b].region[self.side]
            (thin if same else heavy).append(geo.segments_of(xf.apply(line)))
        for line in self.shapes["coast_arrays"]:
            coast.append(geo.segments_of(xf.apply(line)))
        mesh.add(geo.thick_lines(np.concatenate(thin), 1.2 * s), LINE)
        mesh.add(geo.thick_lines(np.concatenate(heavy), 3.2 * s), REGION_LINE)
        mesh.add(geo.thick_lines(np.concatenate(coast), 2.2 * s), COAST)
        # sea routes: white-edged dashes from coast to coast
        dash = []
        for a, b in self.board.sea_routes[self.side]:
            path = self.shapes["sea_routes"][f"{a}|{b}"]
            if (a, b) not in self._route_ends:      # board space: computed once
                self._route_ends[(a, b)] = geo.route_ends(
                    path, self.shapes["provinces"][a], self.shapes["provinces"][b])
            i0, i1 = self._route_ends[(a, b)]
            dash += geo.dashes([xf(*p) for p in path[i0:i1 + 1]], 9 * s)
        mesh.add(geo.thick_lines(dash, 4.6 * s), (250, 250, 250))
        mesh.add(geo.thick_lines(dash, 2.4 * s), ROUTE)
        # highlights and selection
        hl = [seg for n in sorted(self.highlight) if n in self.screen_polys
              for seg in geo.polyline_segments(self.screen_polys[n], closed=True)]
        mesh.add(geo.thick_lines(hl, 3.5 * s), self.highlight_colour)
        if self.selected in self.screen_polys:
            segs = geo.polyline_segments(self.screen_polys[self.selected], closed=True)
            mesh.add(geo.thick_lines(segs, 4.5 * s), (220, 30, 30))
        self._static = mesh
        self._build_tokens(provs, s)
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_map)

    def _build_ground(self, provs: Mapping[str, ProvinceView], s: float) -> None:
        """The sea with its swell, the shallows along the coast, the land's shadow on the
        water, and the provinces on paper: the owner's colour, or an unclaimed province's
        parchment tinted by its region (issue 28, item 4)."""
        xf = self._xf or self.transform()
        key = (self.left, self.bottom, self.right, self.top)
        if self._water is None or self._water_key != key:   # depends on the map's place only
            self._water_key = key
            self._water = self._build_water(xf, s)
        land = TexturedMesh("paper", 170 * s)
        for name, tris in self.shapes["triangle_arrays"].items():
            owner = provs[name]["owner"] if name in provs else None
            if name in self.excluded:
                fill = theme.EXCLUDED
            elif owner is None or style_of(owner) is None:
                region = self.board.provinces[name].region[self.side]
                fill = theme.mix(theme.UNCLAIMED, theme.REGION_COLOURS[region], REGION_TINT)
            else:
                fill = owner_fill(owner)
            land.add(xf.apply(tris), fill)
        sea, shallows, under, lakes = self._water
        self._ground = [sea, shallows, under, land, lakes]

    def _build_water(self, xf: MapTransform, s: float) -> tuple[TexturedMesh, TexturedMesh,
                                                                    Mesh, TexturedMesh]:
        """The sea, the shallows, the land's shadow and the lakes (built once per size)."""
        l, b, r, t = self.left, self.bottom, self.right, self.top
        sea = TexturedMesh("sea", 240 * s)
        sea.add([(l, b), (r, b), (r, t), (l, b), (r, t), (l, t)], theme.SEA)
        # shallows: opaque bands (alpha would pile up where the segments overlap), on the
        # same swell as the open sea
        shallows = TexturedMesh("sea", 240 * s)
        coast = [geo.segments_of(xf.apply(line)) for line in self.shapes["coast_arrays"]]
        if coast:
            segs = np.concatenate(coast)
            shallows.add(geo.thick_lines(segs, 20 * s), theme.mix(theme.SEA, SHALLOWS, 0.35))
            shallows.add(geo.thick_lines(segs, 10 * s), theme.mix(theme.SEA, SHALLOWS, 0.7))
        under = Mesh()
        dx, dy = 2.5 * s, -2.5 * s
        for name, tris in self.shapes["triangle_arrays"].items():
            under.add(xf.apply(tris) + (dx, dy), (25, 40, 55, 70))
        lakes = TexturedMesh("sea", 240 * s)
        for tris in self.shapes["hole_triangle_arrays"]:
            lakes.add(xf.apply(tris), theme.SEA)
        return sea, shallows, under, lakes

    def _build_tokens(self, provs: Mapping[str, ProvinceView], s: float) -> None:
        """Names, army tokens, building chips and unrest badges (one triangle batch)."""
        tl = Mesh()
        put = tl.add

        self.texts.begin()
        self._halo.begin()
        for name in self.shapes["provinces"]:
            cx, cy = self.province_centre(name)
            info: ProvinceView | dict[str, None] = provs.get(name, {})
            owner = info.get("owner")
            fill = theme.EXCLUDED if name in self.excluded else owner_fill(owner)
            label, size = self.name_label(name)
            ink = theme.text_on(fill) if name not in self.excluded else (70, 70, 70)
            self.texts.put(("n", name), label, cx, cy + 11 * s, size=size, color=ink,
                           anchor_x="center", anchor_y="baseline", bold=True)
            # a halo in the other tone keeps the name legible on paper grain, stripes
            # and region bands
            halo = (250, 246, 236, 190) if sum(ink) < 300 else (25, 22, 20, 190)
            o = max(0.8, 0.9 * s)
            for j, (hx, hy) in enumerate(((-o, -o), (o, -o), (-o, o), (o, o))):
                self._halo.put(("h", name, j), label, cx + hx, cy + 11 * s + hy, size=size,
                               color=halo, anchor_x="center", anchor_y="baseline", bold=True)
            armies = info.get("armies", 0) or 0
            style = style_of(owner)
            if style is not None and armies:
                ring = (235, 235, 235) if sum(style.colour) < 200 else (15, 15, 15)
                put(geo.fan(geo.shape_outline(style.shape, cx + 1.6 * s, cy - 1.6 * s, 11 * s)),
                    (0, 0, 0, 80))                       # its shadow on the paper
                put(geo.fan(geo.shape_outline(style.shape, cx, cy, 10.5 * s)), ring)
                put(geo.fan(geo.shape_outline(style.shape, cx, cy, 8.5 * s)), style.colour)
                self.texts.put(("a", name), str(armies), cx, cy,
                               size=max(theme.SMALLEST_TYPE, _pt(9.5 * s)),
                               color=theme.text_on(style.colour), anchor_x="center",
                               anchor_y="center", bold=True)
            if self.colour_blind and style is not None and owner in PATTERNS:
                lx, ly = cx - 17 * s, cy + 4 * s      # the owner's letter, left of the token
                put(geo.fan(geo.regular_polygon(lx, ly, 7.5 * s, 16)), (20, 20, 20))
                put(geo.fan(geo.regular_polygon(lx, ly, 6.4 * s, 16)), (255, 255, 255))
                self.texts.put(("L", name), style.letter, lx, ly,
                               size=max(theme.SMALLEST_TYPE, _pt(8.5 * s)),
                               color=(20, 20, 20), anchor_x="center", anchor_y="center",
                               bold=True)
            blds = info.get("buildings", []) or []
            for k, b in enumerate(blds):
                x = cx + (k - (len(blds) - 1) / 2) * 17 * s
                y = cy - 17 * s
                put(geo.rect(x - 6.5 * s, y - 8.5 * s, x + 9 * s, y + 5.5 * s), (0, 0, 0, 70))
                put(geo.rect(x - 7.5 * s, y - 7 * s, x + 7.5 * s, y + 7 * s), (20, 20, 20))
                put(geo.rect(x - 6.5 * s, y - 6 * s, x + 6.5 * s, y + 6 * s), (252, 250, 244))
                put(geo.building_icon(b, x, y, 0.95 * s), theme.BUILDING_COLOURS.get(b, (80, 80, 80)))
            unrest = int(info.get("unrest", 0) or 0)
            if unrest:
                ux, uy = cx + 17 * s, cy + 4 * s
                put(geo.fan(geo.regular_polygon(ux, uy, 7.5 * s, 16)), (255, 255, 255))
                put(geo.fan(geo.regular_polygon(ux, uy, 6.2 * s, 16)), theme.UNREST)
                self.texts.put(("u", name), str(unrest), ux, uy,   # never under 11 px
                               size=max(theme.SMALLEST_TYPE, _pt(7.5 * s)),
                               color=(255, 255, 255), anchor_x="center", anchor_y="center",
                               bold=True)
        build_event_badges(self, put, provs, s)
        self._arrow = self._arrow_mesh(s)     # over the tokens, its own mesh (`set_arrow`)
        marks = Mesh()
        if self.marks:
            self._build_marks(marks.add, s)
        self._tokens, self._marks = tl, marks
        self._legend = draw_legend(self, s, self.texts)
        self.texts.end()
        self._halo.end()

    def _build_marks(self, put: Put, s: float) -> None:
        build_winter_marks(self, put, s)

    @property
    def picture(self) -> CachedLayer:
        """The map as last drawn (the battle stage's camera zooms into it)."""
        return self._layer

    @property
    def open_sea(self) -> TexturedMesh | None:
        """The sea with its swell, from the map's place far out past it (the battle
        stage's camera move draws it where the zoomed map does not reach the window's
        edge); None before the map is first drawn."""
        if self._water is None:
            return None
        if self._open_sea is None or self._open_sea[0] != self._water_key:
            l, b, r, t = self._water_key
            far = 4 * max(r - l, t - b)
            sea = TexturedMesh("sea", self._water[0].tile)
            sea.add([(l - far, b - far), (r + far, b - far), (r + far, t + far), (l - far, b - far),
                     (r + far, t + far), (l - far, t + far)], theme.SEA)
            self._open_sea = (self._water_key, sea)
        return self._open_sea[1]

    def _draw_map(self) -> None:
        for part in self._ground:
            part.draw()
        if self._static is not None:
            self._static.draw()
        if self._legend is not None:
            self._legend.draw()
        if self._tokens is not None:
            self._tokens.draw()
        if self._arrow is not None:
            self._arrow[0].draw()
        if self._marks is not None:
            self._marks.draw()
        self._halo.draw()
        self.texts.draw()

    def on_draw(self) -> None:
        self._layer.draw()
        if self.hovered and self.hovered in self.screen_polys:
            arcade.draw_polygon_outline(self.screen_polys[self.hovered], (255, 255, 255), 2.5)

    def tooltip_at(self, x: float, y: float) -> str | None:
        """What the province under the mouse is (the scene's tooltip shows it, over every
        panel and the tower, inside the window)."""
        name = self.hovered if self.hovered and self.contains(x, y) else None
        return self.tooltip_text(name) if name else None

    def tooltip_text(self, name: str) -> str:
        """A province in sentences: region, tax, rice, slots, owner, armies, buildings,
        neighbours and what this round's event and cards do there."""
        p = self.board.provinces[name]
        info: ProvinceView | dict[str, None] = (self.state["provinces"].get(name, {})
                                                 if self.state else {})
        blds = info.get("buildings", []) or []
        used = len(blds)
        nb = self.board.neighbours[self.side][name]
        sea = {b if a == name else a for a, b in self.board.sea_routes[self.side] if name in (a, b)}
        owner = info.get("owner")
        armies = int(info.get("armies", 0) or 0)
        region = p.region[self.side]
        lines = [
            (_("{province}  ({region})  — out of play in a 3-player game")
             if name in self.excluded else _("{province}  ({region})")).format(
                province=name, region=_(theme.REGION_NAMES.get(region, region))),
            _("Tax {tax}   Rice {rice}   Free building slots {free} of {slots}").format(
                tax=p.tax, rice=p.rice, free=p.slots - used, slots=p.slots),
            ngettext("Owner: {owner}   {n} army   Unrest {unrest}",
                     "Owner: {owner}   {n} armies   Unrest {unrest}", armies).format(
                owner=theme.seat_name(owner), n=armies, unrest=info.get("unrest", 0)),
            _("Buildings: {list}").format(
                list=", ".join(BUILDING_NAMES.get(b, b) for b in blds) or _("none")),
            _("Neighbours: {list}").format(list=", ".join(
                _("{province} (by sea)").format(province=n) if n in sea else n for n in nb)),
        ]
        lines += province_notes(self, name)
        return "\n".join(lines)

    # -- input ----------------------------------------------------------------------------
    def province_at(self, x: float, y: float) -> str | None:
        if not self.contains(x, y):
            return None
        for name, poly in self.screen_polys.items():
            if point_in_poly(x, y, poly):
                return name
        return None

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        hit = self.province_at(x, y)
        if hit != self.hovered:
            self.hovered = hit
            damage()
            self.province_hovered.emit(hit)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        hit = self.province_at(x, y)
        if hit is not None:
            self.province_clicked.emit(hit)
            return True
        return False
