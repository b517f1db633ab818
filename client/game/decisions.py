"""A prompt with choices, for every decision the game asks of a seat (not the plan).

Call down: `ask(prompt, options, counter=None)` where options are (label, value, enabled)
and counter is (label, lo, hi, value) for a number to pick (move counts);
`set_counter(v)`, `undo_count()`. Signals up: `chosen(value, count)`, `undo_asked()`
(Ctrl+Z: the table scene's asker takes back a count, a pick or an order not yet sent).
Number keys 1-9 pick the matching option; Up/Down change the counter; Enter takes the
first enabled option marked default.

Tests: tests/client/board/test_board_clicks.py, tests/client/scenes/test_window.py,
tests/client/game/test_undo.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import arcade

from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.panel import draw_panel
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.widgets.text_fit import put_boxed
from lang.i18n import _
from client.board.map_geometry import text_width


BUTTONS_DOWN = 86      # the first row of buttons' bottom, under the panel's top


class DecisionPanel(Node):
    def __init__(self) -> None:
        super().__init__("decision")
        self.chosen = Signal("chosen")
        self.undo_asked = Signal("undo_asked")
        self.counts: list[int] = []      # the counter's earlier values (Ctrl+Z takes one back)
        self.prompt = ""
        self.options: list[tuple[str, object, bool]] = []
        self.counter: list[Any] | None = None   # [label, low, high, value]
        self.default: object = None
        self.tips: dict[object, str] = {}
        self._buttons: list[Button] = []
        self.texts = TextCache()
        self._minus = Button("−", size=14, key=arcade.key.DOWN)
        self._plus = Button("+", size=14, key=arcade.key.UP)
        self._minus.pressed.connect(lambda: self.set_counter(self.counter[3] - 1) if self.counter else None)
        self._plus.pressed.connect(lambda: self.set_counter(self.counter[3] + 1) if self.counter else None)

    def ask(self, prompt: str, options: Iterable[tuple[str, object, bool]],
            counter: Sequence[str | int] | None = None, default: object = None,
            tips: Mapping[object, str] | None = None) -> None:
        """`tips`: {option value: a sentence} shown when the mouse is over that option."""
        self.prompt = prompt
        self.tips = dict(tips or {})
        self.options = list(options)
        self.counter = list(counter) if counter else None
        self.counts = []
        self.default = default
        self.clear_children()
        self._buttons = []
        for k, (label, value, enabled) in enumerate(self.options):
            key = getattr(arcade.key, f"KEY_{k + 1}") if k < 9 else None
            b = Button(f"{label}" + (f"  [{k + 1}]" if k < 9 else ""), size=10.5, key=key)
            b.active = enabled
            b.pressed.connect(lambda v=value: self._choose(v))
            b.tip = self.tips.get(value) or ""
            self.add(b)
            self._buttons.append(b)
        if self.counter:
            self.add(self._minus)
            self.add(self._plus)
        self.on_layout()
        self.mark_dirty()

    def tooltip_at(self, x: float, y: float) -> str | None:
        for b in self._buttons:
            if b.contains(x, y):
                return b.tip
        return None

    def set_counter(self, v: int) -> None:
        if self.counter:
            before = self.counter[3]
            self.counter[3] = max(self.counter[1], min(self.counter[2], v))
            if self.counter[3] != before:
                self.counts.append(before)
            self.mark_dirty()

    def undo_count(self) -> bool:
        """The counter back to its value before the last change; False if unchanged."""
        if not self.counter or not self.counts:
            return False
        self.counter[3] = self.counts.pop()
        self.mark_dirty()
        return True

    def _choose(self, value: object) -> None:
        self.chosen.emit(value, self.counter[3] if self.counter else None)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.ENTER, arcade.key.RETURN) and self.default is not None:
            self._choose(self.default)
            return True
        if symbol == arcade.key.Z and modifiers & arcade.key.MOD_CTRL:
            self.undo_asked.emit()
            return True
        return False

    def on_layout(self) -> None:
        """The options in one row of buttons of one type size (the turn-order choices came
        in mixed sizes, down to 7 points); when their words do not fit at 11 px, two rows
        of wider buttons."""
        floor = theme.SMALLEST_TYPE
        n = max(1, len(self._buttons))
        words = [_(b.label) for b in self._buttons]
        per_row, bw, size = 6, 0.0, 10.5
        for per_row in (6, (n + 1) // 2) if n > 1 else (6,):
            bw = min(200, (self.width - 20) / min(n, per_row) - 6)
            size = min([10.5] + [int(2 * 10.5 * (bw - 8) / max(1.0, text_width(w, 10.5))) / 2
                                 for w in words])
            if size >= floor:
                break
        for b in self._buttons:
            b.size = max(floor, size)
            b.mark_dirty()
        for k, b in enumerate(self._buttons):
            row, col = divmod(k, per_row)
            b.set_rect(self.left + 10 + col * (bw + 6), self.top - BUTTONS_DOWN - row * 34, bw, 28)
        if self.counter:
            self._minus.set_rect(self.right - 150, self.top - 44, 32, 28)
            self._plus.set_rect(self.right - 44, self.top - 44, 32, 28)

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        # the question whole above the buttons: smaller type, down to 11 px, before a cut
        # (a third line of "First click a highlighted province: ..." hid behind them)
        put_boxed(t, "p", self.prompt, self.left + 10, self.top - 8, self.width - 180,
                  BUTTONS_DOWN - 28 - 12, 11, min_size=theme.SMALLEST_TYPE, color=theme.INK,
                  bold=True)
        if self.counter:
            label, lo, hi, v = self.counter
            t.put("cl", label, self.right - 97, self.top - 10, size=8.5, anchor_x="center",
                  anchor_y="top", color=theme.MUTED)
            t.put("cv", str(v), self.right - 97, self.top - 31, size=15, anchor_x="center",
                  anchor_y="center", bold=True, color=theme.INK)
        t.end()

    def on_draw(self) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height, fill=(250, 240, 215))
        self.texts.draw()
