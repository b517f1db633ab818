"""Generate assets/provinces.json: province outlines whose shared edges are exactly the board's
land borders (board.json), so that the drawn map is the game's map.

Run once (the output is committed):  .venv/bin/python tools/make_province_shapes.py
It needs `triangle` (a dev dependency); the game itself only reads the JSON.

Why this method: nearest-anchor (Voronoi) cells make whoever is geometrically close touch,
which is not what the board says (Omi-Owari touched, Mino-Omi did not). Here adjacency is
built in rather than hoped for:
1. Anchors are the board.json positions (a few nudged, see ANCHOR_NUDGES, so that the
   straight segments of the land borders do not cross). Work is done in "screen" space,
   y stretched by Y_STRETCH like client.board.shapes.MapTransform.
2. A constrained Delaunay triangulation (Shewchuk's Triangle) of the anchors plus sea points
   around a smooth coast guide, with every land border forced in as a segment.
3. Any triangulation edge joining two provinces that are not neighbours gets a dummy point
   at its middle (a lake/mountain inside the land, open sea outside) and the triangulation
   is redone, until every province-province edge is a land border.
4. Cells are the weighted dual: each province's cell is bounded by points on its edges and
   inside its triangles, so two cells share a boundary exactly when their anchors share a
   triangulation edge, i.e. exactly when they are land neighbours. Dummies get small
   weights, so lakes stay small and the coast sits near the sea points.
5. Every dual segment gets a deterministic wiggle computed once and shared by the two cells
   on either side, so the outlines look hand-drawn and still fit together exactly.
Sea routes are not shapes: the client draws them as dashed links.

Tests: tests/client/board/test_shapes_asset.py checks the asset it wrote (the script itself
needs `triangle` and is run by hand).
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import contourpy
import numpy as np
import triangle

import sys
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from client.board.map_geometry import text_width  # noqa: E402  (the client's measure of a name)

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "assets" / "board.json"
OUT = ROOT / "assets" / "provinces.json"

Y_STRETCH = 1.3
SHIKOKU = {"Iyo", "Tosa", "Sanuki", "Awa-Shikoku"}
# Positions moved (board space) so that no two land-border segments cross:
# Yamato sits on the Ise-Kii line, Owari on the Ise-Mino line.
# Others are spread a little where small provinces crowd (Mimasaka/Bitchu, Settsu/Yamato) so
# their army tokens and names fit (tests/client/board/test_board_layout.py).
ANCHOR_NUDGES = {"Yamato": (0.456, 0.268), "Owari": (0.572, 0.214), "Kii": (0.382, 0.305),
                 "Settsu": (0.412, 0.206), "Mimasaka": (0.238, 0.127), "Bitchu": (0.178, 0.142)}
# Relative cell sizes (the dual's weights): crowded provinces get more room.
PROVINCE_SIZE = {"Mimasaka": 1.7, "Yamato": 1.6, "Bitchu": 1.3, "Settsu": 1.2, "Owari": 1.3,
                 "Shimotsuke": 1.8, "Mikawa": 1.2, "Totomi": 1.2}
COAST_R = 0.045        # land guide: this far (screen-space units) around anchors and borders
SEA_GAP = 0.012        # sea points sit this much beyond the guide's edge
SEA_STEP = 0.02        # spacing of sea points along the coast
SIZE = {"province": 1.0, "sea": 0.12, "hole": 0.18}
Point = tuple[float, float]    # a place on the board, screen-space units
WIGGLE = 0.07          # wiggle amplitude as a fraction of a dual segment's length


def _seg_dist(px: np.ndarray, py: np.ndarray, a: Point, b: Point) -> np.ndarray:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0, 1)
    dist: np.ndarray = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
    return dist


def coast_guide(anchors: dict[str, Point], borders: Sequence[tuple[str, str]], comp: set[str],
                grid: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Distance field to a component's anchors and land-border segments."""
    gx, gy = grid
    d = np.full(gx.shape, np.inf)
    for n in comp:
        d = np.minimum(d, np.hypot(gx - anchors[n][0], gy - anchors[n][1]))
    for a, b in borders:
        if a in comp:
            d = np.minimum(d, _seg_dist(gx, gy, anchors[a], anchors[b]))
    return d


