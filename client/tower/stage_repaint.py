"""How the battle stage repaints less than itself (issue 36 item 6): on a software renderer
(llvmpipe) a frame costs the pixels it fills, and a whole stage costs 10-20 ms. The
handful's cubes, and every cube whose drawing changed in the pour (`box_tiles`: where it
was and is; issue 48: the whole shaft was repainted every frame), are repainted tile by
tile (`tile_rects`), the opening's camera move
fills each pixel once (`minus`: the board only where the stage is not), drawn through
cameras that scale the cached pictures (`camera`) under the framebuffer's scissor
(`pixels`).

Tests: tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

import arcade
from arcade.camera import CameraData, OrthographicProjectionData, OrthographicProjector
from arcade.types import LBWH

from client.core.dirty_union import misses
from client.tower.drop_play import Pose

TILE = 48              # the handful's repaint is counted in tiles of this many pixels


def tile_rects(tiles: set[tuple[int, int]], bounds: tuple[float, float, float, float]
               ) -> list[tuple[int, int, int, int]]:
    """Tiles as few rectangles (left, bottom, width, height), inside `bounds` (left,
    bottom, right, top): runs along each row, stacked where rows' runs match."""
    runs: list[tuple[int, int, int]] = []            # (first x tile, last x tile, row)
    for ty in sorted({t[1] for t in tiles}):
        row = sorted(tx for tx, y in tiles if y == ty)
        start = prev = row[0]
        for tx in row[1:] + [None]:
            if tx is not None and tx == prev + 1:
                prev = tx
                continue
            runs.append((start, prev, ty))
            if tx is not None:
                start = prev = tx
    boxes: dict[tuple[int, int], tuple[int, int]] = {}   # (x0, x1) -> (first row, last row)
    out: list[tuple[int, int, int, int]] = []
    for x0, x1, ty in runs:
        b = boxes.get((x0, x1))
        if b is not None and b[1] == ty - 1:
            boxes[(x0, x1)] = (b[0], ty)
            continue
        if b is not None:
            out.append((x0, b[0], x1, b[1]))
        boxes[(x0, x1)] = (ty, ty)
    out += [(x0, y0, x1, y1) for (x0, x1), (y0, y1) in boxes.items()]
    rects = []
    bl, bb, br, bt = bounds
    for x0, y0, x1, y1 in out:
        left, bottom = max(bl, x0 * TILE), max(bb, y0 * TILE)
        right, top = min(br, (x1 + 1) * TILE), min(bt, (y1 + 1) * TILE)
        if right > left and top > bottom:
            rects.append((int(left), int(bottom), int(right - left) + 1, int(top - bottom) + 1))
    return rects


def handful_tiles(shown: list[Pose], shaft: tuple[int, int, int, int]) -> set[tuple[int, int]]:
    """The TILE-pixel tiles the thrown cubes and those on their way to a side's tray
    cover outside the shaft's rectangle (a cube's glow included): what a frame of the
    handful, or of the cubes tossed on into the sides' trays, repaints beside the shaft."""
    x, _y, w, _h = shaft
    boxes = []
    for p in shown:
        r = 0.9 * p.size + 2
        if not (p.thrown or p.moving) or (x <= p.x - r and p.x + r <= x + w):
            continue
        boxes.append((p.x - r, p.y - r, p.x + r, p.y + r))
    return box_tiles(boxes)


