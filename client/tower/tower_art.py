"""The tower's look, drawn from the simulation's own geometry (issue 28 item 1): a pagoda
whose façade has a cut-away window onto the shaft, the funnel's boards, the crossed ribs,
the two floors as perforated platforms, the ramp out through a gate into a courtyard tray.

Why from the geometry: what a player sees is what the cubes collide with. Every piece the
cubes touch is one of `geometry["parts"]`'s capsule segments, drawn at its own place and
thickness; what is drawn beside them (roofs, pillars, the courtyard, the sky) lies outside
the interior and the tray, where no cube goes. The wood and paper are textures made here
from seeded noise (numpy), no downloaded or copied art; they are drawn once into the tower
view's cached layer, so a frame costs nothing for them.

Tests: none of its own; the tower view draws it in every battle shown by
tests/client/tower/test_battle_view.py and tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

import arcade
import numpy as np
from PIL import Image

from client.core.cached_layer import CachedLayer

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData

LEFT, RIGHT = 26.0, 8.0       # tower units drawn left of the shaft (roofs) and right of the tray
BELOW, ABOVE = 12.0, 58.0     # below the tower's floor (the base) and above its lid (the roof)
STAGE_BELOW, STAGE_ABOVE = 16.0, 20.0   # the battle stage crops to the base and the great roof
LIGHT = (-0.7, 0.7)           # where the light comes from (the top left): shadows fall away
PILLAR = 12.0                 # the façade's pillars either side of the window

LACQUER = (122, 38, 30)       # the pagoda's red
LACQUER_DARK = (78, 24, 20)
ROOF = (46, 52, 58)           # dark tiles
ROOF_EDGE = (150, 158, 160)
WOOD = (196, 160, 110)        # the inner boards, cubes touch these
WOOD_EDGE = (236, 208, 160)
RIB = (60, 36, 26)
STONE = (120, 116, 106)

Point = tuple[float, float]


def _noise(w: int, h: int, seed: int, scale: int) -> np.ndarray:
    """Smooth noise in [0, 1]: random values on a coarse grid, upscaled bilinearly."""
    rng = np.random.default_rng(seed)
    small = rng.random((h // scale + 2, w // scale + 2))
    img = Image.fromarray((small * 255).astype(np.uint8)).resize((w + scale, h + scale), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.float32)[:h, :w] / 255.0


@lru_cache(maxsize=None)
def wood_texture(w: int = 128, h: int = 256, seed: int = 7,
                 base: tuple[int, int, int] = (92, 70, 50)) -> arcade.Texture:
    """Vertical planks with grain: the shaft's back wall."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = _noise(w, h, seed, 16) * 6.0
    grain = 0.5 + 0.5 * np.sin((x + warp) * 0.9 + _noise(w, h, seed + 1, 32) * 4.0)
    plank = 32
    seam = (np.mod(x, plank) < 1.2).astype(np.float32)
    shade = 0.82 + 0.18 * grain - 0.35 * seam + 0.08 * (_noise(w, h, seed + 2, 8) - 0.5)
    shade *= 1.0 + 0.1 * ((x // plank) % 2)           # planks differ a little
    rgb = np.clip(np.stack([shade * c for c in base], axis=-1), 0, 255).astype(np.uint8)
    return arcade.Texture(Image.fromarray(rgb).convert("RGBA"), hash=f"shogun-wood-{w}-{h}-{seed}-{base}")


@lru_cache(maxsize=None)
def paper_texture(w: int = 128, h: int = 128, seed: int = 11) -> arcade.Texture:
    """Washi: warm white with fibres, for the shoji panels of the pagoda's tiers."""
    fib = _noise(w, h, seed, 3) * 0.6 + _noise(w, h, seed + 1, 12) * 0.4
    y, x = np.mgrid[0:h, 0:w]
    grid = ((x % 32) < 2) | ((y % 40) < 2)                 # the shoji's lattice
    shade = 0.9 + 0.1 * fib
    rgb = np.stack([shade * 238, shade * 226, shade * 196], axis=-1)
    rgb[grid] = (96, 60, 40)
    return arcade.Texture(Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).convert("RGBA"),
                          hash=f"shogun-paper-{w}-{h}-{seed}")


@lru_cache(maxsize=None)
def sky_texture(h: int = 128) -> arcade.Texture:
    """A dusk sky behind the pagoda, darker at the top (the window's text reads on it)."""
    t = np.linspace(0.0, 1.0, h)[:, None]
    top, low = np.array([34, 30, 44]), np.array([92, 70, 62])
    rgb = (top * (1 - t) + low * t)[:, None, :].repeat(4, axis=1)
    return arcade.Texture(Image.fromarray(rgb.astype(np.uint8)).convert("RGBA"), hash=f"shogun-sky-{h}")


@lru_cache(maxsize=None)
def gravel_texture(w: int = 128, h: int = 32, seed: int = 5) -> arcade.Texture:
    """Raked gravel: the courtyard the tray stands in."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rake = 0.5 + 0.5 * np.sin(y * 1.6)
    grain = _noise(w, h, seed, 2)
    shade = 0.75 + 0.12 * rake + 0.13 * grain
    rgb = np.stack([shade * 170, shade * 164, shade * 150], axis=-1)
    return arcade.Texture(Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).convert("RGBA"),
                          hash=f"shogun-gravel-{w}-{h}-{seed}")


def _shade(c: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return (int(c[0] * k), int(c[1] * k), int(c[2] * k))


def _capsule(p: Point, q: Point, r: float, fill: tuple[int, int, int], edge: tuple[int, int, int]) -> None:
    """A segment as the physics sees it (a capsule of radius r), with a lit upper edge,
    a side in shade and a soft shadow on the back wall, both away from the light: a
    solid piece with thickness (issue 36 item 4). The lit face is the capsule itself, at
    its own place and radius (what the cubes hit)."""
    dx, dy = -LIGHT[0] * r, -LIGHT[1] * r
    for k, a, grow in ((2.6, 38, 1.5), (1.6, 60, 1.15)):       # the soft shadow, in two veils
        arcade.draw_line(p[0] + dx * k, p[1] + dy * k, q[0] + dx * k, q[1] + dy * k, (0, 0, 0, a), 2 * r * grow)
    side = _shade(fill, 0.55)                                     # the piece's thickness
    arcade.draw_line(p[0] + dx * 0.7, p[1] + dy * 0.7, q[0] + dx * 0.7, q[1] + dy * 0.7, side, 2 * r)
    arcade.draw_circle_filled(q[0] + dx * 0.7, q[1] + dy * 0.7, r, side)
    arcade.draw_circle_filled(p[0] + dx * 0.7, p[1] + dy * 0.7, r, side)
    arcade.draw_line(p[0], p[1], q[0], q[1], fill, 2 * r)
    arcade.draw_circle_filled(p[0], p[1], r, fill)
    arcade.draw_circle_filled(q[0], q[1], r, fill)
    if r >= 2:
        arcade.draw_line(p[0], p[1] + r * 0.55, q[0], q[1] + r * 0.55, edge, max(1.0, r * 0.4))


def _roof(pt: Callable[[float, float], Point], s: float, x0: float, x1: float, y: float,
          depth: float, lift: float) -> None:
    """A pagoda roof from x0 to x1 at height y: dark tiles, upturned eaves."""
    a, b = pt(x0, y), pt(x1, y)
    top_l, top_r = pt(x0 + depth * 1.6, y + depth), pt(x1 - depth * 1.6, y + depth)
    tip_l, tip_r = pt(x0 - 2, y + lift), pt(x1 + 2, y + lift)
    arcade.draw_polygon_filled([tip_l, a, b, tip_r, top_r, top_l], ROOF)
    arcade.draw_line(tip_l[0], tip_l[1], a[0], a[1], ROOF_EDGE, max(1.0, s * 1.5))
    arcade.draw_line(a[0], a[1], b[0], b[1], ROOF_EDGE, max(1.0, s * 1.5))
    arcade.draw_line(b[0], b[1], tip_r[0], tip_r[1], ROOF_EDGE, max(1.0, s * 1.5))


@lru_cache(maxsize=None)
def table_texture(w: int = 256, h: int = 128, seed: int = 21) -> arcade.Texture:
    """A dark wooden tabletop, its boards running away from the viewer."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = 0.5 + 0.5 * np.sin(x * 0.35 + _noise(w, h, seed, 24) * 6.0)
    seam = (np.mod(x, 64) < 1.5).astype(np.float32)
    shade = 0.78 + 0.14 * grain - 0.3 * seam + 0.08 * (_noise(w, h, seed + 1, 6) - 0.5)
    shade *= 0.8 + 0.2 * (y / h)                                 # nearer is lighter
    rgb = np.stack([shade * 120, shade * 78, shade * 46], axis=-1)
    return arcade.Texture(Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).convert("RGBA"),
                          hash=f"shogun-table-{w}-{h}-{seed}")


