"""The last stage of a battle as a scene (issue 28 item 3): the winner's surviving armies
march on the map from the attacking province into the province they took.

Why a node of its own, drawn by the battle view: it moves over the board, so while it
marches every frame is a whole repaint (`damage()`); it lasts under a second at ×1 and
follows the speed setting. Skipping (S, fast-forward) ends it at once.

Tests: tests/client/tower/test_cubes.py (the march).
"""

from __future__ import annotations

import math

import arcade

from client.core.damage import damage
from client.core.node import Node
from client.core.text_cache import TextCache

MARCH = 0.9          # seconds (at speed 1) the armies take from one province to the other
TOKENS = 5           # at most this many tokens walk (the number on the leader says how many)


class MarchView(Node):
    def __init__(self) -> None:
        super().__init__("march")
        self.visible = False
        self.speed = 1.0
        self.t = 0.0
        self.start_at: tuple[float, float] = (0.0, 0.0)
        self.end_at: tuple[float, float] = (0.0, 0.0)
        self.colour: tuple[int, ...] = (255, 255, 255)
        self.count = 0
        self.texts = TextCache()

    @property
    def marching(self) -> bool:
        return self.visible

    def start(self, start_at: tuple[float, float], end_at: tuple[float, float],
              colour: tuple[int, ...], count: int) -> None:
        """`count` armies walk from `start_at` to `end_at` (screen points)."""
        self.start_at, self.end_at, self.colour, self.count = start_at, end_at, colour, count
        self.t = 0.0
        self.visible = count > 0
        damage()

    def stop(self) -> None:
        if self.visible:
            self.visible = False
            damage()

    def positions(self) -> list[tuple[float, float]]:
        """Where the walking tokens are now (the leader first)."""
        (x0, y0), (x1, y1) = self.start_at, self.end_at
        out = []
        for k in range(min(TOKENS, self.count)):
            u = max(0.0, min(1.0, self.t / MARCH - 0.08 * k))
            e = u * u * (3 - 2 * u)                     # set off, walk, arrive
            side = (k % 2 * 2 - 1) * 5 * math.sin(math.pi * e) * (1 if k else 0)
            dx, dy = x1 - x0, y1 - y0
            n = math.hypot(dx, dy) or 1.0
            out.append((x0 + dx * e - dy / n * side, y0 + dy * e + dx / n * side))
        return out

    def on_update(self, dt: float) -> None:
        if not self.visible:
            return
        self.t += dt * self.speed
        damage()                                        # it moves over the board
        if self.t >= MARCH + 0.08 * TOKENS:
            self.stop()

    def on_draw(self) -> None:
        c = self.colour
        rgb = (int(c[0]), int(c[1]), int(c[2]))
        ink = (20, 20, 20) if sum(rgb) > 380 else (245, 240, 230)
        pts = self.positions()
        for x, y in reversed(pts):
            arcade.draw_circle_filled(x + 1, y - 3, 10, (0, 0, 0, 110))
            arcade.draw_circle_filled(x, y, 10, rgb)
            arcade.draw_circle_outline(x, y, 10, ink, 2.0)
        if pts:
            self.texts.begin()
            self.texts.put("n", str(self.count), pts[0][0], pts[0][1], size=9, bold=True,
                           color=ink, anchor_x="center", anchor_y="center")
            self.texts.end()
            self.texts.draw()