def resample(line: np.ndarray, step: float) -> np.ndarray:
    seg = np.hypot(*np.diff(line, axis=0).T)
    s = np.concatenate([[0], np.cumsum(seg)])
    n = max(4, int(s[-1] / step))
    t = np.linspace(0, s[-1], n, endpoint=False)
    return np.stack([np.interp(t, s, line[:, 0]), np.interp(t, s, line[:, 1])], axis=1)


def crossings(anchors: dict[str, Point],
              borders: Sequence[tuple[str, str]]) -> list[tuple[str, str, str, str]]:
    def o(p: Point, q: Point, r: Point) -> float:
        return float(np.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])))
    out = []
    for i, (a, b) in enumerate(borders):
        for c, d in borders[i + 1:]:
            if len({a, b, c, d}) < 4:
                continue
            A, B, C, D = (anchors[x] for x in (a, b, c, d))
            if o(A, B, C) * o(A, B, D) < 0 and o(C, D, A) * o(C, D, B) < 0:
                out.append((a, b, c, d))
    return out


def triangulate(points: np.ndarray, segments: list[Any]) -> np.ndarray:
    t = triangle.triangulate({"vertices": points, "segments": np.array(segments)}, "pc")
    if len(t["vertices"]) != len(points):
        raise SystemExit("the triangulation added points: a border segment passes through a point")
    triangles: np.ndarray = t["triangles"]
    return triangles


