"""A one-line text entry (the menu's name and address boxes, the chat line, "Save as…").

Tests: tests/client/game/test_comforts_window.py (the save name), tests/client/scenes/test_window.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.node import Node, TextCache
from lang.i18n import _


class TextField(Node):
    """A one-line text entry; click to focus, type, Backspace deletes."""

    def __init__(self, label: str, value: str = "", name: str = "") -> None:
        super().__init__(name or f"field:{label}")
        self.label = label
        self.value = value
        self.focused = False
        self.texts = TextCache()

    def rebuild(self) -> None:
        self.texts.begin()
        self.texts.put("l", _(self.label), self.left, self.bottom + self.height + 4, size=10, color=theme.MUTED)
        self.texts.put("v", self.value + ("▏" if self.focused else ""), self.left + 6,
                       self.bottom + self.height / 2, size=12, anchor_y="center", color=theme.INK)
        self.texts.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height,
                                          (255, 255, 250) if self.focused else (246, 242, 232))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height,
                                           (200, 120, 40) if self.focused else (120, 105, 85), 2 if self.focused else 1)
        self.texts.draw()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        was = self.focused
        self.focused = self.contains(x, y)
        if was != self.focused:
            self.mark_dirty()
        return self.focused

    def type_text(self, text: str) -> bool:
        if not self.focused:
            return False
        self.value += "".join(ch for ch in text if ch.isprintable())
        self.mark_dirty()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.focused:
            return False
        if symbol == arcade.key.BACKSPACE:
            self.value = self.value[:-1]
            self.mark_dirty()
            return True
        if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.ESCAPE, arcade.key.TAB):
            self.focused = False
            self.mark_dirty()
            return True
        return True   # typing keys are consumed (on_text delivers the characters)
