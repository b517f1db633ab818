"""A one-line text entry (the menu's name and address boxes, the chat line, "Save as…").

Tests: tests/client/game/test_comforts_window.py (the save name), tests/client/scenes/test_window.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.node import Node
from client.core.text_cache import TextCache
from lang.i18n import _


class TextField(Node):
    """A one-line text entry; click to focus, type, Backspace deletes; Ctrl+A selects the
    whole value (the next letter typed replaces it, Backspace clears it): a suggested
    name is replaced in one go."""

    def __init__(self, label: str, value: str = "", name: str = "") -> None:
        super().__init__(name or f"field:{label}")
        self.label = label
        self.value = value
        self.focused = False
        self.all_selected = False
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
        v = self.texts.labels.get("v")
        if self.all_selected and self.value and v is not None:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.bottom + 4,
                                              min(self.width - 8, v.content_width + 4),
                                              self.height - 8, (170, 200, 240))
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
        if self.all_selected:
            self.value, self.all_selected = "", False
        self.value += "".join(ch for ch in text if ch.isprintable())
        self.mark_dirty()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.focused:
            return False
        if symbol == arcade.key.A and modifiers & (arcade.key.MOD_CTRL | arcade.key.MOD_COMMAND):
            self.all_selected = True
            self.mark_dirty()
            return True
        if symbol == arcade.key.BACKSPACE:
            self.value = "" if self.all_selected else self.value[:-1]
            self.all_selected = False
            self.mark_dirty()
            return True
        self.all_selected = False
        if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.ESCAPE, arcade.key.TAB):
            self.focused = False
            self.mark_dirty()
            return True
        return True   # typing keys are consumed (on_text delivers the characters)
