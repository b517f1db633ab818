"""A node's static drawing kept in an offscreen texture: drawn once when it changes, blitted
every frame (cheap frames on a software renderer).

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations

from typing import Callable

import arcade
from arcade.gui.surface import Surface
from arcade.types import LBWH


class CachedLayer:
    """Renders a node's static drawing once into an offscreen texture; `draw` blits it.

    `render(rect, fn)` calls `fn()` with window coordinates mapped onto the texture, so a
    node draws the same way whether cached or not. Cheap frames on a software renderer.
    """

    def __init__(self) -> None:
        self.surface: Surface | None = None
        self.rect: tuple[int, int, int, int] | None = None

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
        with surface.activate():
            if clear:
                surface.clear()
            cam = surface._cam
            cam.projection.rect = LBWH(l, b, w, h)
            cam.use()
            fn()
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
