"""The drawn map is the game's map: two province shapes share an edge exactly when
board.json makes them land neighbours (both sides), checked from the geometry alone."""

from __future__ import annotations

import json

import numpy as np

from client.board.shapes import ASSET, point_in_poly
from sim.board import SIDES, board

TOUCH = 0.0015      # board units (~2 px at 1280 wide): closer than this counts as touching
MIN_BORDER = 0.015  # a real border must be drawn at least this long (~15 px at 1280 wide)
MAX_STRAY = 0.004   # a non-border may meet at a corner, never along an edge


def _sample(ring, step: float = 0.0008) -> np.ndarray:
    """Points along a closed ring every `step`, each standing for `step` of its length."""
    r = np.asarray(ring, dtype=float)
    out = []
    for p, q in zip(r, np.roll(r, -1, axis=0)):
        n = max(1, int(np.hypot(*(q - p)) / step))
        t = (np.arange(n) + 0.5) / n
        out.append(p + (q - p) * t[:, None])
    return np.concatenate(out)


def _dist_to_ring(pts: np.ndarray, ring) -> np.ndarray:
    r = np.asarray(ring, dtype=float)
    a, b = r, np.roll(r, -1, axis=0)
    d = b - a
    t = ((pts[:, None, :] - a[None]) * d[None]).sum(-1) / np.maximum((d * d).sum(-1), 1e-18)
    t = np.clip(t, 0, 1)
    near = a[None] + t[..., None] * d[None]
    return np.hypot(*(pts[:, None, :] - near).transpose(2, 0, 1)).min(axis=1)


def drawn_contacts(shapes: dict) -> dict[tuple[str, str], float]:
    """Length (board units) of each pair's shared drawn edge, for pairs that touch at all."""
    names = sorted(shapes)
    samples = {n: _sample(shapes[n]) for n in names}
    lens = {n: np.hypot(*np.diff(np.vstack([np.asarray(shapes[n]), shapes[n][:1]]), axis=0).T).sum()
            / len(samples[n]) for n in names}
    boxes = {n: (np.min(shapes[n], axis=0) - TOUCH, np.max(shapes[n], axis=0) + TOUCH) for n in names}
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (alo, ahi), (blo, bhi) = boxes[a], boxes[b]
            if (alo > bhi).any() or (blo > ahi).any():
                continue
            near = _dist_to_ring(samples[a], shapes[b]) < TOUCH
            if near.any():
                out[(a, b)] = float(near.sum() * lens[a])
    return out


def border_mismatches(shapes: dict, side: str) -> tuple[list, list]:
    """(borders not drawn touching, drawn shared edges that are not borders)."""
    b = board()
    contacts = drawn_contacts(shapes)
    borders = {(min(p), max(p)) for p in b.land_borders}
    missing = sorted(p for p in borders if contacts.get(p, 0.0) < MIN_BORDER)
    stray = sorted(p for p, ln in contacts.items() if p not in borders and ln > MAX_STRAY)
    # sea routes are links, not shapes: a sea-route pair must not touch either
    assert all(tuple(sorted(p)) not in borders for p in b.sea_routes[side])
    return missing, stray


def test_every_land_border_is_a_drawn_edge_and_nothing_else_is():
    shapes = json.loads(ASSET.read_text())["provinces"]
    for side in SIDES:
        missing, stray = border_mismatches(shapes, side)
        assert not missing, f"{side}: borders not drawn as a shared edge: {missing}"
        assert not stray, f"{side}: shapes share an edge but are not neighbours: {stray}"


def test_shapes_do_not_overlap():
    shapes = json.loads(ASSET.read_text())["provinces"]
    for a, ring in shapes.items():
        for b, other in shapes.items():
            if a == b:
                continue
            inside = [p for p in ring if point_in_poly(p[0], p[1], other)]
            if inside:
                d = _dist_to_ring(np.asarray(inside, dtype=float), other)
                assert (d < TOUCH).all(), f"{a} pokes into {b}"


def test_sea_routes_join_provinces_that_are_not_land_neighbours():
    shapes = json.loads(ASSET.read_text())["provinces"]
    contacts = drawn_contacts(shapes)
    for side in SIDES:
        for a, b in board().sea_routes[side]:
            assert contacts.get(tuple(sorted((a, b))), 0.0) <= MAX_STRAY, (side, a, b)