def main() -> None:
    raw = json.loads(BOARD.read_text())
    names = sorted(raw["provinces"])
    borders = sorted(tuple(sorted(p)) for p in raw["land_borders"])
    border_set = set(borders)
    anchors = {}
    for n in names:
        x, y = ANCHOR_NUDGES.get(n, raw["provinces"][n]["pos"])
        anchors[n] = (float(x), float(y) * Y_STRETCH)
    bad = crossings(anchors, borders)
    if bad:
        raise SystemExit(f"land-border segments cross: {bad}")

    # coast guide per island, sea points around it
    x0, x1 = -0.12, 1.12
    y0, y1 = -0.12, 0.32 * Y_STRETCH + 0.12
    xs = np.linspace(x0, x1, 900)
    ys = np.linspace(y0, y1, int(900 * (y1 - y0) / (x1 - x0)))
    grid = np.meshgrid(xs, ys)
    comps = [set(names) - SHIKOKU, SHIKOKU]
    fields = [coast_guide(anchors, borders, c, grid) for c in comps]
    sea = []
    for f in fields:
        gen = contourpy.contour_generator(xs, ys, f)
        for line in gen.lines(COAST_R + SEA_GAP):
            if len(line) > 10:
                sea += resample(np.asarray(line), SEA_STEP).tolist()

    def in_land(p: Any) -> int | None:
        ix = int(round((p[0] - x0) / (x1 - x0) * (len(xs) - 1)))
        iy = int(round((p[1] - y0) / (y1 - y0) * (len(ys) - 1)))
        for k, f in enumerate(fields):
            if 0 <= iy < f.shape[0] and 0 <= ix < f.shape[1] and f[iy, ix] < COAST_R:
                return k
        return None

    sea = [p for p in sea if in_land(p) is None]
    frame = []
    for k in range(13):
        t = k / 12
        frame += [(x0 + t * (x1 - x0), y0), (x0 + t * (x1 - x0), y1)]
    for k in range(1, 5):
        t = k / 5
        frame += [(x0, y0 + t * (y1 - y0)), (x1, y0 + t * (y1 - y0))]

    pts = [anchors[n] for n in names] + [tuple(p) for p in sea] + frame
    kind = ["province"] * len(names) + ["sea"] * (len(sea) + len(frame))
    index = {n: i for i, n in enumerate(names)}
    segs = [(index[a], index[b]) for a, b in borders]
    comp_of = {n: (1 if n in SHIKOKU else 0) for n in names}
    for _ in range(200):
        tris = triangulate(np.array(pts), segs)
        bad_edges = set()
        for t in tris:
            for i in range(3):
                u, v = sorted((int(t[i]), int(t[(i + 1) % 3])))
                if kind[u] == kind[v] == "province" and (names[u], names[v]) not in border_set:
                    bad_edges.add((u, v))
        if not bad_edges:
            break
        for u, v in sorted(bad_edges):
            m = ((pts[u][0] + pts[v][0]) / 2, (pts[u][1] + pts[v][1]) / 2)
            same = comp_of[names[u]] == comp_of[names[v]]
            kind.append("hole" if same and in_land(m) is not None else "sea")
            pts.append(m)
    else:
        raise SystemExit("could not remove the non-border edges")

    P = np.array(pts)
    w = np.array([1.0 / (SIZE[k] * (PROVINCE_SIZE.get(names[i], 1.0) if k == "province" else 1.0))
                  for i, k in enumerate(kind)])

    def split(u: int, v: int) -> tuple[Any, ...]:
        return tuple((P[u] * w[u] + P[v] * w[v]) / (w[u] + w[v]))

    tri_pt = [tuple((P[t] * w[t][:, None]).sum(axis=0) / w[t].sum()) for t in tris]
    incident: dict[int, list[int]] = {}
    for k, t in enumerate(tris):
        for v in t:
            incident.setdefault(int(v), []).append(k)

    wiggles: dict[tuple[Any, ...], list[Any]] = {}

    def wiggle(edge: tuple[Any, ...], tri: int) -> list[Any]:
        """Inner points of the dual segment edge-point -> triangle-point (shared by both cells)."""
        key = (edge, tri)
        if key not in wiggles:
            a, b = np.array(split(*edge)), np.array(tri_pt[tri])
            d = b - a
            n = np.array([-d[1], d[0]])
            h = (hash_unit(edge[0] * 7919 + edge[1] * 104729 + tri * 31) - 0.5) * 2
            inner = []
            for frac, amp in ((0.33, 1.0), (0.67, -0.8)):
                inner.append(tuple(a + d * frac + n * WIGGLE * amp * h))
            wiggles[key] = inner
        return wiggles[key]

    def cell(v: int) -> list[Any]:
        items: list[tuple[float, Any, tuple[str, Any]]] = []  # (angle, point, ("e", edge) | ("t", tri))
        seen = set()
        for k in incident[v]:
            c = tri_pt[k]
            items.append((math.atan2(c[1] - P[v][1], c[0] - P[v][0]), c, ("t", k)))
            for u in tris[k]:
                u = int(u)
                if u != v and u not in seen:
                    seen.add(u)
                    items.append((math.atan2(P[u][1] - P[v][1], P[u][0] - P[v][0]),
                                  split(v, u), ("e", tuple(sorted((u, v))))))
        items.sort(key=lambda it: it[0])
        ring = []
        for i, (_, p, ref) in enumerate(items):
            ring.append(p)
            nxt = items[(i + 1) % len(items)][2]
            if ref[0] == "e" and nxt[0] == "t":
                ring += wiggle(ref[1], nxt[1])
            elif ref[0] == "t" and nxt[0] == "e":
                ring += list(reversed(wiggle(nxt[1], ref[1])))
            else:
                raise SystemExit(f"cell of point {v} is not closed (is it on the hull?)")
        return ring

    def board_space(p: Any) -> list[Any]:
        return [round(float(p[0]), 5), round(float(p[1]) / Y_STRETCH, 5)]

    shapes = {n: [board_space(p) for p in cell(index[n])] for n in names}
    holes = [[board_space(p) for p in cell(v)] for v in range(len(kind)) if kind[v] == "hole"]

    # shared polylines: for each triangulation edge, the dual path tri-point, edge-point, tri-point
    edge_tris: dict[tuple[Any, ...], list[int]] = {}
    for k, t in enumerate(tris):
        for i in range(3):
            edge_tris.setdefault(tuple(sorted((int(t[i]), int(t[(i + 1) % 3])))), []).append(k)
    lines: dict[str, list[Any]] = {"borders": [], "coast": [], "shores": []}
    for (u, v), ks in sorted(edge_tris.items()):
        ku, kv = kind[u], kind[v]
        if "province" not in (ku, kv) or len(ks) != 2:
            continue
        path = ([tri_pt[ks[0]]] + list(reversed(wiggle((u, v), ks[0]))) + [split(u, v)]
                + wiggle((u, v), ks[1]) + [tri_pt[ks[1]]])
        path = [board_space(p) for p in path]
        if ku == kv:
            lines["borders"].append([names[u], names[v], path])
        else:
            prov = names[u] if ku == "province" else names[v]
            lines["coast" if "sea" in (ku, kv) else "shores"].append([prov, path])

    cells = {n: cell(index[n]) for n in names}
    labels, label_size = {}, {}
    for n in names:
        labels[n], label_size[n] = place_label(n, cells[n], anchors[n])
    for _ in range(2):      # second look: keep clear of the neighbours' blocks
        for n in names:
            avoid = [label_boxes(m, labels[m], label_size[m]) for m in names if m != n]
            labels[n], label_size[n] = place_label(n, cells[n], anchors[n], avoid, report=_ == 1)
    label_pos = {n: board_space(labels[n]) for n in names}
    routes = sea_paths(raw, {n: cell(index[n]) for n in names},
                       {n: roomiest_point(cell(index[n]), anchors[n]) for n in names})
    allp = np.array([p for ring in shapes.values() for p in ring])
    lo, hi = allp.min(axis=0) - 0.02, allp.max(axis=0) + 0.02
    out = {
        "_about": "Province outlines generated by tools/make_province_shapes.py: the weighted "
                  "dual of a constrained triangulation whose province-province edges are exactly "
                  "board.json's land borders. Coordinates in board.json pos space (x east, y "
                  "south). borders: [a, b, polyline] for every land border; coast: [province, "
                  "polyline] against the sea; shores: against a lake; holes: lake outlines.",
        "bounds": [round(float(lo[0]), 4), round(float(lo[1]), 4),
                   round(float(hi[0]), 4), round(float(hi[1]), 4)],
        "provinces": shapes,
        "label_pos": label_pos,
        "label_size": label_size,
        "holes": holes,
        "sea_routes": {k: [board_space(p) for p in v] for k, v in routes.items()},
        **lines,
    }
    OUT.write_text(json.dumps(out, separators=(",", ":")))
    drawn = {tuple(sorted(b[:2])) for b in lines["borders"]}
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB): {len(names)} provinces, "
          f"{len(drawn)} drawn borders of {len(borders)} (missing {sorted(border_set - drawn)}, "
          f"extra {sorted(drawn - border_set)}), {len(holes)} lakes, {len(sea)} coast points")


