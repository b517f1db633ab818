"""The table's words over and under the board: the `Banner` (battle results, winter, a
shortage, for a while) and the `InfoPanel` (what is going on while it is not my turn).

Tests: tests/client/game/test_table_layout.py, tests/client/words/test_i18n_layout.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import arcade

from client.core import theme
from client.core.damage import damage
from client.core.node import Node
from client.core.text_cache import TextCache
from client.game.table_view import CachedPanel
from client.board import map_geometry as geo
from client.widgets.text_fit import put_boxed, put_fitted


class Banner(Node):
    """A message box over the board for a while (battle results, winter, pauses). Its
    while does not run while `held()` (the table is paused: Space, or a tutorial step
    asking the player to read it)."""

    def __init__(self, held: Callable[[], bool] = lambda: False) -> None:
        super().__init__("banner")
        self.held = held
        self.lines: list[str] = []
        self.colour = (40, 30, 25)
        self.timer = 0.0
        self.sticky = False
        self.texts = TextCache()

    def show(self, lines: Iterable[str | None], seconds: float = 2.0,
             colour: tuple[int, int, int] = (40, 30, 25), sticky: bool = False) -> None:
        self.lines = [l for l in lines if l]
        if self.parent is not None:
            est = sum(1 + len(l) // max(20, int(self.width / 7.5)) for l in self.lines)
            h = 36 + 19 * est
            self.set_rect(self.left, self.bottom + self.height / 2 - h / 2, self.width, h)
        self.timer = seconds
        self.colour = colour
        self.sticky = sticky
        self.visible = bool(self.lines)
        self.mark_dirty()

    def hide(self) -> None:
        if self.visible:
            damage()
        self.visible = False
        self.sticky = False

    def on_update(self, dt: float) -> None:
        if self.visible and not self.sticky and not self.held():
            self.timer -= dt
            if self.timer <= 0:
                self.visible = False
                damage()

    def rebuild(self) -> None:
        self.texts.begin()
        y = self.top - 14
        for k, line in enumerate(self.lines[:8]):
            t = self.texts.put(k, line, self.left + self.width / 2, y, size=13 if k == 0 else 10.5,
                               bold=k == 0, anchor_x="center", anchor_y="top", color=(255, 248, 230),
                               width=int(self.width - 20), multiline=True, align="center")
            y -= max(22 if k == 0 else 17, t.content_height + 3)
        self.texts.end()

    def on_draw(self) -> None:
        # opaque, with a shadow: readable over any province (issue 36 item 3: it was
        # translucent, the map's colours and names showed through)
        arcade.draw_lbwh_rectangle_filled(self.left + 4, self.bottom - 4, self.width, self.height, (0, 0, 0, 110))
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, self.colour)
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, (240, 200, 120), 2)
        self.texts.draw()


class InfoPanel(CachedPanel):
    """What is going on, while it is not my turn: round, turn order, who acts now."""

    def __init__(self) -> None:
        super().__init__("info")
        self.lines: list[str] = []

    def set_lines(self, lines: Iterable[str]) -> None:
        lines = list(lines)
        if lines != self.lines:
            self.lines = lines
            self.mark_dirty()

    def paint(self, text: TextCache) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (240, 233, 216))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, (120, 105, 85), 1)
        lines = self.lines[:6]
        room = self.width - 24
        # a line too long for the panel takes two rows when the panel has them (a
        # five-player turn order with its special cards at 960 px), else it shrinks and
        # ends in "…" (issue 27, item 12)
        sizes = [12.0 if k == 0 else 10.5 for k in range(len(lines))]
        wide = [geo.text_width(line, size) * 0.93 > room for line, size in zip(lines, sizes)]
        rows = len(lines) + sum(wide)
        two_rows = (self.height - 12) / max(1, rows) >= 15
        if not two_rows:
            wide = [False] * len(lines)
            rows = len(lines)
        step = min(24.0, (self.height - 12) / max(1, rows))
        y = self.top - 6 - step * 0.7
        for k, line in enumerate(lines):
            colour = theme.INK if k else (60, 40, 30)
            if wide[k]:
                put_boxed(text, k, line, self.left + 12, y + step * 0.7, room, step * 2,
                          sizes[k], min_size=8.5, bold=k == 0, color=colour)
                y -= step * 2
                continue
            put_fitted(text, k, line, self.left + 12, y, room, sizes[k], min_size=8.5,
                       cut=True, bold=k == 0, color=colour)
            y -= step
