"""The look of a panel (a filled box with a thin border), drawn the same wherever a node
needs a background.

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations

import arcade


def draw_panel(left: float, bottom: float, width: float, height: float,
               fill: tuple[int, int, int] = (246, 240, 226),
               border: tuple[int, int, int] = (120, 105, 85)) -> None:
    arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, fill)
    arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, border, 1)
