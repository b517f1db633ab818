"""The battle tower, cut away: walls and baffles from `sim.tower.GEOMETRY`, and cubes.

Call down: `play(recording)` animates a recorded drop (the very drop the engine used),
`show_contents(wire)` shows the resting contents, `set_tray(counts)` the tray,
`set_speed(x)`, `skip()`. Signal up: `finished` when a drop's animation has played out.
Cubes are sprites in one SpriteList, so a frame with 150 cubes is one draw call.
"""

from __future__ import annotations

import math

import arcade

from client.cube_textures import cube_texture
from client.node import CachedLayer, Node, Signal, TextCache

TRAY_COLS = 5


class TowerView(Node):
    def __init__(self, geometry: dict) -> None:
        super().__init__("tower")
        self.geo = geometry
        self.finished = Signal("finished")
        self.speed = 1.0
        self._rec = None
        self._t = 0.0
        self._frame = -1
        self._rest: list[tuple[int, float, float, float]] = []   # colour, x, y, angle(rad)
        self._tray_counts: dict = {}
        self._exited: list[int] = []
        self._sprites = arcade.SpriteList()
        self._pool: list[arcade.Sprite] = []
        self._layer = CachedLayer()
        self._text = TextCache()
        self.caption = ""
        self.playing = False

    # -- geometry -------------------------------------------------------------------------
    def _xf(self):
        w_units = self.geo["tray_end"] + 8
        h_units = self.geo["top"] + 14
        s = min((self.width - 16) / w_units, (self.height - 40) / h_units)
        ox = self.left + 8 + ((self.width - 16) - w_units * s) / 2
        oy = self.bottom + 8
        return s, ox, oy

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        return ox + x * s, oy + (y + 6) * s

    def rebuild(self) -> None:
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_static)

    def _draw_static(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (58, 48, 40))
        s, ox, oy = self._xf()
        # interior back wall
        x0, y0 = self.to_screen(0, 0)
        x1, y1 = self.to_screen(self.geo["width"], self.geo["top"])
        arcade.draw_lrbt_rectangle_filled(x0, x1, y0, y1, (92, 76, 60))
        r = max(2.0, self.geo["wall_radius"] * 2 * s)
        for (a, b) in self.geo["segments"]:
            p, q = self.to_screen(*a), self.to_screen(*b)
            arcade.draw_line(p[0], p[1], q[0], q[1], (200, 170, 120), r)
            arcade.draw_circle_filled(p[0], p[1], r / 2, (200, 170, 120))
            arcade.draw_circle_filled(q[0], q[1], r / 2, (200, 170, 120))
        self._text.begin()
        self._text.put("t", "Battle tower", self.left + self.width / 2, self.top - 18, size=11,
                       color=(240, 230, 210), anchor_x="center", bold=True)
        tx, ty = self.to_screen((self.geo["width"] + self.geo["tray_end"]) / 2, 46)
        self._text.put("tray", "tray", tx, ty, size=9, color=(230, 220, 200), anchor_x="center")
        self._text.end()
        self._text.draw()

    # -- inputs ---------------------------------------------------------------------------
    def set_speed(self, speed: float) -> None:
        self.speed = max(0.1, speed)

    def show_contents(self, wire) -> None:
        """Resting cubes from a `TowerContents` wire list [[colour, x, y, angle], ...]."""
        self._rest = [(c, x / 100.0, y / 100.0, a * 2 * math.pi / 4096) for c, x, y, a in wire or []]
        if not self.playing:
            self._place_rest()

    def set_tray(self, counts: dict | None) -> None:
        self._tray_counts = dict(counts or {})
        if not self.playing:
            self._place_rest()

    def play(self, recording, caption: str = "") -> None:
        self._rec = recording
        self._t = 0.0
        self._frame = -1
        self._exited = []
        self.caption = caption
        self.playing = True
        self._ensure(len(recording.colours) + 40)
        self._show_frame(0)

    def skip(self) -> None:
        if self.playing and self._rec is not None:
            self._end_play()

    # -- animation ------------------------------------------------------------------------
    def _ensure(self, n: int) -> None:
        s, _, _ = self._xf()
        size = max(3, self.geo["cube"] * s)
        while len(self._pool) < n:
            sp = arcade.Sprite(cube_texture(0))
            sp.width = sp.height = size
            sp.visible = False
            self._pool.append(sp)
            self._sprites.append(sp)
        for sp in self._pool:
            sp.width = sp.height = size

    def _set(self, k: int, colour: int, x: float, y: float, angle: float, size: float = 0) -> None:
        sp = self._pool[k]
        s, _, _ = self._xf()
        px = max(3.0, (size or self.geo["cube"]) * s)
        if sp.width != px:
            sp.width = sp.height = px
        sp.position = self.to_screen(x, y)
        sp.angle = -math.degrees(angle)
        tex = cube_texture(5 if colour == "peasant" else int(colour))
        if sp.texture is not tex:
            sp.texture = tex
            sp.width = sp.height = px
        sp.visible = True

    def _tray_slot(self, k: int, n: int = 0) -> tuple[float, float, float]:
        """Where the k-th of n cubes lies in the tray, and its drawn size (a full tray
        packs the cubes smaller so that they stay inside the tray's walls)."""
        room = self.geo["tray_end"] - self.geo["width"] - 8
        cols = max(TRAY_COLS, -(-n // 3))
        size = min(10.0, room / cols - 0.6)
        step = size + 0.6
        w, end = self.geo["width"], self.geo["tray_end"]
        x = w + 4 + step / 2 + (k % cols) * step
        floor = self.geo["exit"]["y0"] * (1 - (x - w) / max(1, end - w))   # the sloping tray
        return x, floor + 2 + size / 2 + (k // cols) * step, size

    def _place_rest(self) -> None:
        tray = []
        for colour, n in sorted(self._tray_counts.items(), key=lambda kv: str(kv[0])):
            code = 5 if colour == "peasant" else int(colour)
            tray += [code] * int(n)
        self._ensure(len(self._rest) + len(tray))
        k = 0
        for colour, x, y, a in self._rest:
            self._set(k, colour, x, y, a)
            k += 1
        for j, colour in enumerate(tray):
            x, y, size = self._tray_slot(j, len(tray))
            self._set(k, colour, x, y, 0.0, size)
            k += 1
        for sp in self._pool[k:]:
            sp.visible = False

    def _show_frame(self, f: int) -> None:
        rec = self._rec
        frame = rec.frames[f]
        k = 0
        for i, pose in enumerate(frame):
            if pose is not None:
                self._set(k, rec.colours[i], *pose)
                k += 1
            elif rec.exited[i] is not None and rec.exited[i] <= f:
                if i not in self._exited:
                    self._exited.append(i)
        n_out = sum(1 for e in rec.exited if e is not None)
        for j, i in enumerate(self._exited):
            x, y, size = self._tray_slot(j, n_out)
            self._set(k, rec.colours[i], x, y, 0.0, size)
            k += 1
        for sp in self._pool[k:]:
            sp.visible = False
        self._frame = f

    def _end_play(self) -> None:
        rec = self._rec
        self._show_frame(len(rec.frames) - 1)
        last = rec.frames[-1]
        self._rest = [(rec.colours[i], *pose) for i, pose in enumerate(last) if pose is not None]
        self.playing = False
        self._rec = None
        self.finished.emit()

    def on_update(self, dt: float) -> None:
        if not self.playing or self._rec is None:
            return
        self._t += dt * self.speed
        f = int(self._t * self._rec.fps)
        if f >= len(self._rec.frames) - 1:
            # hold the last frame briefly so the eye can see what came out
            if self._t * self._rec.fps > len(self._rec.frames) + 20:
                self._end_play()
            elif self._frame != len(self._rec.frames) - 1:
                self._show_frame(len(self._rec.frames) - 1)
            return
        if f != self._frame:
            self._show_frame(f)

    def on_layout(self) -> None:
        if self._pool:
            self._ensure(len(self._pool))
            if self.playing and self._rec is not None and self._frame >= 0:
                self._show_frame(self._frame)
            else:
                self._place_rest()

    def on_draw(self) -> None:
        self._layer.draw()
        self._sprites.draw()
        if self.caption and self.playing:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 44, self.width - 8, 20, (30, 25, 20, 200))
            self._text2().draw()

    def _text2(self) -> arcade.Text:
        if not hasattr(self, "_cap") or self._cap.text != self.caption or self._cap.x != self.left + self.width / 2:
            self._cap = arcade.Text(self.caption, self.left + self.width / 2, self.top - 39,
                                    (255, 240, 200), 9, anchor_x="center",
                                    font_name=("DejaVu Sans", "Arial"))
        return self._cap