def box_tiles(boxes: list[tuple[float, float, float, float]]) -> set[tuple[int, int]]:
    """The TILE-pixel tiles these boxes (left, bottom, right, top) cover."""
    tiles: set[tuple[int, int]] = set()
    for x0, y0, x1, y1 in boxes:
        for tx in range(int(x0 // TILE), int(x1 // TILE) + 1):
            for ty in range(int(y0 // TILE), int(y1 // TILE) + 1):
                tiles.add((tx, ty))
    return tiles


def scissor_misses(rects: list[tuple[int, int, int, int]]) -> bool:
    """The window's partial repaint (its scissor, or the rectangles of its one draw over
    several, `dirty_union`) misses all these rectangles (False when the whole window is
    repainted)."""
    win = arcade.get_window()
    px = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
    return misses([pixels(r, px) for r in rects])


def minus(outer: tuple[float, float, float, float], inner: tuple[float, float, float, float]
          ) -> list[tuple[float, float, float, float]]:
    """`outer` less `inner` as at most four rectangles (left, bottom, width, height)."""
    l, b, w, h = outer
    r, t = l + w, b + h
    il, ib = max(l, inner[0]), max(b, inner[1])
    ir, it = min(r, inner[0] + inner[2]), min(t, inner[1] + inner[3])
    if ir <= il or it <= ib:
        return [outer] if w > 0 and h > 0 else []
    out = [(l, it, w, t - it), (l, b, w, ib - b), (l, ib, il - l, it - ib), (ir, ib, r - ir, it - ib)]
    return [q for q in out if q[2] > 0.5 and q[3] > 0.5]


def pixels(rect: tuple[float, float, float, float], k: float) -> tuple[int, int, int, int]:
    """A rectangle of the window's logical units as the framebuffer's scissor."""
    x0, y0 = int(rect[0] * k), int(rect[1] * k)
    return x0, y0, max(1, int((rect[0] + rect[2]) * k + 0.999) - x0), max(1, int((rect[1] + rect[3]) * k + 0.999) - y0)


def camera(win: arcade.Window, zoom: float, offx: float, offy: float) -> OrthographicProjector:
    """A camera that draws a point p of the window's logical plane at p * zoom + offset."""
    scale = getattr(win, "ui_scale", 1.0)
    wl, hl = win.width / scale, win.height / scale
    return OrthographicProjector(
        view=CameraData(),
        projection=OrthographicProjectionData(-offx / zoom, (wl - offx) / zoom,
                                              -offy / zoom, (hl - offy) / zoom, -100, 100),
        viewport=LBWH(0, 0, win.width, win.height))


class StageRepaint:
    """What the next frames of the stage repaint, counted as the drop's frames are shown:
    the handful's place while it is gathered and just after, the panels' counts when a
    cube landed, the tiles the handful's cubes crossed, the whole stage after the opening."""

    def __init__(self) -> None:
        self.hand_left: int = 0         # frames the handful's place is still to be repainted
        self.recount: int = 0           # frames the panels' counts are still to be repainted
        self.whole: int = 0             # frames the whole stage is still to be repainted
        self.hand_rects: list[tuple[int, int, int, int]] = []   # the handful's tiles, this frame
        self._hand_tiles: set[tuple[int, int]] = set()          # the handful's tiles last frame

    def framed(self, gathering: bool, tiles: set[tuple[int, int]],
               bounds: tuple[float, float, float, float], landed: bool,
               moved: set[tuple[int, int]] | None = None) -> None:
        """A frame was shown: `tiles` the handful covers now (`handful_tiles`), `bounds`
        the view (left, bottom, right, top), `landed` whether a cube landed in it,
        `moved` the tiles where the cubes' drawing changed since the last frame, where
        they were and are (`CubeSprites.changed`): the shaft is repainted only there."""
        self.hand_left = 2 if gathering else max(0, self.hand_left - 1)
        self.recount = max(0, self.recount - 1)
        self.whole = max(0, self.whole - 1)
        every = tiles | self._hand_tiles | (moved or set())
        self.hand_rects = tile_rects(every, bounds) if every else []
        self._hand_tiles = tiles
        if landed:
            self.recount = 2            # the panels' counts change

    def held(self) -> None:
        """A frame of the tally's or the climax's hold: nothing moves, so once the whole
        stage and the counts have been repainted (the frames `whole` and `recount` still
        ask for), the frames repaint nothing (issue 48: the climax repainted the whole
        stage every frame, 10-17 ms a frame for 2.2 s)."""
        self.whole = max(0, self.whole - 1)
        self.recount = max(0, self.recount - 1)
        self.hand_left = 0
        self.hand_rects = []
        self._hand_tiles = set()

    def opened(self) -> None:
        """The camera's move has ended: the stage as it is, unscaled, over the last move."""
        self.whole = 2

    def rects(self, counts: list[tuple[int, int, int, int]],
              held: bool = False) -> list[tuple[int, int, int, int]]:
        """The pieces of this frame once the stage is open and still (no whole repaint):
        the tiles where cubes moved (not the whole shaft: issue 48, the shaft was half a
        pour frame's pixels) and the counts after a landing; `held`: the drop's tally or
        climax, where nothing moves."""
        if held:
            return counts if self.recount else []
        return (counts if self.recount else []) + self.hand_rects
