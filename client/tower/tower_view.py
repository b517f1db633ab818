"""The battle tower, cut away: a pagoda drawn from `sim.tower.drop.GEOMETRY`
(`tower_art`), and its cubes (`cube_sprites`), moved by a drop's timeline (`drop_play`).

Call down: `play(recording, caption, sides=None, handful=0.0)` animates a recorded drop
(the very drop the engine used; a battle's `sides` give the running tally per side and
the slow motion of a close battle; `handful` seconds show the thrown cubes beside the
tower before the pour), `show_contents(wire)` shows the resting contents,
`set_tray(counts)` the tray, `set_speed(x)`, `skip()`; `big` switches to the battle
view's sizes (issue 13: the tower large, the thrown handful named above it, the tray
counted below). Signals up: `poured` when the handful goes in, `finished` when a drop has
played out and every cube that left has landed in the tray; `cube_landed(colour)` as
each one lands; `shaken` at each of the recording's shakes (the drawing jolts too).

Pace: at speed 1 a drop plays in about REAL_SECONDS (a real pour takes a second or two);
the recording's own clock (its `fps`) is run faster for long drops, never slower, except
in a close battle's slow motion. `stage` says where a drop is: 'handful', 'pour', 'tally'.

Tests: tests/client/tower/test_battle_view.py, tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Literal

import arcade

from client.core.cached_layer import CachedLayer
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.tower import tower_art as art
from client.tower.cube_sprites import CubeSprites
from client.tower.cube_textures import cube_face, cube_mark
from client.tower.drop_play import HAND_ROOM, DropPlay, Pose, code_of, tray_slot
from lang.i18n import _, ngettext
from sim.tower.contents import TowerContents
from client.core.theme import seat_name, SEAT_NAMES

if TYPE_CHECKING:
    from sim.tower.drop import Recording

Stage = Literal["", "handful", "pour", "tally"]    # where a drop is ('': none plays)
REAL_SECONDS = 1.4     # a typical drop at speed 1 (before the slides and the hold)
MAX_RATE = 4.0         # at most this many recorded seconds per second at speed 1
JOLT = 0.3             # recorded seconds a shake's jolt lasts
TALLY = 0.7            # real seconds (at speed 1) a battle's tally stays after the last cube


def cubes_of(n: int, colour: int, named: Callable[[int], str]) -> str:
    """"3 Blue", "1 Peasant" (the peasants' name counts: one peasant is singular)."""
    if colour == 5:
        return ngettext("{n} Peasant", "{n} Peasants", n).format(n=n)
    return f"{n} {named(colour)}"


class TowerView(Node):
    def __init__(self, geometry: dict) -> None:
        super().__init__("tower")
        self.geo = geometry
        self.finished = Signal("finished")
        self.poured = Signal("poured")
        self.cube_landed = Signal("cube_landed")
        self.shaken = Signal("shaken")
        self.big = False
        self.out_total = 0
        self.landed = 0
        self.speed = 1.0
        self.caption = ""
        self.playing = False
        self.drop: DropPlay | None = None
        self._counts: dict[int, int] = {}
        self._rate = 1.0
        self._t = 0.0
        self._pre = 0.0                 # real seconds of the handful still to show
        self._post = 0.0                # real seconds of the tally still to hold
        self._jolt_t = -1.0
        self._shook = 0
        self._frame = -1
        self._hand_left = 0             # frames the handful's place is still to be repainted
        self._rest: list[tuple[int, float, float, float]] = []   # colour, x, y, angle(rad)
        self._tray_counts: dict = {}
        self.cubes = CubeSprites()
        self._layer = CachedLayer()
        self.texts = TextCache()
        self._words = TextCache()
        self._fitted: dict[tuple[int, float, int], float] = {}   # the count's fitted size, this drop

    # -- geometry -------------------------------------------------------------------------
    def _room(self) -> tuple[float, float]:
        """Pixels kept free above the tower (the caption) and below it (the tray count)."""
        return (96.0, 30.0) if self.big else (44.0, 4.0)

    def _right(self) -> float:
        """Tower units drawn right of the tray: the handful's room in the battle view."""
        return HAND_ROOM if self.big else art.RIGHT

    def _xf(self) -> tuple[float, float, float]:
        w_units = art.LEFT + self.geo["tray_end"] + self._right()
        h_units = art.BELOW + self.geo["top"] + art.ABOVE
        above, below = self._room()
        s = min((self.width - 8) / w_units, (self.height - above - below) / h_units)
        ox = self.left + 4 + ((self.width - 8) - w_units * s) / 2 + art.LEFT * s
        oy = self.bottom + below + art.BELOW * s
        return s, ox, oy

    def damage_rect(self) -> tuple[int, int, int, int]:
        """What a frame of the animation repaints (the window's partial redraw): where
        cubes can be (the shaft, the handful beside it, the tray) and the count below;
        not the roofs or the caption, which stay the same during a drop (`play` asks for a
        full repaint when the caption changes). A shake's jolt moves the whole drawing, so
        then the whole view."""
        if self.jolt() != (0.0, 0.0):
            return int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1
        s, ox, _ = self._xf()
        pad = 2 * s + 2
        x0 = max(self.left, ox - pad)
        right = self._right() if self._hand_left else art.RIGHT     # the hand, while it shows
        x1 = min(self.right, ox + (self.geo["tray_end"] + right) * s + pad)
        _, top_y = self._still(0, self.geo["top"])
        y1 = min(self.top, top_y + pad)
        return int(x0), int(self.bottom), int(x1 - x0) + 1, int(y1 - self.bottom) + 1

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        jx, jy = self.jolt()
        return ox + x * s + jx, oy + y * s + jy

    def _still(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        return ox + x * s, oy + y * s

    def rebuild(self) -> None:
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_static)

    def _draw_static(self) -> None:
        s = self._xf()[0]
        art.draw_tower(self.geo, (self.left, self.bottom, self.width, self.height), self._still, s)
        self.texts.begin()
        if not self.big:
            self.texts.put("t", _("Battle tower"), self.left + self.width / 2, self.top - 16, size=10,
                           color=(240, 230, 210), anchor_x="center", bold=True)
            self._draw_inside_counts()
        tx, ty = self._still((self.geo["width"] + self.geo["tray_end"]) / 2 + 4, -art.BELOW + 1)
        t = self.texts.put("tray", _("tray"), tx, ty, size=12 if self.big else 8, color=(60, 44, 30),
                           anchor_x="center")
        if t.right > self.right - 3:      # a longer word ("opvangschaal") keeps inside the panel
            self.texts.put("tray", _("tray"), self.right - 3 - t.content_width / 2, ty,
                           size=12 if self.big else 8, color=(60, 44, 30), anchor_x="center")
        if self.big and self.caption:     # drawn once per drop, not every frame
            k = max(1.0, min(1.4, self.width / 530))     # grows with the window (whole half-points)
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 90, self.width - 8, 86, (30, 25, 20, 225))
            self.texts.put("c", self.caption, self.left + 14, self.top - 12, size=int(26 * k) / 2,
                           bold=True, color=(255, 240, 200), anchor_y="top",
                           width=int(self.width - 28), multiline=True)
        self.texts.end()
        self.texts.draw()

    def _draw_inside_counts(self) -> None:
        """The small tower's cubes are too small to read: a row under its title says what
        is inside, a readable cube (face and letter) and a count per colour."""
        counts: dict[int, int] = {}
        for colour, *_pose in self._rest:
            counts[code_of(colour)] = counts.get(code_of(colour), 0) + 1
        if not counts:
            return
        size, gap = 13.0, 30.0
        x = self.left + self.width / 2 - gap * len(counts) / 2 + size / 2
        y = self.top - 34
        for code, n in sorted(counts.items()):
            for tex in (cube_face(code), cube_mark(code)):
                arcade.draw_texture_rect(tex, arcade.XYWH(x, y, size, size))
            self.texts.put(("n", code), str(n), x + size / 2 + 2, y, size=8.5, bold=True,
                           color=(240, 230, 210), anchor_y="center")
            x += gap

    # -- inputs ---------------------------------------------------------------------------
    def set_speed(self, speed: float) -> None:
        self.speed = max(0.1, speed)

    def set_big(self, big: bool) -> None:
        """The battle view's sizes (caption room above, tray count below) or the column's
        (which counts the cubes inside under its title: drawn again on the way back)."""
        if big != self.big:
            self.big = big
            self.mark_dirty()
            self.on_layout()

    def set_tray(self, counts: dict | None) -> None:
        self._tray_counts = dict(counts or {})
        if not self.playing:
            self._place_rest()

    def show_contents(self, wire: Any) -> None:
        """Show these resting contents now (a `TowerContents` wire list: a resumed game, a
        replay's seek), so the tower is drawn as the state has it; a drop in play keeps
        playing (its own last frame is the same contents)."""
        from sim.tower.physics import ANGLE_SCALE, POS_SCALE  # pymunk: with the first drop
        cubes = TowerContents.from_wire(list(wire or [])).cubes
        self._rest = [(c.colour, c.x / POS_SCALE, c.y / POS_SCALE, c.angle / ANGLE_SCALE * 2 * math.pi)
                      for c in cubes]
        if not self.big:
            self.mark_dirty()           # the small tower's counts (the large one has none)
        if not self.playing:
            self._place_rest()
        damage()

    @property
    def cubes_shown(self) -> int:
        """Cubes drawn at rest, inside and in the tray (tests read it)."""
        return 0 if self.playing else len(self.cubes.shown)

    @property
    def progress(self) -> float:
        """The share of the drop's recorded frames shown so far (0 when none plays)."""
        d = self.drop
        return self._frame / len(d.rec.frames) if d is not None and d.rec.frames else 0.0

    @property
    def playback_time(self) -> float:
        """Seconds of the recording shown so far (of the drop playing)."""
        return self._t

    @property
    def stage(self) -> Stage:
        """Where the drop in play is: 'handful', 'pour', 'tally' ('' when none plays)."""
        if not self.playing or self.drop is None:
            return ""
        return "handful" if self._pre > 0 else "tally" if self._t >= self.drop.end_t else "pour"

    @property
    def slow_motion(self) -> bool:
        """The close battle's last cubes are being shown slowly."""
        return self.stage == "pour" and self.drop is not None and self.drop.pace(self._t) < 1.0

    def play(self, recording: Recording, caption: str = "", sides: tuple[int, int] | None = None,
             handful: float = 0.0) -> None:
        self.drop = DropPlay(recording, self.geo, sides)
        self._fitted.clear()
        dur = len(recording.frames) / recording.fps
        self._rate = min(MAX_RATE, max(1.0, dur / REAL_SECONDS))
        self._t = 0.0
        self._pre = handful
        self._post = TALLY if sides is not None else 0.0
        self._frame = -1
        self.out_total = self.drop.out_total
        self.landed = 0
        self._counts = {}
        self._shook = 0
        self._jolt_t = -1.0
        if caption != self.caption:
            self.caption = caption
            if self.big:
                self.mark_dirty()       # the caption lives in the static layer
            damage()
        self.playing = True
        if handful <= 0:
            self.poured.emit()
        self._show(0.0)

    def skip(self) -> bool:
        """Every cube lands at once and the drop ends (S, at any of its stages); False
        when no drop was playing."""
        if not self.playing or self.drop is None:
            return False
        if self._pre > 0:
            self._pre = 0.0
            self.poured.emit()
        self._end_play()
        return True

    # -- animation ------------------------------------------------------------------------
    def _frame_xf(self) -> tuple[float, float, float]:
        """This frame's scale and origin, the jolt included (computed once per frame)."""
        s, ox, oy = self._xf()
        jx, jy = self.jolt()
        return s, ox + jx, oy + jy

    def _put(self, p: Pose, xf: tuple[float, float, float]) -> None:
        s, ox, oy = xf
        self.cubes.put(Pose(p.code, ox + p.x * s, oy + p.y * s, p.angle, max(3.0, p.size * s),
                            p.thrown))

    def _place_rest(self) -> None:
        xf = self._frame_xf()
        tray: list[int] = []
        for colour, n in sorted(self._tray_counts.items(), key=lambda kv: str(kv[0])):
            tray += [code_of(colour)] * int(n)
        self.cubes.begin()
        for colour, x, y, a in self._rest:
            self._put(Pose(code_of(colour), x, y, a, float(self.geo["cube"])), xf)
        for j, code in enumerate(tray):
            x, y, size = tray_slot(self.geo, j, len(tray))
            self._put(Pose(code, x, y, 0.0, size), xf)
        self.cubes.end()

    def _show(self, t: float) -> None:
        """Draw the drop at recording time t and count the cubes that reached the tray."""
        d = self.drop
        assert d is not None, "only while a drop plays"
        xf = self._frame_xf()
        self.cubes.begin()
        hand = False
        for p in d.poses(t, in_hand=True):
            self._put(p, xf)
            hand |= p.x > self.geo["tray_end"]
        self.cubes.end()
        self._hand_left = 2 if hand else max(0, self._hand_left - 1)
        landed = d.landed_by(t)
        while self.landed < landed:
            c = code_of(d.rec.colours[d.order[self.landed]])
            self._counts[c] = self._counts.get(c, 0) + 1
            self.landed += 1
            self.cube_landed.emit("peasant" if c == 5 else c)
        f = d.frame_at(t)
        shakes = [k for k in (d.rec.shakes or ()) if k <= f]
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
        """The tray so far: per side in a battle ("Blue 4 — 3 Orange (and 1 other cube)"),
        else by colour ("Out: 7 Blue, 1 Peasant"), counted as the cubes land."""
        forms = self.count_forms()
        return forms[0] if forms else ""

    def count_forms(self) -> list[str]:
        """The tray's count, longest first: in full; without the cubes of neither side;
        with the sides' colours for the players' names (a narrow battle view)."""
        if not self.playing or not self._counts:
            return []
        d = self.drop
        if d is not None and d.sides is not None:
            att, dfn = d.sides
            a, b = self._counts.get(att, 0), self._counts.get(dfn, 0)
            rest = sum(self._counts.values()) - a - b
            out = []
            for named in (seat_name, lambda c: SEAT_NAMES[c] if 0 <= c < len(SEAT_NAMES)
                          else seat_name(c)):
                names = {"attacker": seat_name("peasant") if att == 5 else named(att), "a": a,
                         "defended": cubes_of(b, dfn, named), "n": rest}
                if rest:
                    out.append(ngettext("{attacker} {a} — {defended} (and {n} other cube)",
                                        "{attacker} {a} — {defended} (and {n} other cubes)",
                                        rest).format(**names))
                out.append(_("{attacker} {a} — {defended}").format(**names))
            return list(dict.fromkeys(out))
        parts = [cubes_of(n, c, seat_name) for c, n in sorted(self._counts.items())]
        return [_("Out: {cubes}").format(cubes=", ".join(parts))]

    def _end_play(self) -> None:
        d = self.drop
        assert d is not None
        self._t = d.end_t
        self._show(d.end_t)
        self._rest = d.resting()
        if not self.big:
            self.mark_dirty()           # the small tower's counts (the large one has none)
        self.playing = False
        self.drop = None
        self.finished.emit()

    def on_update(self, dt: float) -> None:
        d = self.drop
        if not self.playing or d is None:
            return
        if self._pre > 0:
            self._pre -= dt * self.speed
            if self._pre <= 0:
                self.poured.emit()
            return
        if self._t >= d.end_t:                      # the tally holds
            self._post -= dt * self.speed
            if self._post <= 0:
                self._end_play()
            return
        jolting = self.jolt() != (0.0, 0.0)
        self._t = min(d.end_t, self._t + dt * self.speed * self._rate * d.pace(self._t))
        self._show(self._t)
        if jolting and self.jolt() == (0.0, 0.0):
            damage()                # the jolt is over: the whole view back in its place
        if self._t >= d.end_t and self._post <= 0:
            self._end_play()

    def on_layout(self) -> None:
        if self.playing and self.drop is not None:
            self._show(self._t)
        else:
            self._place_rest()

    def on_draw(self) -> None:
        jx, jy = self.jolt()
        if (jx or jy) and self._layer.surface is not None and self._layer.rect is not None:
            arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (34, 30, 44))
            l, b = self._layer.rect[:2]
            self._layer.surface.position = (l + jx, b + jy)
            self._layer.draw(opaque=True)
            self._layer.surface.position = (l, b)
        else:
            self._layer.draw(opaque=True)
        self.cubes.draw()
        if self.playing and (self.caption or self.big):
            self._draw_words()

    def _draw_words(self) -> None:
        """The caption (the thrown handful in a sentence) and the tray's count so far."""
        self._words.begin()
        if self.big:
            k = max(1.0, min(1.4, self.width / 530))
            forms = self.count_forms()
            if forms:           # centred in the repainted rectangle, shrunk to fit it
                x, _, w, _ = self.damage_rect()
                start = int(24 * k * (1.15 if self.stage == "tally" else 1.0)) / 2
                for i, count in enumerate(forms):  # a shorter form before type under 11 px
                    floor = 8.0 if i == len(forms) - 1 else 8.5
                    key = (w, start, i)  # from the size the last count fitted at: a new
                    size = self._fitted.get(key, start)   # count is laid out once or twice
                    while True:
                        t = self._words.put("n", count, x + w / 2, self.bottom + 8, size=size,
                                            bold=True, color=(255, 240, 200), anchor_x="center")
                        if t.content_width <= w - 8 or size <= floor:
                            break
                        size -= 0.5
                    self._fitted[key] = size
                    if t.content_width <= w - 8:
                        break
        else:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 44, self.width - 8, 20, (30, 25, 20, 200))
            self._words.put("c", self.caption, self.left + self.width / 2, self.top - 39, size=9,
                            color=(255, 240, 200), anchor_x="center")
        self._words.end()
        self._words.draw()
