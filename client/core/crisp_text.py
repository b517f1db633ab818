"""Text rasterised at the size it is shown, under any interface scale (issue 27, item 8).

The interface scale (`ui_scale.py`) draws the whole window through a projection of
logical pixels; a label laid out in logical pixels has its glyphs rasterised at the
logical size and then stretched by the scale (1.35 at 1920x1080): blurry text. A
`CrispText` asks pyglet for its glyphs at the window's real resolution (its font size
times the scale; pyglet takes only whole dpi) and draws them with a vertex shader that
divides the glyphs' own offsets by the same scale and snaps each corner to a whole screen pixel, so a glyph covers
exactly the pixels it was rasterised for. To every caller it still measures in logical
pixels (`content_width`, `left`, `width` of a wrapped label...), so no layout changes.

At scale 1 the same shader only snaps the glyphs to whole pixels.

Tests: tests/client/core/test_crisp_text.py.
"""

from __future__ import annotations

from typing import Any

import arcade
import pyglet
from pyglet.graphics.shader import ShaderProgram

from client.core.beating import beat
from pyglet.text.layout.base import layout_fragment_source

_vertex_source = """#version 330 core
    in vec3 position;
    in vec4 colors;
    in vec3 tex_coords;
    in vec3 translation;
    in vec3 view_translation;
    in vec2 anchor;
    in float rotation;
    in float visible;

    out vec4 text_colors;
    out vec2 texture_coords;
    out vec4 vert_position;

    uniform WindowBlock
    {
        mat4 projection;
        mat4 view;
    } window;

    void main()
    {
        float s = SCALE;
        mat4 m_rotation = mat4(1.0);
        m_rotation[0][0] =  cos(-radians(rotation));
        m_rotation[0][1] =  sin(-radians(rotation));
        m_rotation[1][0] = -sin(-radians(rotation));
        m_rotation[1][1] =  cos(-radians(rotation));
        // the glyph's corner in screen pixels from the label's origin (rasterised at s)
        vec4 local = m_rotation * vec4(position + view_translation + vec3(anchor, 0.0), 1.0);
        // snapped to whole screen pixels, then back to the logical pixels projected
        vec2 screen = floor(translation.xy * s + local.xy + 0.5);
        vec4 logical = vec4(screen / s, translation.z + local.z, 1.0);
        gl_Position = window.projection * window.view * logical * visible;
        vert_position = logical;
        text_colors = colors;
        texture_coords = tex_coords.xy;
    }
"""

_programs: dict[tuple[int, float], ShaderProgram] = {}


def text_program(scale: float) -> ShaderProgram:
    """The shader for glyphs rasterised at `scale` (one per scale and GL context). At
    scale 1 it only snaps glyphs to whole pixels: pyglet's own shader draws a label at a
    fractional position with a column of a glyph lost ("Settsu" losing its u's edge)."""
    ctx = pyglet.gl.current_context
    key = (id(ctx), round(scale, 4))
    program = _programs.get(key)
    if program is None:
        assert ctx is not None
        source = _vertex_source.replace("SCALE", repr(float(scale)))
        program = ctx.create_program((source, "vertex"), (layout_fragment_source, "fragment"))
        _programs[key] = program
    return program


def window_text_scale() -> float:
    """How many screen pixels one logical pixel covers in the current window: the
    interface scale times the screen's own pixel ratio (1 without a window)."""
    try:
        win = arcade.get_window()
    except Exception:
        return 1.0
    return float(getattr(win, "ui_scale", 1.0)) * float(win.get_pixel_ratio())


class CrispText(arcade.Text):
    """An `arcade.Text` whose glyphs are rasterised at `scale` times their logical size;
    its sizes and edges are given in logical pixels like any other node's."""

    def __init__(self, text: str, x: float, y: float, color: Any = arcade.color.WHITE,
                 font_size: float = 12, width: int | None = None, *, scale: float = 1.0,
                 **kwargs: Any) -> None:
        self.scale = scale
        self.logical_width = width     # the wrapping width asked for (logical pixels)
        kwargs["program"] = text_program(scale)
        font_size = font_size * scale        # pyglet takes whole dpi only: the size scales
        if width:
            width = int(round(width * scale))
        super().__init__(text, x, y, color, font_size, width, **kwargs)
        beat()      # a first frame lays out hundreds of labels (client.core.beating)

    # -- measured in logical pixels ---------------------------------------------------------
    @property
    def font_size(self) -> float:
        return self.label.font_size / self.scale

    @font_size.setter
    def font_size(self, font_size: float) -> None:
        self.label.font_size = font_size * self.scale

    @property  # type: ignore[override]
    def width(self) -> float | None:
        w = self.label.width
        return None if w is None else w / self.scale

    @width.setter
    def width(self, width: float) -> None:
        self.label.width = int(round(width * self.scale))

    @property  # type: ignore[override]
    def height(self) -> float | None:
        h = self.label.height
        return None if h is None else h / self.scale

    @height.setter
    def height(self, value: float) -> None:
        self.label.height = int(round(value * self.scale))

    @property
    def content_width(self) -> float:  # type: ignore[override]
        return self.label.content_width / self.scale

    @property
    def content_height(self) -> float:  # type: ignore[override]
        return self.label.content_height / self.scale

    @property
    def content_size(self) -> tuple[float, float]:  # type: ignore[override]
        return self.content_width, self.content_height

    @property
    def size(self) -> tuple[float | None, float | None]:
        return self.width, self.height

    def _edge(self, edge: float, origin: float) -> float:
        return origin + (edge - origin) / self.scale

    @property
    def left(self) -> float:
        return self._edge(self.label.left, self.label.x)

    @property
    def right(self) -> float:
        return self._edge(self.label.right, self.label.x)

    @property
    def bottom(self) -> float:
        return self._edge(self.label.bottom, self.label.y)

    @property
    def top(self) -> float:
        return self._edge(self.label.top, self.label.y)