@lru_cache(maxsize=None)
def room_texture(h: int = 128) -> arcade.Texture:
    """The room behind the table: warm lamplight falling off into the dark."""
    t = np.linspace(0.0, 1.0, h)[:, None]
    w = 128
    xs = np.linspace(-1.0, 1.0, w)[None, :]
    glow = np.exp(-(xs ** 2) * 1.6) * (0.4 + 0.6 * (1 - t))
    base = np.array([30, 24, 26])
    lamp = np.array([96, 72, 52])
    rgb = base[None, None, :] + (lamp - base)[None, None, :] * glow[:, :, None]
    return arcade.Texture(Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).convert("RGBA"),
                          hash=f"shogun-room-{h}")


@lru_cache(maxsize=None)
def soft_shadow() -> arcade.Texture:
    """A round shadow with a soft edge (the tower's on the table, a cube's)."""
    n = 64
    y, x = np.mgrid[0:n, 0:n].astype(np.float32)
    d = np.hypot(x - n / 2 + 0.5, y - n / 2 + 0.5) / (n / 2)
    a = np.clip(1.0 - d, 0.0, 1.0) ** 1.6 * 150
    rgba = np.zeros((n, n, 4), np.uint8)
    rgba[..., 3] = a.astype(np.uint8)
    return arcade.Texture(Image.fromarray(rgba), hash="shogun-soft-shadow")


