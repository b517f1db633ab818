"""The battle tower, cut away: walls and baffles from `sim.tower.drop.GEOMETRY`, and cubes.

Call down: `play(recording, caption)` animates a recorded drop (the very drop the engine
used), `show_contents(wire)` shows the resting contents, `set_tray(counts)` the tray,
`set_speed(x)`, `skip()`; `big` switches to the battle view's sizes (issue 13: the
tower large, the thrown handful named in a sentence above it, the tray counted below).
Signals up: `finished` when a drop has played out and every cube that left has landed in
the tray; `cube_landed(colour)` as each one lands; `shaken` at each of the recording's
shakes (the drawing jolts too). Cubes are sprites in one SpriteList, so a frame with 150
cubes is one draw call.

Pace: at speed 1 a drop plays in about REAL_SECONDS (a real pour takes a second or two);
the recording's own clock (its `fps`) is run faster for long drops, never slower.

Tests: tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import arcade

from client.tower.cube_textures import cube_texture
from client.core.node import CachedLayer, Node, Signal, TextCache, damage
from lang.i18n import _

if TYPE_CHECKING:
    from sim.tower.drop import Recording

TRAY_COLS = 5
REAL_SECONDS = 1.4     # a typical drop at speed 1 (before the slides and the hold)
MAX_RATE = 4.0         # at most this many recorded seconds per second at speed 1
SLIDE = 0.45           # recorded seconds a cube takes from the exit to its tray place
HOLD = 0.35            # recorded seconds the landed tray stays before `finished`
JOLT = 0.3             # recorded seconds a shake's jolt lasts


class TowerView(Node):
    def __init__(self, geometry: dict) -> None:
        super().__init__("tower")
        self.geo = geometry
        self.finished = Signal("finished")
        self.cube_landed = Signal("cube_landed")
        self.shaken = Signal("shaken")
        self.big = False
        self.out_total = 0
        self.landed = 0
        self._counts: dict = {}
        self._rate = 1.0
        self._end_t = 0.0
        self._jolt_t = -1.0
        self._shook = 0
        self._order: list[int] = []
        self._slides: dict[int, int] = {}
        self._exits: dict[int, int] = {}      # cube -> the frame it left the tower
        self._from: dict[int, tuple] = {}
        self.speed = 1.0
        self._rec: Recording | None = None
        self._t = 0.0
        self._frame = -1
        self._rest: list[tuple[int, float, float, float]] = []   # colour, x, y, angle(rad)
        self._tray_counts: dict = {}
        self._sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._pool: list[arcade.Sprite] = []
        self._layer = CachedLayer()
        self.texts = TextCache()
        self._words = TextCache()
        self.caption = ""
        self.playing = False

    # -- geometry -------------------------------------------------------------------------
    def _room(self) -> tuple[float, float]:
        """Pixels kept free above the tower (the caption) and below it (the tray count)."""
        return (96.0, 30.0) if self.big else (40.0, 8.0)

    def _xf(self) -> tuple[float, float, float]:
        w_units = self.geo["tray_end"] + 8
        h_units = self.geo["top"] + 14
        above, below = self._room()
        s = min((self.width - 16) / w_units, (self.height - above - below) / h_units)
        ox = self.left + 8 + ((self.width - 16) - w_units * s) / 2
        oy = self.bottom + below
        return s, ox, oy

    def damage_rect(self) -> tuple[int, int, int, int]:
        """What a frame of the animation repaints (the window's partial redraw): the tower,
        the tray and the count below, with room for a shake's jolt; not the caption, which
        stays the same during a drop (`play` asks for a full repaint when it changes)."""
        s, ox, _ = self._xf()
        pad = 8 * s
        x0 = max(self.left, ox - pad)
        x1 = min(self.right, ox + (self.geo["tray_end"] + 8) * s + pad)
        _, top_y = self.to_screen(0, self.geo["top"])
        y1 = min(self.top, top_y + pad)
        return int(x0), int(self.bottom), int(x1 - x0) + 1, int(y1 - self.bottom) + 1

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        jx, jy = self.jolt()
        return ox + x * s + jx, oy + (y + 6) * s + jy

    def rebuild(self) -> None:
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_static)

    def _draw_static(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (58, 48, 40))
        s, ox, oy = self._xf()
        # interior back wall
        x0, y0 = ox, oy + 6 * s
        x1, y1 = ox + self.geo["width"] * s, oy + (self.geo["top"] + 6) * s
        arcade.draw_lrbt_rectangle_filled(x0, x1, y0, y1, (92, 76, 60))
        r = max(2.0, self.geo["wall_radius"] * 2 * s)
        for (a, b) in self.geo["segments"]:
            p = (ox + a[0] * s, oy + (a[1] + 6) * s)
            q = (ox + b[0] * s, oy + (b[1] + 6) * s)
            arcade.draw_line(p[0], p[1], q[0], q[1], (200, 170, 120), r)
            arcade.draw_circle_filled(p[0], p[1], r / 2, (200, 170, 120))
            arcade.draw_circle_filled(q[0], q[1], r / 2, (200, 170, 120))
        self.texts.begin()
        if not self.big:
            self.texts.put("t", _("Battle tower"), self.left + self.width / 2, self.top - 18, size=11,
                           color=(240, 230, 210), anchor_x="center", bold=True)
        tx, ty = ox + (self.geo["width"] + self.geo["tray_end"]) / 2 * s, oy + 52 * s
        t = self.texts.put("tray", _("tray"), tx, ty, size=12 if self.big else 9, color=(230, 220, 200),
                           anchor_x="center")
        if t.right > self.right - 3:      # a longer word ("opvangschaal") keeps inside the panel
            self.texts.put("tray", _("tray"), self.right - 3 - t.content_width / 2, ty,
                           size=12 if self.big else 9, color=(230, 220, 200), anchor_x="center")
        if self.big and self.caption:     # drawn once per drop, not every frame
            k = max(1.0, min(1.4, self.width / 530))     # grows with the window (whole half-points)
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 90, self.width - 8, 86, (30, 25, 20))
            self.texts.put("c", self.caption, self.left + 14, self.top - 12, size=int(26 * k) / 2,
                           bold=True, color=(255, 240, 200), anchor_y="top",
                           width=int(self.width - 28), multiline=True)
        self.texts.end()
        self.texts.draw()

    # -- inputs ---------------------------------------------------------------------------
    def set_speed(self, speed: float) -> None:
        self.speed = max(0.1, speed)

    def set_big(self, big: bool) -> None:
        """The battle view's sizes (caption room above, tray count below) or the column's."""
        if big != self.big:
            self.big = big
            self.mark_dirty()
            self.on_layout()

    def set_tray(self, counts: dict | None) -> None:
        self._tray_counts = dict(counts or {})
        if not self.playing:
            self._place_rest()

    def show_contents(self, wire: list[list[int]]) -> None:
        """Show these resting contents now (`TowerContents.to_wire()`: a resumed game, a
        replay's seek), so the tower is drawn as the state has it; a drop in play keeps
        playing (its own last frame is the same contents)."""
        from sim.tower.drop import ANGLE_SCALE, POS_SCALE
        self._rest = [(int(c), x / POS_SCALE, y / POS_SCALE, a * 2 * math.pi / ANGLE_SCALE)
                      for c, x, y, a in wire]
        if not self.playing:
            self._place_rest()

    @property
    def cubes_shown(self) -> int:
        """Cubes drawn at rest, inside and in the tray (tests read it)."""
        return 0 if self.playing else sum(1 for sp in self._pool if sp.visible)

    @property
    def progress(self) -> float:
        """The share of the drop's recorded frames shown so far (0 when none plays)."""
        rec = self._rec
        return self._frame / len(rec.frames) if rec is not None and rec.frames else 0.0

    @property
    def playback_time(self) -> float:
        """Seconds of the recording shown so far (of the drop playing)."""
        return self._t

    def play(self, recording: Recording, caption: str = "") -> None:
        self._rec = recording
        dur = len(recording.frames) / recording.fps
        self._rate = min(MAX_RATE, max(1.0, dur / REAL_SECONDS))
        self._t = 0.0
        self._frame = -1
        n_out = 0
        self._slides = {}
        self._exits = {}
        for i, e in enumerate(recording.exited):
            if e is not None:
                self._slides[i] = n_out
                self._exits[i] = e
                n_out += 1
        self._order = sorted(self._slides, key=lambda i: (self._exits[i], i))
        self._from = {i: self._last_pose(i, self._exits[i]) for i in self._order}
        self._slides = {i: j for j, i in enumerate(self._order)}
        self.out_total = n_out
        self.landed = 0
        self._counts = {}
        self._shook = 0
        self._jolt_t = -1.0
        self._end_t = max([len(recording.frames) / recording.fps]
                          + [self._exits[i] / recording.fps + SLIDE for i in self._order]) + HOLD
        if caption != self.caption:
            self.caption = caption
            if self.big:
                self.mark_dirty()       # the caption lives in the static layer
            damage()
        self.playing = True
        self._ensure(len(recording.colours) + 40)
        self._show(0.0)

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

    def _last_pose(self, i: int, e: int):
        """Cube i's pose on the frame before it left (where its slide starts)."""
        frames = self._recording().frames
        for f in range(min(e, len(frames)) - 1, -1, -1):
            if frames[f][i] is not None:
                return frames[f][i]
        return (self.geo["width"], self.geo["exit"]["y0"] + 5, 0.0)

    def _show(self, t: float) -> None:
        """Draw the drop at recording time t: cubes inside from the recorded frame; cubes
        that left slide down the ramp's end into their tray place (SLIDE seconds) and are
        counted when they get there."""
        rec = self._recording()
        f = min(len(rec.frames) - 1, int(t * rec.fps))
        frame = rec.frames[f]
        k = 0
        for i, pose in enumerate(frame):
            if pose is not None:
                self._set(k, rec.colours[i], *pose)
                k += 1
        landed = 0
        for i in self._order:
            te = self._exits[i] / rec.fps
            if t < te:
                continue
            j = self._slides[i]
            tx, ty, size = self._tray_slot(j, self.out_total)
            u = min(1.0, (t - te) / SLIDE)
            if u >= 1.0:
                landed += 1
                self._set(k, rec.colours[i], tx, ty, 0.0, size)
            else:
                x0, y0, a0 = self._from[i]
                ease = u * u                      # gathers speed down the slope
                hop = math.sin(u * math.pi) * 3   # and tumbles a little
                self._set(k, rec.colours[i], x0 + (tx - x0) * ease, y0 + (ty - y0) * ease + hop,
                          a0 * (1 - u) + u * math.pi * 0.5, self.geo["cube"] + (size - self.geo["cube"]) * u)
            k += 1
        for sp in self._pool[k:]:
            sp.visible = False
        while self.landed < landed:
            colour = rec.colours[self._order[self.landed]]
            c: int | str = "peasant" if colour in (5, "peasant") else int(colour)
            self._counts[c] = self._counts.get(c, 0) + 1
            self.landed += 1
            self.cube_landed.emit(c)
        shakes = [s for s in (rec.shakes or ()) if s <= f]
        while self._shook < len(shakes):
            self._jolt_t = t
            self._shook += 1
            self.shaken.emit()
        self._frame = f

    def jolt(self) -> tuple[float, float]:
        """The drawing's offset in pixels while the tower is being knocked (a shake)."""
        if not self.playing or self._jolt_t < 0:
            return 0.0, 0.0
        u = (self._t - self._jolt_t) / JOLT
        if u >= 1.0:
            return 0.0, 0.0
        s, _, _ = self._xf()
        a = 4.0 * s * (1 - u)
        return a * math.sin(u * 9 * math.pi), 0.4 * a * math.cos(u * 7 * math.pi)

    def count_text(self) -> str:
        """The tray so far, e.g. "Out: 7 Blue, 1 Peasant" (counted as cubes land)."""
        from client.core.theme import seat_name
        if not self.playing or not self._counts:
            return ""
        parts = [f"{n} {seat_name(c)}" for c, n in sorted(self._counts.items(), key=lambda kv: str(kv[0]))]
        return _("Out: {cubes}").format(cubes=", ".join(parts))

    def _recording(self) -> Recording:
        assert self._rec is not None, "only while a drop plays"
        return self._rec

    def _end_play(self) -> None:
        rec = self._recording()
        self._t = self._end_t
        self._show(self._end_t)
        last = rec.frames[-1]
        self._rest = [(rec.colours[i], *pose) for i, pose in enumerate(last) if pose is not None]
        self.playing = False
        self._rec = None
        self.finished.emit()

    def on_update(self, dt: float) -> None:
        if not self.playing or self._rec is None:
            return
        self._t += dt * self.speed * self._rate
        if self._t >= self._end_t:
            self._end_play()
            return
        self._show(self._t)

    def on_layout(self) -> None:
        if self._pool:
            self._ensure(len(self._pool))
            if self.playing and self._rec is not None:
                self._show(self._t)
            else:
                self._place_rest()

    def on_draw(self) -> None:
        jx, jy = self.jolt()
        if (jx or jy) and self._layer.surface is not None and self._layer.rect is not None:
            arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (58, 48, 40))
            l, b = self._layer.rect[:2]
            self._layer.surface.position = (l + jx, b + jy)
            self._layer.draw(opaque=True)
            self._layer.surface.position = (l, b)
        else:
            self._layer.draw(opaque=True)
        self._sprites.draw()
        if self.playing and (self.caption or self.big):
            self._draw_words()

    def _draw_words(self) -> None:
        """The caption (the thrown handful in a sentence) and the tray's count so far."""
        self._words.begin()
        if self.big:
            k = max(1.0, min(1.4, self.width / 530))
            count = self.count_text()
            if count:
                self._words.put("n", count, self.left + self.width / 2, self.bottom + 8,
                                size=int(24 * k) / 2,
                                bold=True, color=(255, 240, 200), anchor_x="center")
        else:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 44, self.width - 8, 20, (30, 25, 20, 200))
            self._words.put("c", self.caption, self.left + self.width / 2, self.top - 39, size=9,
                            color=(255, 240, 200), anchor_x="center")
        self._words.end()
        self._words.draw()
