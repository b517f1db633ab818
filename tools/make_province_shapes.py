"""Generate assets/provinces.json: one filled outline per province, from board.json positions.

Run once (the output is committed):  .venv/bin/python tools/make_province_shapes.py

Method (numpy + contourpy only, deterministic):
1. A raster over the board's position space (x east 0..1, y south 0..~0.31, margins added).
2. Land = points near a province position (union of disks, per island), smoothed with a
   box blur so the coast looks like a coast rather than a string of beads. Shikoku's four
   provinces form their own island, kept apart from Honshu by a strait.
3. Each land cell belongs to the nearest province position of its island (a Voronoi
   partition clipped to the coastline), slightly jittered with smooth noise so borders are
   not ruler-straight.
4. Each province's outline is traced with contourpy and simplified (Douglas-Peucker).
A few decorative islets (Sado, Oki, Awaji) are added as outlines without a province.
Coordinates in the output are in the same space as board.json `pos`.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import contourpy

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "assets" / "board.json"
OUT = ROOT / "assets" / "provinces.json"

SHIKOKU = {"Iyo", "Tosa", "Sanuki", "Awa-Shikoku"}
X0, X1, Y0, Y1 = -0.09, 1.09, -0.08, 0.40
RES = 1400  # pixels across x
RADIUS = 0.062


def box_blur(a: np.ndarray, r: int) -> np.ndarray:
    for axis in (0, 1):
        c = np.cumsum(np.pad(a, [(r + 1, r) if i == axis else (0, 0) for i in range(2)],
                             mode="edge"), axis=axis)
        n = a.shape[axis]
        hi = np.take(c, np.arange(2 * r + 1, 2 * r + 1 + n), axis=axis)
        lo = np.take(c, np.arange(0, n), axis=axis)
        a = (hi - lo) / (2 * r + 1)
    return a


def smooth_noise(shape, seed: int, scale: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    for _ in range(3):
        a = box_blur(a, scale)
    return a / (np.abs(a).max() + 1e-9)


def simplify(pts: list[tuple[float, float]], eps: float) -> list[tuple[float, float]]:
    if len(pts) < 4:
        return pts
    a, b = np.array(pts[0]), np.array(pts[-1])
    arr = np.array(pts)
    d = b - a
    nd = math.hypot(*d)
    if nd == 0:
        dist = np.hypot(*(arr - a).T)
    else:
        dist = np.abs(d[0] * (arr[:, 1] - a[1]) - d[1] * (arr[:, 0] - a[0])) / nd
    i = int(np.argmax(dist))
    if dist[i] > eps:
        left = simplify(pts[: i + 1], eps)
        right = simplify(pts[i:], eps)
        return left[:-1] + right
    return [pts[0], pts[-1]]


def outline(mask: np.ndarray, xs: np.ndarray, ys: np.ndarray, eps: float) -> list:
    gen = contourpy.contour_generator(xs, ys, mask.astype(float))
    lines = gen.lines(0.5)
    polys = []
    for ln in lines:
        if len(ln) < 8:
            continue
        pts = [(float(x), float(y)) for x, y in ln]
        if pts[0] != pts[-1]:
            pts.append(pts[0])
        # split the closed ring into two halves for Douglas-Peucker stability
        h = len(pts) // 2
        s = simplify(pts[: h + 1], eps)[:-1] + simplify(pts[h:], eps)[:-1]
        if len(s) >= 3:
            area = 0.5 * sum(s[i][0] * s[(i + 1) % len(s)][1] - s[(i + 1) % len(s)][0] * s[i][1]
                             for i in range(len(s)))
            polys.append((abs(area), [[round(x, 5), round(y, 5)] for x, y in s]))
    polys.sort(key=lambda t: -t[0])
    return [p for _, p in polys]


def main() -> None:
    raw = json.loads(BOARD.read_text())
    provs = raw["provinces"]
    names = sorted(provs)
    ny = int(RES * (Y1 - Y0) / (X1 - X0))
    xs = np.linspace(X0, X1, RES)
    ys = np.linspace(Y0, Y1, ny)
    gx, gy = np.meshgrid(xs, ys)
    px = (X1 - X0) / RES

    # warp coordinates with smooth noise: organic borders and coast
    wx = gx + 0.012 * smooth_noise(gx.shape, 1, 18)
    wy = gy + 0.012 * smooth_noise(gx.shape, 2, 18)

    pos = np.array([provs[n]["pos"] for n in names])
    d = np.stack([np.hypot(wx - x, wy - y) for x, y in pos])  # (45, ny, nx)
    island = np.array([1 if n in SHIKOKU else 0 for n in names])
    d_h = np.where(island[:, None, None] == 0, d, np.inf).min(axis=0)
    d_s = np.where(island[:, None, None] == 1, d, np.inf).min(axis=0)

    # land field: positive inside; union of disks, blurred; strait between the islands
    field_h = RADIUS - d_h
    field_s = RADIUS * 0.95 - d_s
    blur = max(1, int(0.018 / px))
    field_h = box_blur(field_h, blur)
    field_s = box_blur(field_s, blur)
    strait = 0.012
    land_h = (field_h > 0) & (d_h + strait < d_s)
    land_s = (field_s > 0) & (d_s + strait < d_h)

    nearest = np.argmin(np.where(island[:, None, None] == 0, d, np.inf), axis=0)
    nearest_s = np.argmin(np.where(island[:, None, None] == 1, d, np.inf), axis=0)
    label = np.full(gx.shape, -1)
    label[land_h] = nearest[land_h]
    label[land_s] = nearest_s[land_s]
    label[:3, :] = label[-3:, :] = -1          # keep every outline closed
    label[:, :3] = label[:, -3:] = -1

    eps = px * 0.8
    shapes = {}
    for i, n in enumerate(names):
        polys = outline(label == i, xs, ys, eps)
        if not polys:
            raise SystemExit(f"province {n} got no shape")
        shapes[n] = polys[0]  # the main piece (tiny slivers dropped)

    coast = outline(label >= 0, xs, ys, eps * 1.5)
    # region outlines per board side (drawn as thicker borders)
    regions = {}
    for side in ("sun", "moon"):
        regions[side] = {}
        for reg in raw["regions"]:
            idx = [i for i, n in enumerate(names) if provs[n]["region"][side] == reg]
            regions[side][reg] = outline(np.isin(label, idx), xs, ys, eps)
    islets = []
    for cx, cy, rx, ry, rot in ((0.70, -0.04, 0.03, 0.011, -0.45),    # Sado
                                (0.16, -0.01, 0.016, 0.009, 0.0),      # Oki
                                (0.343, 0.232, 0.007, 0.017, 0.55)):  # Awaji
        ring = []
        for k in range(24):
            t = 2 * math.pi * k / 24
            ex, ey = rx * math.cos(t), ry * math.sin(t)
            ring.append([round(cx + ex * math.cos(rot) - ey * math.sin(rot), 5),
                         round(cy + ex * math.sin(rot) + ey * math.cos(rot), 5)])
        islets.append(ring)

    # which board borders do the drawn cells actually share? (reported, for honesty)
    touching = set()
    for a, b in ((label[:, :-1], label[:, 1:]), (label[:-1, :], label[1:, :])):
        m = (a != b) & (a >= 0) & (b >= 0)
        for u, v in zip(a[m].tolist(), b[m].tolist()):
            touching.add(tuple(sorted((names[u], names[v]))))
    borders = {tuple(sorted(p)) for p in raw["land_borders"]}
    missing = sorted(borders - touching)

    out = {
        "_about": "Province outlines generated by tools/make_province_shapes.py from board.json "
                  "positions (Voronoi cells clipped to a smoothed coastline). Same coordinate "
                  "space as board.json pos: x east, y south.",
        "bounds": [X0, Y0, X1, Y1],
        "provinces": shapes,
        "coast": coast,
        "regions": regions,
        "islets": islets,
        "label_pos": {n: [round(float(gx[label == i].mean()), 5),
                          round(float(gy[label == i].mean()), 5)] for i, n in enumerate(names)},
        "land_borders_not_touching": [list(p) for p in missing],
    }
    OUT.write_text(json.dumps(out, separators=(",", ":")))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB); "
          f"{len(missing)} board borders not touching in the drawing: {missing}")


if __name__ == "__main__":
    main()
