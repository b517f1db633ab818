"""The thinking badge: while a bot's decision is being computed (a hard bot searches for
up to about a second), a spinner and "Bot (Orange) is thinking…" in the map's top-right
corner, so the window never looks frozen. Shown only after a short moment (quick bots
would make it flicker). The scene calls `show_for(seat, since)` each time it pumps.

Tests: tests/client/widgets/test_thinking.py.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

import arcade

from client.core import theme
from client.core.damage import damage
from client.core.node import Node
from client.core.text_cache import TextCache
from lang.i18n import _

SHOW_AFTER = 0.12     # seconds of thinking before the badge appears


class ThinkingBadge(Node):
    def __init__(self) -> None:
        super().__init__("thinking")
        self.visible = False
        self.seat: int | None = None
        self.since = 0.0
        self.angle = 0.0
        self.texts = TextCache()

    def show_for(self, seat: int | None, since: float = 0.0, labels: Mapping[int, str] | None = None) -> None:
        show = seat is not None and time.monotonic() - since >= SHOW_AFTER
        if seat != self.seat:
            self.seat = seat
            self.label = (labels or {}).get(seat, "") if seat is not None else ""
            self.mark_dirty()
        self.since = since
        if show != self.visible:
            self.visible = show
            damage()

    def on_update(self, dt: float) -> None:
        if self.visible:
            self.angle = (self.angle + dt * 360) % 360

    def rebuild(self) -> None:
        self.texts.begin()
        if self.seat is not None:
            who = self.label or _("Bot ({colour})").format(colour=theme.seat_name(self.seat))
            self.texts.put("t", _("{who} is thinking…").format(who=who), self.left + 34,
                           self.bottom + self.height / 2, size=11, bold=True,
                           color=(255, 248, 230), anchor_y="center")
        self.texts.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height,
                                          (40, 30, 25, 225))
        colour = theme.seat_colour(self.seat)
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height,
                                           colour, 2)
        cx, cy, r = self.left + 17, self.bottom + self.height / 2, 8
        for k in range(8):                       # a turning ring of dots, brightest leading
            a = math.radians(self.angle - k * 45)
            fade = int(255 * (1 - k / 8))
            arcade.draw_circle_filled(cx + r * math.cos(a), cy + r * math.sin(a), 2.2,
                                      (*colour[:3], fade))
        self.texts.draw()