def sea_paths(raw: dict[str, Any], cells: dict[str, Any], labels: dict[str, Any]) -> dict[str, Any]:
    """A gently curved path for each sea route ("A|B", names sorted) that crosses as little
    land as possible besides its two ends: a straight line from Kaga to Tajima would run over
    Wakasa and Echizen and read as a land link."""
    from matplotlib.path import Path as MplPath
    paths = {n: MplPath(np.array(c)) for n, c in cells.items()}
    pairs = sorted({tuple(sorted(p)) for side in raw["sea_routes"].values() for p in side})
    t = np.linspace(0, 1, 41)[:, None]
    out = {}
    for a, b in pairs:
        p, q = np.array(labels[a]), np.array(labels[b])
        d = q - p
        perp = np.array([-d[1], d[0]]) / (np.hypot(*d) or 1)
        best = None
        for off in sorted(np.linspace(-0.3, 0.3, 61), key=abs):
            c = (p + q) / 2 + perp * off
            curve = (1 - t) ** 2 * p + 2 * (1 - t) * t * c + t ** 2 * q
            land = sum(int(paths[n].contains_points(curve[5:-5]).sum())
                       for n in cells if n not in (a, b))
            score = land + abs(off) * 10
            if best is None or score < best[0]:
                best = (score, curve)
        assert best is not None   # the loop tries 61 offsets
        out[f"{a}|{b}"] = [tuple(x) for x in best[1][::2]]
    return out


# The client's label block (client/board/board_view.py), in map units (screen px / map scale) at the
# token scale s = scale / 620, with 10% to spare for the clamp at the smallest window.
PX = 1 / 560
TOKEN_R = 10.5 * 1.25 * PX          # the largest seat shape
NAME_GAP = 11 * PX                  # name baseline above the token's centre
NAME_H = 8.5 * (96 / 72) * 0.8 * PX
UNREST_R = 7.5 * PX
UNREST_DX = 17 * PX


def label_boxes(name: str, p: tuple[float, float], f: float) -> list[tuple[float, ...]]:
    """(x0, y0, x1, y1) of the token and of the name around label point p (y grows south)."""
    w = text_width(name, 8.5 * f) * PX / 2
    return [(p[0] - TOKEN_R, p[1] - TOKEN_R, p[0] + TOKEN_R, p[1] + TOKEN_R),
            (p[0] - w, p[1] - NAME_GAP - NAME_H * f, p[0] + w, p[1] - NAME_GAP + 2 * PX)]


