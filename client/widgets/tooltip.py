"""A tooltip: a short sentence in a box beside the mouse, for whatever is under it.

The scene asks its parts what is under the mouse (`tooltip_at(x, y)` on a panel, or a
`tip` attribute on a button) and calls `show(text, x, y)` or `hide()`; the tooltip keeps
itself inside its parent's rectangle.

Tests: tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

import arcade

from client.core.node import Node, TextCache, damage
from lang.i18n import _

WIDTH = 300


class Tooltip(Node):
    def __init__(self) -> None:
        super().__init__("tooltip")
        self.visible = False
        self.text = ""
        self.at = (0.0, 0.0)
        self._box = (0.0, 0.0, 0.0, 0.0)
        self._label = TextCache()

    def show(self, text: str, x: float, y: float) -> None:
        if text == self.text and self.visible and (x, y) == self.at:
            return
        self.text, self.at = text, (x, y)
        self.visible = True
        self.mark_dirty()

    def hide(self) -> None:
        if self.visible:
            self.visible = False
            self.text = ""
            damage()

    def rebuild(self) -> None:
        x, y = self.at
        self._label.begin()
        t = self._label.put("t", _(self.text), 0, 0, size=10, width=WIDTH - 16, multiline=True,
                            anchor_y="top", color=(250, 244, 230))
        h = t.content_height + 12
        p = self.parent
        right = p.right if p is not None else x + WIDTH + 20
        top = p.top if p is not None else y + h + 20
        left = min(x + 14, right - WIDTH - 4)
        bottom = y + 16 if y + 16 + h < top else y - 16 - h
        t.position = (left + 8, bottom + h - 6)
        self._box = (left, bottom, WIDTH, h)
        self._label.end()

    def on_draw(self) -> None:
        l, b, w, h = self._box
        arcade.draw_lbwh_rectangle_filled(l, b, w, h, (45, 35, 30, 250))
        arcade.draw_lbwh_rectangle_outline(l, b, w, h, (240, 200, 120), 1)
        self._label.draw()
