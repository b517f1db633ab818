"""A board with a sense of place (issue 28, item 4), looked at in the drawn pixels: the
provinces are on paper (a grain, not a flat fill), the sea has swell and lighter shallows
along the coast, unclaimed provinces carry their region's tint, an owner's colour keeps its
hue under the grain, and every name has a halo in the other tone."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from client.board.board_view import BoardView, owner_fill
from client.board.shapes import point_in_poly
from sim.board import board
from sim.game import new_game, public_state
from sim.state import GameConfig

W, H = 1280, 800


def _edge_distance(x, y, poly) -> float:
    p = np.asarray(poly, dtype=float)
    a, b = p, np.roll(p, -1, axis=0)
    ab = b - a
    t = np.clip(((x - a[:, 0]) * ab[:, 0] + (y - a[:, 1]) * ab[:, 1])
                / np.maximum(1e-9, (ab ** 2).sum(axis=1)), 0, 1)
    d = np.hypot(a[:, 0] + t * ab[:, 0] - x, a[:, 1] + t * ab[:, 1] - y)
    return float(d.min())


@pytest.fixture(scope="module")
def drawn(app):
    """The board of a new 4-player game drawn over the whole window; its pixels."""
    app.set_size(W, H)
    app.on_resize(W, H)
    view = BoardView(board(), "sun", 4)
    state, _events = new_game(GameConfig(players=4))
    pub = dict(public_state(state))
    view.set_state(pub)
    app.show(view)
    app.on_draw()
    img = np.asarray(arcade.get_image(0, 0, W, H).convert("RGB"), dtype=float)
    yield view, pub, img[::-1]          # row 0 at the bottom, as the view's coordinates
    app.show_menu()


def _inner_points(view, name, clear=14.0):
    """Pixels well inside a province, away from its name, token and outline."""
    poly = view.screen_polys[name]
    cx, cy = view.province_centre(name)
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    pts = []
    for x in np.arange(min(xs), max(xs), 3.0):
        for y in np.arange(min(ys), max(ys), 3.0):
            if (point_in_poly(x, y, poly) and not (abs(x - cx) < 75 and -35 < y - cy < 45)
                    and _edge_distance(x, y, poly) > clear):
                pts.append((int(x), int(y)))
    return pts


def _unclaimed(view, pub):
    return [n for n, p in pub["provinces"].items() if p.get("owner") is None
            and n not in view.excluded]


def test_the_provinces_are_on_paper(drawn):
    view, pub, img = drawn
    grains = []
    for name in _unclaimed(view, pub) + [n for n in pub["provinces"] if n not in _unclaimed(view, pub)]:
        pts = _inner_points(view, name)
        if len(pts) < 30:
            continue
        lum = np.array([img[y, x] @ (0.3, 0.59, 0.11) for x, y in pts])
        grains.append(lum.std())
    assert len(grains) >= 10
    assert np.median(grains) > 1.2, f"flat fills: median spread {np.median(grains):.2f}"


def test_the_sea_has_swell_and_shallows_along_the_coast(drawn):
    view, _pub, img = drawn
    open_sea = img[H - 60:H - 10, W - 60:W - 10]           # the map's top-right corner
    assert open_sea.mean(axis=(0, 1))[2] > open_sea.mean(axis=(0, 1))[0]    # blue water
    lum = open_sea @ (0.3, 0.59, 0.11)
    assert lum.std() > 2.0, f"a flat sea: spread {lum.std():.2f}"
    # just off the coast the water is lighter than far out
    coast = view.shapes["coast_arrays"]
    xf = view.transform()
    near, far = [], []
    for line in coast:
        pts = xf.apply(line)
        for (x0, y0), (x1, y1) in zip(pts[:-1:7], pts[1::7]):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            nx, ny = -(y1 - y0), x1 - x0
            d = max(1e-6, (nx * nx + ny * ny) ** 0.5)
            for sign in (1, -1):
                px, py = mx + sign * nx / d * 7, my + sign * ny / d * 7
                fx, fy = mx + sign * nx / d * 40, my + sign * ny / d * 40
                if not (0 <= fx < W and 0 <= fy < H):
                    continue
                if view.province_at(px, py) is None and view.province_at(fx, fy) is None \
                        and all(view.province_at(mx + sign * nx / d * k, my + sign * ny / d * k)
                                is None for k in (15, 25, 40, 55)):
                    near.append(img[int(py), int(px)] @ (0.3, 0.59, 0.11))
                    far.append(img[int(fy), int(fx)] @ (0.3, 0.59, 0.11))
    assert len(near) > 20
    assert np.median(np.array(near) - np.array(far)) > 8, "no shallows along the coast"


def test_unclaimed_provinces_carry_their_regions_tint(drawn):
    view, pub, img = drawn
    means: dict[str, list] = {}
    for name in _unclaimed(view, pub):
        pts = _inner_points(view, name)
        if len(pts) < 20:
            continue
        region = view.board.provinces[name].region[view.side]
        means.setdefault(region, []).append(np.mean([img[y, x] for x, y in pts], axis=0))
    regions = {r: np.mean(v, axis=0) for r, v in means.items()}
    assert len(regions) >= 3, regions.keys()
    rs = sorted(regions)
    spread = max(np.abs(regions[a] - regions[b]).max() for a in rs for b in rs)
    assert spread > 12, f"unclaimed provinces look alike whatever their region: {spread:.1f}"


def test_an_owners_colour_keeps_its_hue_under_the_grain(drawn):
    view, pub, img = drawn
    for name, p in pub["provinces"].items():
        owner = p.get("owner")
        if owner is None:
            continue
        pts = _inner_points(view, name)
        if len(pts) < 20:
            continue
        mid = np.median([img[y, x] for x, y in pts], axis=0)
        want = np.array(owner_fill(owner), dtype=float)
        # the same proportions of red, green and blue (the hue), a little darker at most
        assert np.abs(mid / mid.sum() - want / want.sum()).max() < 0.03, (name, mid, want)
        assert 0.85 * want.sum() < mid.sum() <= want.sum() + 6


def test_every_name_has_a_halo_in_the_other_tone(drawn):
    view, _pub, _img = drawn
    halos = view._halo.labels
    for name in view.shapes["provinces"]:
        label = view.texts.labels[("n", name)]
        ring = [halos[("h", name, j)] for j in range(4)]
        ink = sum(label.color[:3])
        for h in ring:
            assert h.visible and h.text == name
            assert (sum(h.color[:3]) > 450) == (ink < 300), (name, label.color, h.color)
