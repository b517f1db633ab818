"""The battle stage's opening: a camera move from the province fought over to the
stage (issue 36). The board's cached picture zooms in on the province while a small
picture of the stage grows out of it to the whole view, over OPENING seconds. A frame
of it fills each pixel of the view once (the board only where the stage is not), so it
costs what one picture of the stage costs.

Tests: tests/client/tower/test_stage_frames.py, tests/client/tower/test_stage.py.
"""

from __future__ import annotations

from typing import Protocol

import arcade

from client.core import theme
from client.core.cached_layer import CachedLayer
from client.tower.cube_sprites import CubeSprites
from client.tower.stage_layout import Box
from client.tower.stage_repaint import camera, minus, pixels

OPENING = 0.5          # real seconds of the camera's move from the province to the stage
BOARD_ZOOM = 2.6       # how far the camera moves in on the board while the stage opens
STAGE_FROM = 0.08      # the stage's size, against the view's, when it appears at the province


class Sea(Protocol):
    """The board's open sea, in the board's own coordinates far past its picture
    (`client.board.board_view.BoardView.open_sea`)."""

    def draw(self) -> None: ...


class Opening:
    """The camera's move into one view's box; `progress` runs from 0 to 1 (1: open)."""

    def __init__(self) -> None:
        self.opened_from: tuple[float, float] | None = None     # the stage opens from here
        self.backdrop: CachedLayer | None = None   # the board's picture, zoomed into
        self.progress = 1.0
        self._sea: Sea | None = None               # the board's sea, on beyond its picture

    def start(self, point: tuple[float, float] | None, backdrop: CachedLayer | None,
              big: bool, sea: Sea | None = None) -> None:
        """Move in from this point of the window (only on the stage; elsewhere the view
        is open at once). `sea`: the board's sea with its swell, drawn on where the
        zoomed map's picture does not reach the view's edge."""
        self.opened_from = point
        self.backdrop = backdrop
        self.progress = 0.0 if point is not None and big else 1.0
        self._sea = sea

    @property
    def moving(self) -> bool:
        return self.progress < 1.0

    def advance(self, seconds: float) -> bool:
        """On by this many real seconds (at speed 1); True when the move has just ended."""
        self.progress = min(1.0, self.progress + seconds / OPENING)
        return self.progress >= 1.0

    def _eased(self) -> float:
        u = self.progress
        return u * u * (3 - 2 * u)

    def board_xf(self, box: Box) -> tuple[float, float, float]:
        """The camera on the board: a point p of the board is drawn at p * zoom + offset;
        the province moves from its place towards the view's middle."""
        left, bottom, width, height = box
        u = self._eased()
        z = 1 + (BOARD_ZOOM - 1) * u
        fx, fy = self.opened_from or (left + width / 2, bottom + height / 2)
        cx, cy = left + width / 2, bottom + height / 2
        px, py = fx + (cx - fx) * u, fy + (cy - fy) * u          # where the province is drawn
        offx, offy = px - fx * z, py - fy * z
        bd = self.backdrop.rect if self.backdrop is not None else None
        if bd is not None:       # once the zoomed board is larger than the view, it fills it
            bl, bb, bw, bh = bd
            if bw * z >= width:
                offx = min(max(offx, left + width - (bl + bw) * z), left - bl * z)
            if bh * z >= height:
                offy = min(max(offy, bottom + height - (bb + bh) * z), bottom - bb * z)
        return z, offx, offy

    def stage_rect(self, box: Box) -> Box:
        """Where the stage is drawn while the camera moves in: a small picture of it at
        the province, growing to the whole view as the board behind it is zoomed into."""
        if self.progress >= 1.0 or self.opened_from is None:
            return box
        left, bottom, width, height = box
        u = self._eased()
        k = STAGE_FROM + (1 - STAGE_FROM) * u
        z, sx, sy = self.board_xf(box)
        fx, fy = self.opened_from
        cx, cy = left + width / 2, bottom + height / 2
        w, h = width * k, height * k
        # the stage's middle: where the province is on the zoomed board, on its way to the view's
        mx = (fx * z + sx) * (1 - u) + cx * u
        my = (fy * z + sy) * (1 - u) + cy * u
        return (min(max(left, mx - w / 2), left + width - w),
                min(max(bottom, my - h / 2), bottom + height - h), w, h)

    def draw(self, box: Box, stage: CachedLayer, cubes: CubeSprites) -> None:
        """One frame of the move: the board zoomed (where the stage is not), then the
        stage's picture and its cubes scaled into `stage_rect`."""
        win = arcade.get_window()
        ctx = win.ctx
        px = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        inner = self.stage_rect(box)
        scissor = ctx.scissor
        z, offx, offy = self.board_xf(box)
        bd = self.backdrop
        board = (0.0, 0.0, 0.0, 0.0)
        if bd is not None and bd.rect is not None:
            bl, bb, bw, bh = bd.rect
            board = (bl * z + offx, bb * z + offy, bw * z, bh * z)
        try:
            for strip in minus(box, inner):
                bares = minus(strip, board)              # beyond the map: its sea, not the table
                if bares and self._sea is None:
                    for bare in bares:
                        arcade.draw_lbwh_rectangle_filled(*bare, theme.SEA)
                if bd is not None and bd.surface is not None:
                    camera(win, z, offx, offy).use()
                    if self._sea is not None:             # the sea goes on, with its waves,
                        for bare in bares:                # only where the map is not (drawn
                            ctx.scissor = pixels(bare, px)    # over the strip, it doubled the
                            self._sea.draw()              # first frames' pixels: issue 48)
                    ctx.scissor = pixels(strip, px)      # after the camera: its use resets it
                    bd.draw(opaque=True, smooth=True)
                    win.default_camera.use()
                    ctx.scissor = scissor
            k = inner[2] / max(1.0, box[2])
            camera(win, k, inner[0] - box[0] * k, inner[1] - box[1] * k).use()
            ctx.scissor = pixels(inner, px)
            stage.draw(opaque=True, smooth=True)
            cubes.draw()
        finally:
            win.default_camera.use()
            ctx.scissor = scissor
        arcade.draw_lbwh_rectangle_outline(*inner, (240, 200, 120), 2)
