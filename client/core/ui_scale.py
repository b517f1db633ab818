"""Interface scale: the whole window drawn larger or smaller (the settings' UI scale).

Scenes lay out in *logical* pixels (window pixels / scale). Drawing is scaled by giving
Arcade a default camera whose projection covers the logical size: every draw call, the
text batches and the offscreen `CachedLayer`s (which return to the default camera) go
through it, so no node knows about the scale. The App divides mouse positions by the
scale. Arcade has no public way to swap the default camera, hence `ctx._default_camera`.

Tests: tests/client/core/test_settings.py, tests/client/game/test_table_layout.py,
tests/client/scenes/test_window_size.py.
"""

from __future__ import annotations

import arcade
from arcade.camera.default import DefaultProjector
from arcade.context import ArcadeContext
from arcade.types import LBWH, Rect
from pyglet.math import Mat4

MIN_LOGICAL = (960, 640)     # the smallest layout the scenes are made for
AUTO_BASE = (1280, 800)      # automatic scale: 1 up to this window, then growing with it
AUTO_MAX = 2.0
SCREEN_SHARE = 0.9           # of each side of the screen: room for the desktop's panels


class ScaledProjector(DefaultProjector):
    def __init__(self, scale: float, *, context: ArcadeContext | None = None) -> None:
        self.scale = scale
        super().__init__(context=context)
        self.viewport = self._viewport

    @property
    def viewport(self) -> Rect:
        return self._viewport

    @viewport.setter
    def viewport(self, viewport: Rect) -> None:
        self._viewport = viewport
        self._projection_matrix = Mat4.orthogonal_projection(
            0, viewport.width / self.scale, 0, viewport.height / self.scale, -100, 100)


def auto_scale(width: int, height: int) -> float:
    """The automatic scale: 1 in windows up to 1280x800, then text, cards and the tower
    grow with the window's smaller proportion (1.35 at 1920x1080, 1.8 at 2560x1440), so
    the layout keeps between 960x640 and about 1900x800 logical pixels. Rounded to 1/20
    so a resize by a pixel or two does not redraw everything at a new scale."""
    s = min(width / AUTO_BASE[0], height / AUTO_BASE[1])
    return max(1.0, min(AUTO_MAX, int(s * 20) / 20))


def window_size_for_screen(screen_width: int, screen_height: int) -> tuple[int, int]:
    """The window's first size on a screen of this size: most of the screen (leaving the
    desktop's panels and title bar room, so 1920x1080 is not a small window in a corner),
    never below the smallest layout unless the screen itself is smaller (on a 960x640
    screen the whole screen, so no panel is off it), never larger than the screen."""
    sizes = []
    for side, least in ((screen_width, MIN_LOGICAL[0]), (screen_height, MIN_LOGICAL[1])):
        sizes.append(min(side, max(least, int(side * SCREEN_SHARE))))
    return sizes[0], sizes[1]


def effective_scale(wanted: float, width: int, height: int) -> float:
    """The scale to draw at: automatic for 0 (or anything not positive), else the wanted
    one, lowered so the logical window stays at least MIN_LOGICAL."""
    if not wanted or wanted <= 0:
        return auto_scale(width, height)
    fit = min(width / MIN_LOGICAL[0], height / MIN_LOGICAL[1])
    return max(0.5, min(wanted, fit)) if wanted > 1 else wanted


def install(window: arcade.Window, scale: float) -> ScaledProjector:
    """Make `scale` the window's drawing scale (1.0: as before)."""
    ctx = window.ctx
    proj = ScaledProjector(scale, context=ctx)
    proj.viewport = LBWH(0, 0, window.width, window.height)
    ctx._default_camera = proj
    proj.use()
    return proj