def place_label(name: str, ring: list[Any], anchor: tuple[float, float], avoid: Sequence[Any] = (),
                report: bool = False) -> tuple[tuple[float, float], float]:
    """Where the name, the army token and the unrest badge go, and how much the name must
    shrink (1.0 = not at all, at least 0.76), so that all of it lies inside the province:
    then no label can run into a neighbour's. Falls back to the roomiest point."""
    from matplotlib.path import Path as MplPath
    r = np.array(ring)
    path = MplPath(r)
    lo, hi = r.min(axis=0), r.max(axis=0)
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 70), np.linspace(lo[1], hi[1], 70))
    cand = np.stack([gx.ravel(), gy.ravel()], axis=1)
    cand = cand[path.contains_points(cand)]
    a, b = r, np.roll(r, -1, axis=0)
    clear = np.full(len(cand), np.inf)
    for p, q in zip(a, b):
        clear = np.minimum(clear, _seg_dist(cand[:, 0], cand[:, 1], p, q))
    best = None
    for f in (1.0, 0.92, 0.84, 0.76):
        w = text_width(name, 8.5 * f) * PX / 2
        offs = [(dx * TOKEN_R, dy * TOKEN_R) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        top, bottom = -(NAME_GAP + NAME_H * f), -NAME_GAP + 2 * PX   # y grows south here
        offs += [(dx * w, y) for dx in (-1, -0.5, 0, 0.5, 1) for y in (top, bottom)]
        pts = (cand[:, None, :] + np.array(offs)[None]).reshape(-1, 2)
        inside = path.contains_points(pts).reshape(len(cand), len(offs)).mean(axis=1)
        score = inside * 10 + f + clear - 0.2 * np.hypot(*(cand - np.array(anchor)).T)
        for boxes in avoid:
            for bx in boxes:
                for mine in label_boxes(name, (0.0, 0.0), f):
                    hit = ((cand[:, 0] + mine[0] < bx[2]) & (bx[0] < cand[:, 0] + mine[2])
                           & (cand[:, 1] + mine[1] < bx[3]) & (bx[1] < cand[:, 1] + mine[3]))
                    score = score - 5 * hit
        k = int(np.argmax(score))
        if best is None or score[k] > best[0]:
            best = (score[k], tuple(cand[k]), f, inside[k])
    assert best is not None, f"no place at all for the label of {name}"
    if report and best[3] < 1:
        print(f"  {name}: {100 * (1 - best[3]):.0f}% of the label block sticks out")
    return best[1], best[2]


def roomiest_point(ring: list[Any], anchor: tuple[float, float],
                   others: Sequence[Any] = ()) -> tuple[float, float]:
    """The point inside a cell farthest from its outline (a little biased toward the anchor):
    where the name, the army disc and the buildings have the most room."""
    from matplotlib.path import Path as MplPath
    r = np.array(ring)
    lo, hi = r.min(axis=0), r.max(axis=0)
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 60), np.linspace(lo[1], hi[1], 60))
    cand = np.stack([gx.ravel(), gy.ravel()], axis=1)
    cand = cand[MplPath(r).contains_points(cand)]
    a, b = r, np.roll(r, -1, axis=0)
    d = np.full(len(cand), np.inf)
    for p, q in zip(a, b):
        d = np.minimum(d, _seg_dist(cand[:, 0], cand[:, 1], p, q))
    score = d - 0.15 * np.hypot(cand[:, 0] - anchor[0], cand[:, 1] - anchor[1])
    for o in others:   # keep clear of other labels (x counts double: names are wide)
        gap = np.hypot((cand[:, 0] - o[0]) / 2.0, cand[:, 1] - o[1])
        score -= np.clip(0.05 - gap, 0, None) * 1.5
    return tuple(cand[int(np.argmax(score))])


def hash_unit(k: int) -> float:
    """A deterministic pseudo-random number in [0, 1) from an integer (no global random)."""
    k = (k * 2654435761) & 0xFFFFFFFF
    k ^= k >> 16
    k = (k * 2246822519) & 0xFFFFFFFF
    k ^= k >> 13
    return (k & 0xFFFFFF) / float(1 << 24)


if __name__ == "__main__":
    main()
