"""The map's legend: what the building chips, the unrest badge, the hatching and the seats'
token shapes mean. Drawn in the open sea at the map's top left, sized with the map.

Tests: tests/client/board/test_board_layout.py, tests/client/core/test_colour_blind.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from client.board import map_geometry as geo
from client.core import theme
from client.core.gpu_mesh import Mesh
from client.core.palette import PATTERNS, PEASANTS, SEATS
from lang.i18n import _

if TYPE_CHECKING:
    from client.board.board_view import BoardView
    from client.core.text_cache import TextCache


def _rows(excluded: bool, narrow: bool = False) -> list[list[tuple[str, str]]]:
    buildings = [("palace", _("Castle")), ("temple", _("Temple")), ("theatre", _("Nō theatre"))]
    seats = [(f"seat:{k}", _(st.name)) for k, st in enumerate(SEATS)] + [("seat:5", _(PEASANTS.name))]
    if excluded or narrow:   # a fourth row rather than a wider box (it would reach Noto)
        more = [("unrest", _("Unrest"))] + ([("hatch", _("Out of play"))] if excluded else [])
        return [buildings, more, seats[:3], seats[3:]]
    return [buildings + [("unrest", _("Unrest"))], seats[:3], seats[3:]]


def _type(s: float) -> float:
    """The legend's words: with the map, but never under 11 px (issue 37, item 11)."""
    return max(theme.SMALLEST_TYPE, int(16 * s) / 2)


def _row(s: float) -> float:
    return max(17 * s, _type(s) * 1.6)


def _item_width(label: str, s: float) -> float:
    """An entry's width: icon, gap, its word (measured as bold, a little wider), spacing."""
    return 19 * s + geo.text_width(label, _type(s)) + 8 * s


def legend_rect(view: BoardView, s: float) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) of the legend box in window pixels."""
    rows = _rows(bool(view.excluded), _type(s) > int(16 * s) / 2)
    width = max(sum(_item_width(label, s) for _, label in row) for row in rows) + 10 * s
    height = len(rows) * _row(s) + 8 * s
    xf = view.transform()
    x0, y0, _x1, _y1 = view.shapes["bounds"]
    left, top = xf(x0, y0)
    return left + 4 * s, top - 4 * s - height, width, height


def draw_legend(view: BoardView, s: float, text: TextCache) -> Mesh:
    """Shapes of the legend (its words go into `text`, the view's TextCache)."""
    mesh = Mesh()
    put = mesh.add

    left, bottom, width, height = legend_rect(view, s)
    put(geo.rect(left, bottom, left + width, bottom + height), (60, 55, 50))
    put(geo.rect(left + 1, bottom + 1, left + width - 1, bottom + height - 1), (250, 247, 238))
    y = bottom + height - 4 * s - _row(s) / 2
    for r, row in enumerate(_rows(bool(view.excluded), _type(s) > int(16 * s) / 2)):
        x = left + 6 * s
        for kind, label in row:
            ix = x + 7 * s
            if kind in ("palace", "temple", "theatre"):
                put(geo.building_icon(kind, ix, y, 0.95 * s), theme.BUILDING_COLOURS[kind])
            elif kind == "unrest":
                put(geo.fan(geo.regular_polygon(ix, y, 6.2 * s, 16)), theme.UNREST)
            elif kind == "hatch":
                sq = [(ix - 6 * s, y - 6 * s), (ix + 6 * s, y - 6 * s), (ix + 6 * s, y + 6 * s),
                      (ix - 6 * s, y + 6 * s)]
                put(geo.fan(sq), theme.EXCLUDED)
                put(geo.thick_lines(geo.hatch(sq, 4 * s), 1.2 * s), theme.EXCLUDED_HATCH)
            else:
                seat = int(kind.split(":")[1])
                st = PEASANTS if seat == 5 else SEATS[seat]
                if view.colour_blind and seat in PATTERNS:
                    sq = [(ix - 7 * s, y - 7 * s), (ix + 7 * s, y - 7 * s), (ix + 7 * s, y + 7 * s),
                          (ix - 7 * s, y + 7 * s)]          # the seat's stripes behind its shape
                    put(geo.fan(sq), st.colour)
                    ink = theme.mix(st.colour, theme.text_on(st.colour), 0.5)
                    for angle in PATTERNS[seat]:
                        put(geo.thick_lines(geo.stripes(sq, 3.5 * s, angle), 1.1 * s), ink)
                ring = (150, 150, 150) if sum(st.colour) < 200 else (15, 15, 15)
                put(geo.fan(geo.shape_outline(st.shape, ix, y, 6.8 * s)), ring)
                put(geo.fan(geo.shape_outline(st.shape, ix, y, 5.4 * s)), st.colour)
            text.put(("legend", r, kind), label, x + 19 * s, y, size=_type(s), color=theme.INK,
                     anchor_y="center")
            x += _item_width(label, s)
        y -= _row(s)
    return mesh