@lru_cache(maxsize=None)
def stage_light(w: int = 160, h: int = 100) -> arcade.Texture:
    """The stage's lamplight, laid over it once (issue 48: a warm key light): a warm pool
    over the tower and the trays from the top left of the middle, falling off to dark
    corners (a vignette). One small texture, stretched over the stage in its cached
    picture: it costs a frame nothing."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (x + 0.5) / w * 2 - 1                               # -1 .. 1 across
    v = 1 - (y + 0.5) / h * 2                               # -1 (bottom) .. 1 (top)
    key = np.exp(-(((u + 0.12) / 0.55) ** 2 + ((v - 0.05) / 0.8) ** 2))   # the lamp's pool
    edge = np.clip((np.hypot(u * 0.9, v) - 0.55) / 0.85, 0.0, 1.0) ** 1.6  # the corners' dark
    warm = np.array([255, 200, 130], np.float32)
    alpha = 0.13 * key + 0.55 * edge                          # light where the pool is, dark at the rim
    share = (0.13 * key / np.maximum(alpha, 1e-6))[..., None]   # the warm share of the veil
    rgb = warm[None, None, :] * share
    rgba = np.concatenate([rgb, (alpha * 255)[..., None]], axis=-1)
    return arcade.Texture(Image.fromarray(np.clip(rgba, 0, 255).astype(np.uint8)),
                          hash=f"shogun-stage-light-{w}-{h}")


def draw_stage_light(rect: tuple[float, float, float, float]) -> None:
    """The stage's lamplight (`stage_light`) over `rect` (left, bottom, width, height)."""
    left, bottom, width, height = rect
    arcade.draw_texture_rect(stage_light(), arcade.LBWH(left, bottom, width, height))


def draw_table(rect: tuple[float, float, float, float], table_y: float, foot: tuple[float, float],
               foot_y: float) -> None:
    """The battle stage's background: a room in lamplight, a table whose far edge runs at
    `table_y`, and the tower's soft shadow on it, cast away from the light, from its foot
    (`foot`: x0, x1 of its base, at `foot_y`)."""
    left, bottom, width, height = rect
    arcade.draw_texture_rect(room_texture(), arcade.LRBT(left, left + width, table_y, bottom + height))
    arcade.draw_texture_rect(table_texture(), arcade.LRBT(left, left + width, bottom, table_y))
    arcade.draw_lrbt_rectangle_filled(left, left + width, table_y - 2, table_y + 3, (58, 36, 24))
    x0, x1 = foot
    w = x1 - x0
    arcade.draw_texture_rect(soft_shadow(), arcade.LRBT(x0 - w * 0.1, x1 + w * 0.45, foot_y - w * 0.12,
                                                        table_y + w * 0.04))


