"""A modal question over a scene: "Leave this game?", "Save as…".

While shown, the dialog takes every click and key (the scene behind it waits); it answers
with `answered(value, text)` — the chosen button's value and, for a dialog with a text
box, what was typed. Enter picks the first button, Esc the last. A line longer than the
card is wrapped, and the card grows to hold it whole (the network game's "The game ended
for you" says a long reason).

Tests: tests/client/game/test_comforts_window.py, tests/client/game/test_ended_card.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import arcade

from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from lang.i18n import N_, _
from client.widgets.text_field import TextField

if TYPE_CHECKING:
    from client.widgets.text_field import TextField


LINE = 22      # a line's pitch; a wrapped line takes its measured height


class Dialog(Node):
    def __init__(self, name: str = "dialog") -> None:
        super().__init__(name)
        self.visible = False
        self.answered = Signal("answered")
        self.title = ""
        self.lines: list[str] = []
        self.buttons: list[Button] = []
        self.values: list[object] = []
        self.field: TextField | None = None     # the answer's text field, if it asks for one
        self.opaque = False
        self.texts = TextCache()
        self._lines_h = 0.0      # the lines' height as drawn (wrapped), measured in `rebuild`

    def ask(self, title: str, lines: Iterable[str], choices: Iterable[tuple[str, object]], text: str | None = None, opaque: bool = False) -> None:
        """`choices`: [(label, value)]; the first is Enter's, the last Esc's. With `text`
        (a starting value), a one-line text box is shown and its text is answered too.
        `opaque` hides everything behind the dialog (a hot-seat handover)."""
        self.opaque = opaque
        for b in self.buttons:
            self.remove(b)
        if self.field is not None:
            self.remove(self.field)
            self.field = None
        self.title, self.lines = title, list(lines)
        self._lines_h = LINE * len(self.lines)
        self.buttons = []
        self.values = [value for _label, value in choices]
        for label, value in choices:
            b = self.add(Button(label, size=12))
            b.pressed.connect(lambda v=value: self._answer(v))
            self.buttons.append(b)
        if text is not None:
            self.field = field = self.add(TextField(N_("Name"), text, name="dialog:name"))
            field.focused = True
        self.visible = True
        self.on_layout()
        self.mark_dirty()

    def _answer(self, value: object) -> None:
        text = self.field.value if self.field is not None else None
        self.visible = False
        self.mark_dirty()
        self.answered.emit(value, text)

    # -- layout and drawing ---------------------------------------------------------------
    def _box(self) -> tuple[float, float, float, float]:
        w = min(560, self.width - 40)
        h = 150 + self._lines_h + (60 if self.field is not None else 0)
        return (self.left + (self.width - w) / 2, self.bottom + (self.height - h) / 2, w, h)

    def on_layout(self) -> None:
        if not self.buttons:
            return
        l, b, w, h = self._box()
        n = len(self.buttons)
        longest = max(len(btn.label) for btn in self.buttons)
        bw = min(max(220, 20 + 8.5 * longest), (w - 40 - 16 * (n - 1)) / n)
        x = l + (w - (bw * n + 16 * (n - 1))) / 2
        for k, btn in enumerate(self.buttons):
            btn.set_rect(x + k * (bw + 16), b + 20, bw, 40)
        if self.field is not None:
            self.field.set_rect(l + 30, b + 80, w - 60, 32)
        self.mark_dirty()

    def rebuild(self) -> None:
        for _again in range(2):     # the second time with the card as tall as its lines
            l, b, w, h = self._box()
            t = self.texts
            t.begin()
            t.put("t", _(self.title), l + w / 2, b + h - 34, size=16, bold=True, anchor_x="center",
                  color=(120, 30, 25))
            y = b + h - 66 + LINE - 4          # the top of the first line (its baseline before)
            for k, line in enumerate(self.lines):
                put = t.put(k, _(line), l + w / 2, y, size=11.5, anchor_x="center", anchor_y="top",
                            color=theme.INK, width=int(w - 40), multiline=True, align="center")
                y -= max(LINE, put.content_height + 4)
            t.end()
            lines_h = (b + h - 66 + LINE - 4) - y
            if lines_h == self._lines_h:
                return
            self._lines_h = lines_h
            self.on_layout()        # the buttons and the field move with the card's foot

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height,
                                          (60, 45, 35, 255) if self.opaque else (20, 15, 10, 140))
        l, b, w, h = self._box()
        arcade.draw_lbwh_rectangle_filled(l, b, w, h, (246, 240, 226))
        arcade.draw_lbwh_rectangle_outline(l, b, w, h, (150, 60, 40), 3)
        self.texts.draw()

    # -- modal input ----------------------------------------------------------------------
    def mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.visible:
            return False
        super().mouse_press(x, y, button, modifiers)
        return True

    def mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return self.visible

    def mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> bool:
        return self.visible

    def type_text(self, text: str) -> bool:
        if self.visible and self.field is not None:
            self.field.type_text(text)
        return self.visible

    def key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.visible:
            return False
        k = arcade.key
        if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
            self._answer(self._value(0))
        elif symbol == k.ESCAPE:
            self._answer(self._value(-1))
        elif self.field is not None and (symbol == k.BACKSPACE or symbol == k.A and
                                         modifiers & (k.MOD_CTRL | k.MOD_COMMAND)):
            self.field.key_press(symbol, modifiers)
        return True

    def _value(self, k: int) -> object:
        return self.values[k]
