"""The map lays out without overlaps from the smallest to the largest window (issue 13,
item 4, for the board): army tokens, province names and the legend, measured from the same
geometry the view draws with. No window is needed: only the layout arithmetic runs."""

from __future__ import annotations

import itertools

import pytest

from client.board import map_geometry as geo
from client.board.board_view import BoardView
from client.board.map_legend import legend_rect
from client.board.shapes import point_in_poly
from sim.board import board

# map areas the game scene gives the board at 960x640, 1280x800, 1920x1080, 2560x1440
# (unscaled) and two odd shapes in between; last, the logical map area at 1920x1080 and
# 2560x1440 under the automatic interface scale (1.35, 1.8: 1422x800 logical pixels)
MAP_RECTS = [(530, 416), (768, 546), (1370, 826), (2010, 1186), (640, 700), (1200, 500),
             (872, 546)]


def _overlap(a, b) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def _layout(w: int, h: int, players: int = 4):
    v = BoardView(board(), "sun", players)
    v.set_rect(0, 200, w, h)
    s = v.token_scale()
    polys = {n: [v.transform()(*p) for p in poly] for n, poly in v.shapes["provinces"].items()}
    tokens, names = {}, {}
    for n, poly in polys.items():
        cx, cy = v.province_centre(n)
        r = 10.5 * s * 1.25           # the largest seat shape's reach
        tokens[n] = (cx - r, cy - r, cx + r, cy + r)
        label, size = v.name_label(n)
        tw = geo.text_width(label, size)
        names[n] = (cx - tw / 2, cy + 11 * s, cx + tw / 2, cy + 11 * s + size * 96 / 72 * 0.75)
    return v, s, polys, tokens, names


def _problems(w: int, h: int, names_too: bool, players: int = 4) -> list[str]:
    v, s, polys, tokens, names = _layout(w, h, players)
    view = (v.left, v.bottom, v.right, v.top)
    problems = []
    for a, b in itertools.combinations(sorted(polys), 2):
        if _overlap(tokens[a], tokens[b]):
            problems.append(f"army tokens of {a} and {b} overlap")
        if names_too and _overlap(names[a], names[b]):
            problems.append(f"names {a} and {b} overlap")
    for a in polys:
        for b in polys:
            if names_too and a != b and _overlap(names[a], tokens[b]):
                problems.append(f"name {a} runs into {b}'s army token")
        for box in (tokens[a], names[a]):
            if not (box[0] >= view[0] and box[1] >= view[1] and box[2] <= view[2]
                    and box[3] <= view[3]):
                problems.append(f"{a}'s label leaves the map")
    left, bottom, lw, lh = legend_rect(v, s)
    if not (left >= view[0] and bottom >= view[1] and left + lw <= view[2] and bottom + lh <= view[3]):
        problems.append("the legend leaves the map")
    grid = [(left + lw * i / 12, bottom + lh * j / 6) for i in range(13) for j in range(7)]
    problems += [f"the legend covers {n}" for n, p in polys.items()
                 if any(point_in_poly(x, y, p) for x, y in grid)]
    return problems


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("w,h", MAP_RECTS)
def test_tokens_names_and_legend_do_not_collide(w, h, players):
    problems = _problems(w, h, names_too=True, players=players)
    assert not problems, f"at a {w}x{h} map: " + "; ".join(problems)


def test_tokens_grow_with_the_map():
    small = _layout(*MAP_RECTS[0])[1]
    large = _layout(*MAP_RECTS[3])[1]
    assert large > 2 * small
