"""The window's button: a box with a label in the player's language, a keyboard shortcut,
and a `pressed` signal.

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations

from functools import lru_cache

import arcade

from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from lang.i18n import _


@lru_cache(maxsize=512)
def label_width(text: str, size: float) -> float:
    """A label's drawn width at `size` points, measured once per text and size (a new
    arcade.Text lays its text out: the battle stage's first frame re-laid the plan panel's
    buttons, 4 such layouts, issue 48 item 2)."""
    return float(arcade.Text(text, 0, 0, font_size=size).content_width)


class Button(Node):
    """A clickable box with a label. Emits `pressed` (no arguments).

    The label is looked up in the player's language when drawn, so a fixed label is given
    as its marked English (`Button(N_("Start"))`) and follows a language switch."""

    def __init__(self, label: str, name: str = "", *, size: float = 12,
                 color: tuple[int, int, int] = (235, 228, 210),
                 hover: tuple[int, int, int] = (250, 244, 225),
                 text_color: tuple[int, int, int] = (25, 25, 25),
                 key: int | None = None) -> None:
        super().__init__(name or f"button:{label}")
        self.label = label
        self.size = size
        self.color = color
        self.hover_color = hover
        self.text_color = text_color
        self.key = key           # keyboard shortcut (arcade.key.*) or None
        self.tip = ""            # a tooltip's marked English ("" for none)
        self.active = True       # drawn greyed and ignores clicks when False
        self.selected = False
        self.hover = False
        self.pressed = Signal("pressed")
        self.texts = TextCache()

    def set_label(self, label: str) -> None:
        if label != self.label:
            self.label = label
            self.mark_dirty()

    def rebuild(self) -> None:
        self.texts.begin()
        size = self.size
        while True:      # a longer translation shrinks (whole half-points) to stay on the button
            t = self.texts.put("l", _(self.label), self.left + self.width / 2,
                               self.bottom + self.height / 2, size=size, color=self.text_color,
                               anchor_x="center", anchor_y="center")
            if t.content_width <= self.width - 6 or size <= 7:
                break
            size -= 0.5
        self.texts.end()

    def on_draw(self) -> None:
        c = self.hover_color if (self.hover and self.active) else self.color
        if not self.active:
            c = (200, 200, 200)
        if self.selected:
            c = (250, 214, 120)
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, c)
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height,
                                           (90, 80, 70), 2 if self.selected else 1)
        self.texts.draw()

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        hover = self.contains(x, y)
        if hover != self.hover:
            self.hover = hover
            damage()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.contains(x, y):
            if self.active:
                self.pressed.emit()
            return True
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.key is not None and symbol == self.key and self.active and self.visible:
            self.pressed.emit()
            return True
        return False
