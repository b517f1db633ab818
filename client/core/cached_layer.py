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
    llvmpipe): each `render` draws into a multisampled framebuffer, resolves it into the
    texture and lets it go (about 32 MB at 1920x1080, not kept). A part added later
    (`clear` False) starts from the texture copied back in. Only the drawing pays (about
    2.5 times a plain layer's on llvmpipe); `draw` blits the same one-sample texture.
    """

    def __init__(self, samples: int = 0) -> None:
        self.surface: Surface | None = None
        self.rect: tuple[int, int, int, int] | None = None
        self.samples: int = samples

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
        elif not clear and self.rect != (l, b, w, h):
            raise ValueError(f"a layer drawn at {self.rect} added to at {(l, b, w, h)}")
        surface.position = (l, b)
        self.rect = (l, b, w, h)
        multi = self._multisampled(surface)
        with surface.activate():
            with multi.activate() if multi is not None else nullcontext():
                cam = surface._cam
                cam.projection.rect = LBWH(l, b, w, h)
                cam.use()
                if clear:
                    (multi or surface.fbo).clear()
                elif multi is not None:
                    self.draw(opaque=True)      # the picture so far, pixel for pixel
                fn()
        if multi is not None:       # resolved: each pixel the mean of its samples
            ctx = surface.ctx
            ctx.copy_framebuffer(multi, surface.fbo)
            ctx.active_framebuffer.use(force=True)     # the blit bound its own two
            for tex in multi.color_attachments:
                tex.delete()   # type: ignore[no-untyped-call]  # unannotated in arcade
            multi.delete()     # type: ignore[no-untyped-call]
        win.default_camera.use()

    def holds(self, rect: tuple[float, float, float, float]) -> bool:
        """The layer holds a picture drawn at this place and size, at the window's present
        resolution (`render(clear=False)` would add to it, not start a blank one)."""
        if self.surface is None:
            return False
        l, b, w, h = (int(round(v)) for v in rect)
        win = arcade.get_window()
        ratio = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        return self.rect == (l, b, max(1, w), max(1, h)) and self.surface.pixel_ratio == ratio

    def _multisampled(self, surface: Surface) -> Framebuffer | None:
        """A framebuffer of the surface's size for `render` to draw into when the layer is
        anti-aliased (`samples`); None otherwise or where the driver has no multisampling."""
        ctx = surface.ctx
        n = min(self.samples, int(ctx.info.MAX_SAMPLES))
        if n <= 1:
            return None
        multi = ctx.framebuffer(color_attachments=[ctx.texture(surface.size_scaled, components=4, samples=n)])
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
