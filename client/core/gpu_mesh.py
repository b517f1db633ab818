"""Coloured triangles in one GPU buffer, assembled with numpy: one draw call per mesh.

Why not `arcade.shape_list`: it converts every vertex's colour through Python objects and
packs the data with nested list comprehensions; for the map's ~40,000 vertices that took
most of a 200-400 ms board rebuild on the project's machine, a visible stall whenever the
state changed. Here a part is one numpy block and the buffer is made in a single copy.

Tests: tests/client/board/test_board_layout.py (the board draws through it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

import arcade
from arcade.gl import Buffer, BufferDescription, Geometry


def vertex_block(pts: ArrayLike, colour: Sequence[int]) -> np.ndarray | None:
    """Points (x, y pairs) and one RGB(A) colour as the rows of a vertex buffer
    (x, y, r, g, b, a as float32), or None for no points."""
    a = np.asarray(pts, dtype="f4").reshape(-1, 2)
    if not len(a):
        return None
    block = np.empty((len(a), 6), dtype="f4")
    block[:, :2] = a
    block[:, 2:5] = colour[:3]
    block[:, 5] = colour[3] if len(colour) > 3 else 255
    return block


class Mesh:
    """Collects triangles (three points each) with a colour per part; `draw` uploads once."""

    def __init__(self) -> None:
        self._parts: list[np.ndarray] = []
        self._geometry: Geometry | None = None
        self._buffer: Buffer | None = None

    def add(self, pts: ArrayLike, colour: Sequence[int]) -> None:
        block = vertex_block(pts, colour)
        if block is not None:
            self._parts.append(block)
            self._geometry = None

    def __len__(self) -> int:
        return sum(len(p) for p in self._parts)

    def draw(self) -> None:
        if not self._parts:
            return
        ctx = arcade.get_window().ctx
        geometry = self._geometry
        if geometry is None:
            data = np.concatenate(self._parts)
            self._buffer = buffer = ctx.buffer(data=data.tobytes())
            self._geometry = geometry = ctx.geometry([BufferDescription(buffer, "2f 4f",
                                                                        ["in_vert", "in_color"])])
        prog = ctx.shape_element_list_program
        prog["Position"] = 0.0, 0.0
        prog["Angle"] = 0.0
        ctx.enable_only(ctx.BLEND)           # as arcade's ShapeElementList does
        geometry.render(prog, mode=ctx.TRIANGLES)
        ctx.disable(ctx.BLEND)   # type: ignore[no-untyped-call]  # unannotated in arcade
