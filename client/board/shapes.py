"""The province shapes asset (assets/provinces.json) and helpers to place it on screen.

Tests: tests/client/board/test_shapes_asset.py, tests/client/board/test_map_borders.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from arcade.earclip import earclip

from client.core.beating import beat

ASSET = Path(__file__).resolve().parents[2] / "assets" / "provinces.json"


@lru_cache(maxsize=1)
def load_shapes() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ASSET.read_text())
    tris = {}
    for name, poly in data["provinces"].items():
        pts = [tuple(p) for p in poly]
        tris[name] = [t for t in earclip(pts)]
        beat()          # seconds in all on a loaded machine: the network keeps beating
    data["triangles"] = tris
    data["hole_triangles"] = [earclip([tuple(p) for p in ring]) for ring in data["holes"]]
    # numpy copies for drawing (MapTransform.apply maps a whole array at once)
    data["arrays"] = {n: np.array(poly, dtype="f8") for n, poly in data["provinces"].items()}
    data["triangle_arrays"] = {n: np.array(t, dtype="f8").reshape(-1, 2) for n, t in tris.items()}
    data["hole_triangle_arrays"] = [np.array(t, dtype="f8").reshape(-1, 2)
                                    for t in data["hole_triangles"]]
    data["border_arrays"] = {(a, b): np.array(line, dtype="f8") for a, b, line in data["borders"]}
    data["coast_arrays"] = [np.array(line, dtype="f8")
                            for _p, line in data["coast"] + data["shores"]]
    return data


def point_in_poly(x: float, y: float, poly: Sequence[tuple[float, float]]) -> bool:
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi + 1e-12) + xi:
            inside = not inside
        j = i
    return inside


class MapTransform:
    """Maps board space (x east, y south) into a screen rectangle, keeping the aspect
    ratio after stretching y by `y_stretch` (the printed board is wider than Japan)."""

    def __init__(self, bounds: Sequence[float], left: float, bottom: float, width: float,
                 height: float, y_stretch: float = 1.3) -> None:
        x0, y0, x1, y1 = bounds
        self.x0, self.y0 = x0, y0
        bw, bh = x1 - x0, (y1 - y0) * y_stretch
        self.ys = y_stretch
        self.scale = min(width / bw, height / bh)
        self.ox = left + (width - bw * self.scale) / 2
        self.oy = bottom + (height + bh * self.scale) / 2  # screen y of board y0 (top)

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + (x - self.x0) * self.scale,
                self.oy - (y - self.y0) * self.ys * self.scale)

    def apply(self, pts: np.ndarray) -> np.ndarray:
        """`__call__` for an (n, 2) array of board points."""
        out = np.empty_like(pts, dtype="f8")
        out[:, 0] = self.ox + (pts[:, 0] - self.x0) * self.scale
        out[:, 1] = self.oy - (pts[:, 1] - self.y0) * self.ys * self.scale
        return out

    def inverse(self, sx: float, sy: float) -> tuple[float, float]:
        return (self.x0 + (sx - self.ox) / self.scale,
                self.y0 + (self.oy - sy) / (self.ys * self.scale))
