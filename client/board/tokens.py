"""A seat's token drawn off the map (players panel, action track, end screen): the army
token's shape in the seat's colour with a contrasting ring, so a panel's swatch does not
rely on colour alone.

Tests: tests/client/scenes/test_end_scene.py, tests/client/game/test_table_layout.py.
"""

from __future__ import annotations

import arcade

from client.board import map_geometry as geo
from client.core.palette import style_of


def seat_token(seat: int | str, cx: float, cy: float, r: float) -> None:
    st = style_of(seat)
    if st is None:
        return
    ring = (150, 150, 150) if sum(st.colour) < 200 else (15, 15, 15)
    arcade.draw_polygon_filled(geo.shape_outline(st.shape, cx, cy, r), ring)
    arcade.draw_polygon_filled(geo.shape_outline(st.shape, cx, cy, r * 0.78), st.colour)
