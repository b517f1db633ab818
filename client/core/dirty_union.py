"""One draw of a node over the union of its dirty rectangles (issue 48 item 1): the
window's partial repaint drew an animated node once per rectangle it asked for, under
that rectangle's scissor, so a frame of the battle's pour (the shaft, the panels' counts,
the tiles of cubes tossed into the trays) drew the whole stage about 1.7 times (10-17 ms
a frame on llvmpipe). Here the node is drawn once (`draw_in`): it first copies its opaque
picture into each rectangle under that rectangle's scissor (`each_rect`), which also
marks the rectangles' pixels in the stencil buffer (the window has 8 bits of it); what it
draws then (the cubes, the words) is drawn once, under the rectangles' bounding box and
only where the stencil is marked, so no pixel outside them is touched (a cube or a
shadow at rest outside them is not drawn over itself). A software renderer pays for the
pixels a draw fills, so the picture is never copied into the whole box.

`DRAWING` holds the rectangles (framebuffer pixels) while such a draw runs, so a node can
leave out what falls outside all of them (`misses`).

Tests: tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import arcade
from pyglet import gl

Rect = tuple[int, int, int, int]           # left, bottom, width, height (framebuffer pixels)

DRAWING: list[Rect] = []                   # the rectangles of the draw running now
DRAWS = [0]                                # draws made through `draw_in` (a count for tests)
_MARK = [0]                                # the stencil's value of the last draw over several


def bounds(rects: Sequence[Rect]) -> Rect:
    """The rectangles' bounding box."""
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return x0, y0, x1 - x0, y1 - y0


def misses(rects: Sequence[Rect]) -> bool:
    """The draw running now (`draw_in`, or the window's scissor) touches none of these
    rectangles (framebuffer pixels); False when nothing limits it (a whole repaint)."""
    ctx = arcade.get_window().ctx
    live: Sequence[Rect] = DRAWING or ([ctx.scissor] if ctx.scissor is not None else [])
    if not live:
        return False
    return not any(x < cx + cw and cx < x + w and y < cy + ch and cy < y + h
                   for cx, cy, cw, ch in rects for x, y, w, h in live)


def each_rect(draw: Callable[[], None]) -> None:
    """A node's opaque picture that covers all its rectangles: drawn under each
    rectangle's own scissor while a draw over several runs (marking their pixels in the
    stencil; what the node draws after it is kept to those pixels), else once. A node
    drawn through `draw_in` over several rectangles calls it first, once."""
    if len(DRAWING) < 2:
        draw()
        return
    ctx = arcade.get_window().ctx
    box = ctx.scissor
    try:
        for r in DRAWING:
            ctx.scissor = r
            draw()
    finally:
        ctx.scissor = box
        gl.glStencilFunc(gl.GL_EQUAL, _MARK[0], 0xFF)      # from now on: only the marked pixels
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
        gl.glStencilMask(0x00)


def draw_in(ctx: arcade.ArcadeContext, rects: Sequence[Rect], draw: Callable[[], None],
            covers: bool = False) -> None:
    """Call `draw` touching only the pixels of `rects` (framebuffer pixels): under one
    rectangle's scissor, or, for several, once if `covers` (the node draws its opaque
    picture first through `each_rect`, see the module's text), else once per rectangle."""
    if not rects:
        return
    if len(rects) > 1 and not covers:
        for r in rects:
            draw_in(ctx, [r], draw)
        return
    DRAWS[0] += 1
    ctx.scissor = bounds(rects)
    DRAWING[:] = list(rects)
    if len(rects) == 1:
        try:
            draw()
        finally:
            DRAWING.clear()
        return
    gl.glEnable(gl.GL_STENCIL_TEST)
    try:
        gl.glStencilMask(0xFF)
        # a new mark each draw, so the stencil is cleared once in 255 draws, not each time
        _MARK[0] = _MARK[0] % 255 + 1
        if _MARK[0] == 1:
            ctx.scissor = None
            gl.glClearStencil(0)
            gl.glClear(gl.GL_STENCIL_BUFFER_BIT)
            ctx.scissor = bounds(rects)
        gl.glStencilFunc(gl.GL_ALWAYS, _MARK[0], 0xFF)    # `each_rect` marks its pixels
        gl.glStencilOp(gl.GL_REPLACE, gl.GL_REPLACE, gl.GL_REPLACE)
        draw()
    finally:
        DRAWING.clear()
        gl.glStencilMask(0xFF)
        gl.glDisable(gl.GL_STENCIL_TEST)
