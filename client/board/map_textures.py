"""The map's paper and sea, made by the project's own code at start (no downloaded art):
tileable greyscale patterns from numpy noise, and a triangle mesh that multiplies each
part's colour by one of them (issue 28 item 4: a board with a sense of place).

- `paper`: washi-like paper, soft clouds and long thin fibres, 0.86-1.0 of the colour
  under it: owners' colours and region tints keep their hue (colour-blind safety is the
  palette's), they only gain a grain.
- `sea`: slow swells and fine ripple lines.

Both are periodic (made by filtering white noise in the frequency domain, which wraps), so
they tile without seams. Built once per process (about 40 ms); drawn only when the map's
cached layer is rebuilt, never per frame.

Tests: tests/client/board/test_map_look.py.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import arcade
import numpy as np
from numpy.typing import ArrayLike
from arcade.gl import BufferDescription, Geometry, Texture2D

from client.core.beating import beat
from client.core.gpu_mesh import vertex_block

SIZE = 256


def periodic_noise(size: int, scale: float, rng: np.random.Generator,
                   stretch: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """Smooth noise that tiles: white noise low-passed with a Gaussian of `scale` pixels
    (stretched per axis for fibres), normalised to -1..1."""
    white = rng.standard_normal((size, size))
    fy = np.fft.fftfreq(size)[:, None] * stretch[1]
    fx = np.fft.fftfreq(size)[None, :] * stretch[0]
    gauss = np.exp(-2 * (np.pi * scale) ** 2 * (fx ** 2 + fy ** 2))
    n = np.real(np.fft.ifft2(np.fft.fft2(white) * gauss))
    n -= n.mean()
    beat()          # several of these at a scene's first frame (client.core.beating)
    return n / max(1e-9, float(np.abs(n).max()))


@functools.cache
def paper_pattern() -> np.ndarray:
    """Paper: multipliers 0.86..1.0 (size x size, float32)."""
    rng = np.random.default_rng(20261125)
    clouds = periodic_noise(SIZE, 18, rng)
    grain = periodic_noise(SIZE, 1.6, rng)
    fibres = periodic_noise(SIZE, 2.5, rng, stretch=(0.12, 1.0))      # long along x
    fibres2 = periodic_noise(SIZE, 2.5, rng, stretch=(1.0, 0.15))     # and some along y
    f = np.maximum(fibres, fibres2)
    value = 0.95 + 0.04 * clouds + 0.022 * grain - 0.05 * np.clip(f - 0.45, 0, None) / 0.55
    paper: np.ndarray = np.clip(value, 0.86, 1.0).astype("f4")
    return paper


@functools.cache
def sea_pattern() -> np.ndarray:
    """Sea: swells and thin ripple crests, multipliers 0.86..1.06."""
    rng = np.random.default_rng(1853)
    swell = periodic_noise(SIZE, 22, rng)
    warp = periodic_noise(SIZE, 14, rng)
    y = np.arange(SIZE)[:, None] / SIZE
    x = np.arange(SIZE)[None, :] / SIZE
    phase = 2 * np.pi * (12 * y + 1 * x) + 2.2 * warp          # 12 crests per tile, wavy
    crest = np.clip((np.sin(phase) - 0.86) / 0.14, 0, 1) ** 2
    value = 0.95 + 0.035 * swell + 0.10 * crest
    return np.clip(value, 0.86, 1.06).astype("f4")


def _texture(pattern: np.ndarray) -> Texture2D:
    ctx = arcade.get_window().ctx
    level = np.clip(pattern / 1.06 * 255, 0, 255).astype("u1")       # 255 = x1.06
    rgba = np.dstack([level, level, level, np.full_like(level, 255)])
    tex = ctx.texture((SIZE, SIZE), components=4, data=rgba.tobytes(),
                      wrap_x=ctx.REPEAT, wrap_y=ctx.REPEAT)
    tex.filter = ctx.LINEAR, ctx.LINEAR
    return tex


_vertex_source = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform float tile;
in vec2 in_vert;
in vec4 in_color;
out vec4 v_color;
out vec2 v_uv;
void main() {
    gl_Position = window.projection * window.view * vec4(in_vert, 0.0, 1.0);
    v_color = in_color / 255.0;
    v_uv = in_vert / tile;
}
"""
_fragment_source = """#version 330
uniform sampler2D pattern;
in vec4 v_color;
in vec2 v_uv;
out vec4 f_color;
void main() {
    float k = texture(pattern, v_uv).r * 1.06;
    f_color = vec4(min(v_color.rgb * k, 1.0), v_color.a);
}
"""

_cache: dict[tuple[int, str], object] = {}


def _gl(kind: str) -> tuple[object, Texture2D]:
    ctx = arcade.get_window().ctx
    key = (id(ctx), kind)
    if key not in _cache:
        program = _cache.get((id(ctx), "program"))
        if program is None:
            program = ctx.program(vertex_shader=_vertex_source, fragment_shader=_fragment_source)
            _cache[(id(ctx), "program")] = program
        _cache[key] = (program, _texture(paper_pattern() if kind == "paper" else sea_pattern()))
    return _cache[key]  # type: ignore[return-value]


class TexturedMesh:
    """Coloured triangles multiplied by a pattern ("paper" or "sea") laid `tile` pixels a
    repeat over the screen; one draw call, like `client.core.gpu_mesh.Mesh`."""

    def __init__(self, kind: str, tile: float) -> None:
        self.kind = kind
        self.tile = float(tile)
        self._parts: list[np.ndarray] = []
        self._geometry: Geometry | None = None

    def add(self, pts: ArrayLike, colour: Sequence[int]) -> None:
        block = vertex_block(pts, colour)
        if block is not None:
            self._parts.append(block)
            self._geometry = None

    def draw(self) -> None:
        if not self._parts:
            return
        ctx = arcade.get_window().ctx
        program, texture = _gl(self.kind)
        if self._geometry is None:
            data = np.concatenate(self._parts)
            buffer = ctx.buffer(data=data.tobytes())
            self._geometry = ctx.geometry([BufferDescription(buffer, "2f 4f",
                                                             ["in_vert", "in_color"])])
        program["tile"] = self.tile          # type: ignore[index]
        program["pattern"] = 0               # type: ignore[index]
        texture.use(0)
        ctx.enable_only(ctx.BLEND)
        self._geometry.render(program, mode=ctx.TRIANGLES)  # type: ignore[arg-type]
        ctx.disable(ctx.BLEND)   # type: ignore[no-untyped-call]  # unannotated in arcade
