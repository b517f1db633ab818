"""A node's static drawing kept in an offscreen texture: drawn once when it changes, blitted
every frame (cheap frames on a software renderer).

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Callable

import arcade
from arcade.gl import Framebuffer
from arcade.gui.surface import Surface
from arcade.types import LBWH


class CachedLayer:
    """Renders a node's static drawing once into an offscreen texture; `draw` blits it.

    `render(rect, fn)` calls `fn()` with window coordinates mapped onto the texture, so a
    node draws the same way whether cached or not. Cheap frames on a software renderer.

    `samples` > 1: the drawing is anti-aliased (issue 48: the stage's eaves were jagged
    stairs at 1920x1080 and 2560x1440; the window itself is not multisampled, too slow on
    llvmpipe): drawn into a multisampled framebuffer kept beside the texture (a picture
    drawn in parts goes on in it) and resolved into the texture after each `render`. Only
    the drawing pays; `draw` blits the same one-sample texture as before.
    """

    def __init__(self, samples: int = 0) -> None:
        self.surface: Surface | None = None
        self.rect: tuple[int, int, int, int] | None = None
        self.samples: int = samples
        self._multi: Framebuffer | None = None      # the multisampled drawing (`samples`)

    def render(self, rect: tuple[float, float, float, float], fn: Callable[[], None],
               clear: bool = True) -> None:
        """`clear` False: `fn` draws over what the layer holds (a picture drawn in parts,
        one a frame; the same place and size)."""
        l, b, w, h = (int(round(v)) for v in rect)
        w, h = max(1, w), max(1, h)
        win = arcade.get_window()
        # drawn at the window's real resolution under an interface scale (crisp lines)
        ratio = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        surface = self.surface
        if surface is None or surface.size != (w, h) or surface.pixel_ratio != ratio:
            self.surface = surface = Surface(size=(w, h), position=(l, b), pixel_ratio=ratio)
            self._multi = None
        elif not clear and self.rect != (l, b, w, h):
            raise ValueError(f"a layer drawn at {self.rect} added to at {(l, b, w, h)}")
        surface.position = (l, b)
        self.rect = (l, b, w, h)
        multi = self._multisampled(surface)
        with surface.activate():
            with multi.activate() if multi is not None else nullcontext():
                if clear:
                    (multi or surface.fbo).clear()
                cam = surface._cam
                cam.projection.rect = LBWH(l, b, w, h)
                cam.use()
                fn()
        if multi is not None:       # resolved: each sample's share of every pixel
            ctx = surface.ctx
            ctx.copy_framebuffer(multi, surface.fbo)
            ctx.active_framebuffer.use(force=True)     # the blit bound its own two
        win.default_camera.use()

    def _multisampled(self, surface: Surface) -> Framebuffer | None:
        """The framebuffer `render` draws into when the layer is anti-aliased (`samples`),
        the surface's size; None otherwise or where the driver has no multisampling."""
        if self.samples <= 1:
            return None
        ctx = surface.ctx
        n = min(self.samples, int(ctx.info.MAX_SAMPLES))
        if n <= 1:
            return None
        multi = self._multi
        if multi is None or multi.size != surface.fbo.size:
            tex = ctx.texture(surface.size_scaled, components=4, samples=n)
            self._multi = multi = ctx.framebuffer(color_attachments=[tex])
            multi.clear()
        multi.viewport = surface.fbo.viewport
        return multi

    def draw(self, opaque: bool = False, smooth: bool = False) -> None:
        """`opaque`: the layer covers its rectangle, so it is copied without blending or
        filtering (pixel for pixel), which costs a software renderer about a third less;
        `smooth`: filtered all the same (drawn scaled, under a camera that zooms)."""
        if self.surface is None:
            return
        if not opaque:
            self.surface._pixelated = False
            self.surface.draw()
            return
        ctx = self.surface.ctx
        self.surface._pixelated = not smooth
        ctx.disable(ctx.BLEND)   # type: ignore[no-untyped-call]  # unannotated in arcade
        try:
            self.surface.draw()
        finally:
            ctx.enable(ctx.BLEND)