def draw_stage_art(layer: CachedLayer, geo: GeometryData, box: tuple[float, float, float, float],
                   xf: tuple[float, float, float]) -> None:
    """The stage's table and tower (`draw_tower(stage=True)`) for a stage at `box` into
    `layer`, with `xf` (pixels per tower unit, origin) the stage's transform: drawn once,
    copied into the stage's picture at each battle."""
    s, ox, oy = xf
    layer.render(box, lambda: draw_tower(geo, box, lambda x, y: (ox + x * s, oy + y * s), s, stage=True))


def draw_tower(geo: GeometryData, rect: tuple[float, float, float, float],
               pt: Callable[[float, float], Point], s: float, stage: bool = False) -> None:
    """The whole static tower into the current target. `pt` maps tower units to pixels,
    `s` is pixels per unit, `rect` the view's (left, bottom, width, height); `stage`: the
    battle stage's tower, standing on a table (no sky, no courtyard, no upper roof)."""
    left, bottom, width, height = rect
    W, T, end = float(geo["width"]), float(geo["top"]), float(geo["tray_end"])
    r = float(geo["wall_radius"]) * s
    if stage:                   # the table's far edge behind the tower's foot: it stands on it
        draw_table(rect, pt(0, 60)[1], (pt(-PILLAR - 4, 0)[0], pt(end + 3, 0)[0]), pt(0, -BELOW)[1])
    else:
        arcade.draw_texture_rect(sky_texture(), arcade.LBWH(left, bottom, width, height))
        # the courtyard: gravel from the tower's foot to the view's right edge
        g0, g1 = pt(-LEFT, -BELOW), pt(end + RIGHT, 2)
        arcade.draw_texture_rect(gravel_texture(), arcade.LRBT(left, left + width, bottom, g1[1]))
    # the pagoda: the base, the pillars either side of the window, the tiers' roofs
    b0, b1 = pt(-PILLAR - 4, -BELOW), pt(W + PILLAR + 4, 0)
    arcade.draw_lrbt_rectangle_filled(b0[0], b1[0], b0[1], b1[1], STONE)
    arcade.draw_line(b0[0], b1[1], b1[0], b1[1], (150, 146, 136), max(1.0, s))
    lp0, lp1 = pt(-PILLAR, 0), pt(0, T)
    rp0, rp1 = pt(W, float(geo["exit"]["y1"])), pt(W + PILLAR, T)
    for (x0, y0), (x1, y1) in ((lp0, lp1), (rp0, rp1)):
        arcade.draw_lrbt_rectangle_filled(x0, x1, y0, y1, LACQUER)
        arcade.draw_lrbt_rectangle_filled(x0, x0 + (x1 - x0) * 0.25, y0, y1, LACQUER_DARK)
    # the gate the ramp runs out through: a lintel over the exit
    gl = pt(W - 2, float(geo["exit"]["y1"]))
    gr = pt(W + PILLAR + 6, float(geo["exit"]["y1"]) + 5)
    arcade.draw_lrbt_rectangle_filled(gl[0], gr[0], gl[1], gr[1], LACQUER_DARK)
    # shoji panels on the tiers (outside the window: the pillars' faces above each floor)
    for y in (geo["parts"]["floor_2"][0][0][1], geo["parts"]["floor_1"][0][0][1], T - 40):
        for x0 in (-PILLAR + 2, W + 2):
            p0, p1 = pt(x0, y + 8), pt(x0 + PILLAR - 4, y + 30)
            arcade.draw_texture_rect(paper_texture(), arcade.LRBT(p0[0], p1[0], p0[1], p1[1]))
        _roof(pt, s, -PILLAR - 8, 0, float(y), 4, 7)               # eaves outside the window
        _roof(pt, s, W, W + PILLAR + 8, float(y), 4, 7)
    _roof(pt, s, -LEFT + 4, W + LEFT - 4, T + 4, 14, 12)           # the great roof
    if not stage:
        _roof(pt, s, -8, W + 8, T + 30, 10, 9)                     # its upper tier
        spire0, spire1 = pt(W / 2, T + 40), pt(W / 2, T + ABOVE - 4)
        arcade.draw_line(spire0[0], spire0[1], spire1[0], spire1[1], ROOF_EDGE, max(1.5, s * 2))
        for k in range(4):                                        # the spire's rings
            c = pt(W / 2, T + 44 + k * 3.2)
            arcade.draw_ellipse_filled(c[0], c[1], s * (7 - k), s * 1.6, (176, 150, 90))
    else:                       # the mouth the handful is poured into, open in the roof
        m0, m1 = pt(8, T + 4), pt(W - 8, T + 14)
        arcade.draw_lrbt_rectangle_filled(m0[0], m1[0], m0[1], m1[1], (58, 40, 30))    # its inside
        arcade.draw_lrbt_rectangle_filled(m0[0], m1[0], m1[1] - 3 * s, m1[1], (24, 16, 12))   # the far lip's shade
        for slot in geo["entry"]["slots"]:          # the four slots the cubes drop through
            a, b = pt(slot - 6, T + 5.5), pt(slot + 6, T + 10)
            arcade.draw_lrbt_rectangle_filled(a[0], b[0], a[1], b[1], (14, 10, 8))
            arcade.draw_line(a[0], a[1], b[0], a[1], (150, 116, 80), max(1.0, s * 0.6))
        arcade.draw_lrbt_rectangle_filled(m0[0], m1[0], m0[1], m0[1] + 1.5 * s, WOOD_EDGE)    # the near lip, lit
        arcade.draw_lrbt_rectangle_outline(m0[0], m1[0], m0[1], m1[1], ROOF_EDGE, max(1.0, s))
    # the window: the shaft's back wall of planks, shadowed near the walls and under the lid
    w0, w1 = pt(0, 0), pt(W, T)
    arcade.draw_texture_rect(wood_texture(), arcade.LRBT(w0[0], w1[0], w0[1], w1[1]))
    shade = max(2.0, 6 * s)
    arcade.draw_lrbt_rectangle_filled(w0[0], w0[0] + shade, w0[1], w1[1], (0, 0, 0, 70))
    arcade.draw_lrbt_rectangle_filled(w0[0], w1[0], w1[1] - shade, w1[1], (0, 0, 0, 80))
    for k in range(1, 5):        # the inside darkens towards the bottom, away from the light
        y0, y1 = pt(0, T * (k - 1) / 5)[1], pt(0, T * k / 5)[1]
        arcade.draw_lrbt_rectangle_filled(w0[0], w1[0], y0, y1, (0, 0, 0, 14 * (5 - k)))
    # the courtyard tray: a low wooden box the ramp runs into
    floor = geo["parts"]["ramp"][1]
    f0, f1 = pt(*floor[0]), pt(*floor[1])
    wall_top = pt(end, float(geo["parts"]["ramp"][2][1][1]))
    foot = pt(end + 3, -6)
    arcade.draw_polygon_filled([f0, f1, (foot[0], f1[1]), (foot[0], foot[1]), (f0[0], foot[1])], (104, 70, 46))
    arcade.draw_lrbt_rectangle_filled(f0[0], foot[0], foot[1], foot[1] + 2 * s, (70, 46, 30))
    for k in range(1, 4):                                          # the box's boards
        x = f0[0] + (foot[0] - f0[0]) * k / 4
        arcade.draw_line(x, foot[1], x, f0[1] + (f1[1] - f0[1]) * k / 4, (84, 56, 36), max(1.0, s * 0.6))
    # the pieces the cubes touch, each at its place and thickness
    parts = geo["parts"]
    for name, segs in parts.items():
        for (ax, ay), (bx, by) in segs:
            p, q = pt(ax, ay), pt(bx, by)
            if name == "ribs":
                _capsule(p, q, r, RIB, (120, 80, 60))
            elif name == "walls":
                _capsule(p, q, r, LACQUER_DARK, (170, 70, 56))
            elif name.startswith("floor"):
                _capsule(p, q, r * 1.1, WOOD, WOOD_EDGE)
                _holes(p, q, r)
            else:
                _capsule(p, q, r, WOOD, WOOD_EDGE)
    mid = pt(W / 2, float(parts["ribs"][0][0][1] + parts["ribs"][0][1][1]) / 2)
    arcade.draw_circle_filled(mid[0], mid[1], max(1.5, r * 0.8), (200, 170, 90))   # the ribs' pin
    arcade.draw_line(wall_top[0], wall_top[1], f1[0], f1[1], WOOD, 2 * r)


def _holes(p: Point, q: Point, r: float) -> None:
    """Perforations along a floor plank (dark dots): a platform, not a shelf."""
    n = max(1, int(math.hypot(q[0] - p[0], q[1] - p[1]) / max(4.0, 3.2 * r)))
    for k in range(n):
        u = (k + 0.5) / n
        arcade.draw_circle_filled(p[0] + (q[0] - p[0]) * u, p[1] + (q[1] - p[1]) * u,
                                  max(0.8, r * 0.35), (70, 50, 34))
