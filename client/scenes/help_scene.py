"""The rules in the window: a scrollable page over the menu or the table (F1 or Help).

While open it takes all input (the game behind it waits); Esc, F1 or Close shut it and
emit `closed()`. The text is `client.words.rules_text`.

Tests: tests/client/game/test_comforts_window.py, tests/client/words/test_i18n_window.py.
"""

from __future__ import annotations

from typing import Any

import arcade

from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.words.rules_text import sections
from lang.i18n import N_, _, current

SCROLL_STEP = 60


class HelpOverlay(Node):
    def __init__(self) -> None:
        super().__init__("help")
        self.visible = False
        self.closed = Signal("closed")
        self.scroll = 0.0
        self._heights: dict[tuple[str, ...] | tuple[Any, ...], float] = {}
        self._measured_width = -1
        self._content_height = 0.0
        self._items: list[tuple[tuple[str, ...] | tuple[Any, ...], str, float, bool]] = []
        self._lang = ""
        self._load()
        self.texts = TextCache()
        self.close_btn = self.add(Button(N_("Close  [Esc]"), size=12))
        self.close_btn.pressed.connect(self.hide)

    def _load(self) -> None:
        """The rules in the current language (again after a language switch)."""
        self._lang = current()
        self._measured_width = -1
        self._items = []
        for k, sec in enumerate(sections()):
            self._items.append((("h", k), sec.title, 14, True))
            for j, para in enumerate(sec.paragraphs):
                self._items.append((("p", k, j), para, 11, False))

    def open(self) -> None:
        if self._lang != current():
            self._load()
        self.visible = True
        self.scroll = 0.0
        self.mark_dirty()

    def hide(self) -> None:
        if self.visible:
            self.visible = False
            self.mark_dirty()
            self.closed.emit()

    def titles(self) -> list[str]:
        return [text for key, text, _s, _b in self._items if key[0] == "h"]

    # -- layout ---------------------------------------------------------------------------
    def _box(self) -> tuple[float, float, float, float]:
        w = min(960, self.width - 60)
        h = self.height - 60
        return self.left + (self.width - w) / 2, self.bottom + 30, w, h

    def on_layout(self) -> None:
        l, b, w, h = self._box()
        self.close_btn.set_rect(l + w - 170, b + 12, 150, 34)
        self.mark_dirty()

    def _scroll_by(self, dy: float) -> None:
        l, b, w, h = self._box()
        room = h - 130
        self.scroll = max(0.0, min(self.scroll + dy, max(0.0, self._content_height - room)))
        self.mark_dirty()

    def rebuild(self) -> None:
        l, b, w, h = self._box()
        t = self.texts
        if self._lang != current():
            self._load()
        t.begin()
        text_w = int(w - 60)
        if self._measured_width != text_w:
            self._measured_width = text_w
            total = 0.0
            for key, text, size, bold in self._items:
                lbl = t.put(key, text, l, b, size=size, bold=bold, width=text_w, multiline=True,
                            anchor_y="top", color=theme.INK)
                self._heights[key] = lbl.content_height
                total += lbl.content_height + (14 if key[0] == "h" else 6)
            self._content_height = total
            t.begin()
        t.put("title", _("How to play Shogun"), l + w / 2, b + h - 30, size=20, bold=True,
              anchor_x="center", color=(120, 30, 25))
        t.put("hint", _("Scroll with the mouse wheel, ↑ ↓ or Page Up / Page Down."), l + 30, b + 28,
              size=9.5, color=theme.MUTED)
        top, bottom = b + h - 56, b + 58
        y = top + self.scroll
        for key, text, size, bold in self._items:
            hh = self._heights[key]
            if key[0] == "h":
                y -= 8
            if y <= top + 1 and y - hh >= bottom:
                t.put(key, text, l + 30, y, size=size, bold=bold, width=text_w, multiline=True,
                      anchor_y="top", color=(120, 30, 25) if bold else theme.INK)
            y -= hh + (6 if key[0] == "h" else 6)
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (20, 15, 10, 150))
        l, b, w, h = self._box()
        arcade.draw_lbwh_rectangle_filled(l, b, w, h, (248, 243, 230))
        arcade.draw_lbwh_rectangle_outline(l, b, w, h, (150, 60, 40), 3)
        self.texts.draw()

    # -- modal input ----------------------------------------------------------------------
    def mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.visible:
            return False
        self.close_btn.mouse_press(x, y, button, modifiers)
        return True

    def mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return self.visible

    def mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> bool:
        if not self.visible:
            return False
        self._scroll_by(-sy * SCROLL_STEP)
        return True

    def type_text(self, text: str) -> bool:
        return self.visible

    def key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.visible:
            return False
        k = arcade.key
        if symbol in (k.ESCAPE, k.F1, k.ENTER, k.RETURN):
            self.hide()
        elif symbol == k.DOWN:
            self._scroll_by(SCROLL_STEP)
        elif symbol == k.UP:
            self._scroll_by(-SCROLL_STEP)
        elif symbol in (k.PAGEDOWN, k.SPACE):
            self._scroll_by(self._box()[3] - 160)
        elif symbol == k.PAGEUP:
            self._scroll_by(-(self._box()[3] - 160))
        return True
