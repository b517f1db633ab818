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

On a software renderer a frame costs the pixels it fills, so the stage repaints in pieces
(`damage_rects`): the shaft and tray while cubes fall, the panels' counts when one lands,
the tiles the handful crosses; the opening is a camera move drawn from two cached
pictures (the board's, the stage's), each pixel once (issue 36 item 6).

Tests: tests/client/tower/test_battle_view.py, tests/client/tower/test_cubes.py,
tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Literal

import arcade

from client.core import theme
from client.core.cached_layer import CachedLayer
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.tower import tower_art as art
from client.tower.cube_sprites import CubeSprites
from client.tower.cube_textures import cube_face, cube_mark
from client.tower.drop_play import DropPlay, Pose, code_of, tray_places
from client.tower.stage_repaint import TILE, camera, minus, pixels, tile_rects
from client.tower.stage_sides import SideFacts, count_rect, draw_side
from lang.i18n import _, ngettext
from sim.tower.contents import TowerContents
from client.core.theme import seat_name, SEAT_NAMES

if TYPE_CHECKING:
    from sim.tower.drop import Recording

Stage = Literal["", "handful", "pour", "tally"]    # where a drop is ('': none plays)
REAL_SECONDS = 5.0     # a drop plays in real time up to this long (issue 36: the pour in real time)
MAX_RATE = 4.0         # at most this many recorded seconds per second at speed 1
JOLT = 0.3             # recorded seconds a shake's jolt lasts
TALLY = 1.6            # real seconds (at speed 1) a battle's tally stays after the last cube
OPENING = 0.5          # real seconds of the camera's move from the province to the stage
BOARD_ZOOM = 2.6       # how far the camera moves in on the board while the stage opens
STAGE_FROM = 0.08      # the stage's size, against the view's, when it appears at the province


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
        self._handful = 0.0             # real seconds the handful takes in all
        self._post = 0.0                # real seconds of the tally still to hold
        self._jolt_t = -1.0
        self._shook = 0
        self._frame = -1
        self._hand_left = 0             # frames the handful's place is still to be repainted
        self._recount = 0               # frames the panels' counts are still to be repainted
        self._rest: list[tuple[int, float, float, float]] = []   # colour, x, y, angle(rad)
        self._tray_counts: dict = {}
        self.cubes = CubeSprites()
        self._layer = CachedLayer()
        self.texts = TextCache()
        self._words = TextCache()
        self._fitted: dict[tuple[int, float, int], float] = {}   # the count's fitted size, this drop
        self.sides: tuple[SideFacts, SideFacts] | None = None    # the stage's two panels
        self.opened_from: tuple[float, float] | None = None      # the stage opens from here
        self.opening = 1.0              # the stage's opening so far (0 to 1; 1: open)
        self._from_tray: dict[int, int] = {}                     # thrown cubes that were in the tray
        self._icons: dict[str, list[tuple[int, float, float, float]]] = {}   # the panels' cubes
        self._backdrop: CachedLayer | None = None    # the board's picture, zoomed into while opening
        self._whole = 0                 # frames the whole stage is still to be repainted
        self._hand_tiles: set[tuple[int, int]] = set()           # the handful's tiles last frame
        self._hand_rects: list[tuple[int, int, int, int]] = []   # and what they repaint this one

    # -- geometry -------------------------------------------------------------------------
    def _xf(self) -> tuple[float, float, float]:
        w_units = art.LEFT + self.geo["tray_end"] + art.RIGHT
        if self.big:        # the stage: the tower in the middle, as tall as the view
            h_units = art.STAGE_BELOW + self.geo["top"] + art.STAGE_ABOVE
            s = min(self.width * 0.46 / w_units, (self.height - 8) / h_units)
            ox = self.left + (self.width - w_units * s) / 2 + art.LEFT * s
            return s, ox, self.bottom + 4 + art.STAGE_BELOW * s
        h_units = art.BELOW + self.geo["top"] + art.ABOVE
        s = min((self.width - 8) / w_units, (self.height - 44 - 14) / h_units)
        ox = self.left + 4 + ((self.width - 8) - w_units * s) / 2 + art.LEFT * s
        return s, ox, self.bottom + 14 + art.BELOW * s

    def type_scale(self) -> float:
        """The stage's type grows with the view (1 at 1280x800)."""
        return max(0.8, min(1.8, self.height / 766))

    def panel_rects(self) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
        """The attacker's panel left of the tower, the defender's right of it."""
        s, ox, _ = self._xf()
        x0 = ox - art.LEFT * s
        x1 = ox + (self.geo["tray_end"] + art.RIGHT) * s
        gap = 18 * self.type_scale()
        w = max(60.0, min(420 * self.type_scale(), x0 - self.left - 2 * gap))
        h = self.height * 0.66
        b = self.bottom + (self.height - h) * 0.55
        return (x0 - gap - w, b, w, h), (x1 + gap, b, min(w, self.right - gap - x1 - gap), h)

    def damage_rect(self) -> tuple[int, int, int, int]:
        """What a frame of the animation repaints (the window's partial redraw): where
        cubes can be (the shaft, the handful beside it, the tray) and the count below;
        not the roofs or the caption, which stay the same during a drop (`play` asks for a
        full repaint when the caption changes). A shake's jolt moves the whole drawing, so
        then the whole view."""
        if self.jolt() != (0.0, 0.0) or (self.big and (self._hand_left or self._recount
                                                       or self.opening < 1.0)):
            return int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1
        s, ox, _ = self._xf()
        pad = 2 * s + 2
        x0 = max(self.left, ox - pad)
        x1 = min(self.right, ox + (self.geo["tray_end"] + art.RIGHT) * s + pad)
        _, top_y = self._still(0, self.geo["top"] + (art.STAGE_ABOVE if self.big else 0))
        y1 = min(self.top, top_y + pad)
        return int(x0), int(self.bottom), int(x1 - x0) + 1, int(y1 - self.bottom) + 1

    def damage_rects(self) -> list[tuple[int, int, int, int]]:
        """What a frame of the stage repaints, in pieces (issue 36 item 6: a whole stage
        costs llvmpipe 10-20 ms): the shaft and tray; the two panels' counts when a cube
        landed; the tiles the handful's cubes cross (where they were and are); the whole
        stage only while the camera moves in and on the frame after."""
        if not self.big or self.jolt() != (0.0, 0.0):
            return [self.damage_rect()]
        if self.opening < 1.0 or self._whole:
            return [(int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1)]
        rects = [self._shaft_rect()]
        if self._recount:
            rects += self._count_rects()
        return rects + self._hand_rects

    def _shaft_rect(self) -> tuple[int, int, int, int]:
        s, ox, _ = self._xf()
        pad = 2 * s + 2
        x0 = max(self.left, ox - pad)
        x1 = min(self.right, ox + (self.geo["tray_end"] + art.RIGHT) * s + pad)
        _, top_y = self._still(0, self.geo["top"] + (art.STAGE_ABOVE if self.big else 0))
        y1 = min(self.top, top_y + pad)
        return int(x0), int(self.bottom), int(x1 - x0) + 1, int(y1 - self.bottom) + 1

    def _count_rects(self) -> list[tuple[int, int, int, int]]:
        """The panels' live counts (each panel's lower part)."""
        k = self.type_scale()
        out = []
        for rect in self.panel_rects():
            x, y, w, h = count_rect(rect, k)
            out.append((int(x) - 1, int(y) - 1, int(w) + 3, int(h) + 3))
        return out

    def _handful_tiles(self) -> set[tuple[int, int]]:
        """The TILE-pixel tiles the thrown cubes outside the shaft's rectangle cover (a
        cube's glow included)."""
        x, _y, w, _h = self._shaft_rect()
        tiles: set[tuple[int, int]] = set()
        for p in self.cubes.shown:
            r = 0.9 * p.size + 2
            if not p.thrown or (x <= p.x - r and p.x + r <= x + w):
                continue
            for tx in range(int((p.x - r) // TILE), int((p.x + r) // TILE) + 1):
                for ty in range(int((p.y - r) // TILE), int((p.y + r) // TILE) + 1):
                    tiles.add((tx, ty))
        return tiles

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
        art.draw_tower(self.geo, (self.left, self.bottom, self.width, self.height), self._still, s,
                       stage=self.big)
        self.texts.begin()
        if not self.big:
            self.texts.put("t", _("Battle tower"), self.left + self.width / 2, self.top - 16, size=10,
                           color=(240, 230, 210), anchor_x="center", bold=True)
            self._draw_inside_counts()
        self._tray_word()
        if self.big:
            k = self.type_scale()
            if self.sides is not None:
                for key, facts, rect in zip(("a", "d"), self.sides, self.panel_rects()):
                    self._icons[key] = draw_side(self.texts, key, facts, rect, k)
                if self.drop is not None and self.drop.gathered < 1.0:
                    self._set_origins()     # the handful leaves from the cubes just drawn
            elif self.caption:           # a drop that is not a battle (the fill): its sentence
                left, b, w, h = self.panel_rects()[0]
                self.texts.put("c", self.caption, left, b + h, size=14 * k, bold=True,
                               color=(255, 240, 200), anchor_y="top", width=int(w), multiline=True)
        self.texts.end()
        self.texts.draw()

    def tray_word_box(self) -> tuple[float, float, float, float]:
        """The 'tray' word's box (left, bottom, right, top): under the tray's box, on the
        base, never across its edge (issue 37: it was 8 pt across the edge)."""
        t = self.texts.labels.get("tray")
        if t is None:
            return (0.0, 0.0, 0.0, 0.0)
        return (t.left, t.bottom, t.right, t.top)

    def _tray_word(self) -> None:
        size = 13 * self.type_scale() if self.big else theme.SMALLEST_TYPE
        _x, foot_y = self._still(0, -6)                     # the tray box's foot
        mid = (self.geo["width"] + self.geo["tray_end"]) / 2 + 4
        tx, _y = self._still(mid, 0)
        colour = (236, 220, 190) if self.big else (40, 30, 22)
        t = self.texts.put("tray", _("tray"), tx, foot_y - 2, size=size, color=colour,
                           anchor_x="center", anchor_y="top")
        if t.right > self.right - 3:      # a longer word ("opvangschaal") keeps inside the panel
            self.texts.put("tray", _("tray"), self.right - 3 - t.content_width / 2, foot_y - 2,
                           size=size, color=colour, anchor_x="center", anchor_y="top")

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
             handful: float = 0.0, from_tray: dict[int, int] | None = None) -> None:
        """Animate a recorded drop; `from_tray`: how many of the thrown cubes of each
        colour code were lying in the tray (they are gathered from there)."""
        self.drop = DropPlay(recording, self.geo, sides)
        self._from_tray = dict(from_tray or {})
        self._fitted.clear()
        dur = len(recording.frames) / recording.fps
        self._rate = min(MAX_RATE, max(1.0, dur / REAL_SECONDS))
        self._t = 0.0
        self._pre = self._handful = handful
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
        self._gather_from()
        if handful <= 0:
            self.poured.emit()
        self._show(0.0)

    def _gather_from(self) -> None:
        """Where each thrown cube is gathered from, in tower units: the attacker's from
        its panel (the province's armies), the defender's and the peasants' from theirs,
        the tray's from their places in the tray; none in the small tower."""
        d = self.drop
        if d is None or not self.big or self._pre <= 0:
            if d is not None:
                d.gathered = 1.0
            return
        self._set_origins()
        d.gathered = 0.0

    def _set_origins(self) -> None:
        """The thrown cubes' origins (see `_gather_from`): a side's own from the cubes its
        panel shows (`handful_places`, once the panel is drawn), in their order."""
        d = self.drop
        assert d is not None
        s, ox, oy = self._xf()
        rec = d.rec
        left, right = self.panel_rects()
        tray_left = dict(self._from_tray)
        tray_codes: list[int] = []
        for c, n in sorted(tray_left.items()):
            tray_codes += [c] * n
        places = tray_places(self.geo, tray_codes)
        tray_next: dict[int, int] = {}
        att = d.sides[0] if d.sides else -1
        icons = {side: [p for p in self._icons.get(side, []) if p[0] == code]
                 for side, code in zip(("a", "d"), d.sides or ())}
        used = {"a": 0, "d": 0}
        for i in range(len(rec.colours) - 1, rec.inside_before - 1, -1):   # the last thrown: the tray's
            c = code_of(rec.colours[i])
            if tray_left.get(c, 0) > 0:
                tray_left[c] -= 1
                k = tray_next.get(c, 0)
                tray_next[c] = k + 1
                j = [n for n, code in enumerate(tray_codes) if code == c][k]
                d.origins[i] = places[j][:2]
                continue
            side = "a" if c == att else "d"
            mine = icons.get(side, [])
            if used[side] < len(mine) and mine[used[side]][0] == c:
                _c, px, py, _size = mine[used[side]]
                used[side] += 1
                d.origins[i] = ((px - ox) / s, (py - oy) / s)
                continue
            lx, lb, lw, lh = left if c == att else right
            rank = d.hand.get(i, 0)
            px = lx + lw * (0.2 + 0.6 * ((rank * 37) % 11) / 10)
            py = lb + lh * (0.25 + 0.1 * ((rank * 17) % 7) / 6)
            d.origins[i] = ((px - ox) / s, (py - oy) / s)

    def skip(self) -> bool:
        """S: the stage in play ends. During the handful or the pour every cube lands at
        once and the tally is shown (in the stage, held until S again or its time is up);
        during the tally the drop ends. False when no drop was playing."""
        if not self.playing or self.drop is None:
            return False
        if self._pre > 0:
            self._pre = 0.0
            self.drop.gathered = 1.0
            self.poured.emit()
        if self.big and self.drop.sides is not None and self._t < self.drop.end_t:
            self._t = self.drop.end_t
            self._show(self._t)
            self._post = max(self._post, TALLY)
            damage()
            return True
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
        for code, (x, y, size) in zip(tray, tray_places(self.geo, tray)):
            self._put(Pose(code, x, y, 0.0, size), xf)
        self.cubes.end()

    def _show(self, t: float) -> None:
        """Draw the drop at recording time t and count the cubes that reached the tray."""
        d = self.drop
        assert d is not None, "only while a drop plays"
        xf = self._frame_xf()
        self.cubes.begin()
        for p in d.poses(t, in_hand=True):
            self._put(p, xf)
        self.cubes.end()
        gathering = self.big and d.gathered < 1.0
        self._hand_left = 2 if gathering else max(0, self._hand_left - 1)
        self._recount = max(0, self._recount - 1)
        self._whole = max(0, self._whole - 1)
        tiles = self._handful_tiles() if self.big else set()
        self._hand_rects = tile_rects(tiles | self._hand_tiles, (self.left, self.bottom, self.right, self.top)) if tiles or self._hand_tiles else []
        self._hand_tiles = tiles
        landed = d.landed_by(t)
        if landed != self.landed and self.big:
            self._recount = 2           # the panels' counts change: this frame the whole stage
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
        if self.opening < 1.0:
            self.opening = min(1.0, self.opening + dt * self.speed / OPENING)
            if self.opening < 1.0:
                return
            self._whole = 2             # the stage as it is, unscaled, over the last move
        if self._pre > 0:
            self._pre -= dt * self.speed
            d.gathered = 1.0 - max(0.0, self._pre) / max(1e-6, self._handful)
            self._show(self._t)
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

    def open_from(self, point: tuple[float, float] | None,
                  backdrop: CachedLayer | None = None) -> None:
        """The camera moves in from this point of the window (the province fought over)
        to the stage over OPENING seconds: the board (`backdrop`: its cached picture)
        zooms in on the province, and the stage grows out of it to the whole view."""
        self.opened_from = point
        self._backdrop = backdrop
        self.opening = 0.0 if point is not None and self.big else 1.0

    def opening_rect(self) -> tuple[float, float, float, float]:
        """Where the stage is drawn while the camera moves in (left, bottom, width,
        height): a small picture of it at the province, growing to the whole view as the
        board behind it is zoomed into."""
        if self.opening >= 1.0 or self.opened_from is None:
            return self.left, self.bottom, self.width, self.height
        u = self._eased()
        k = STAGE_FROM + (1 - STAGE_FROM) * u
        sx, sy = self._board_xf()[1:]
        fx, fy = self.opened_from
        cx, cy = self.left + self.width / 2, self.bottom + self.height / 2
        w, h = self.width * k, self.height * k
        # the stage's middle: where the province is on the zoomed board, on its way to the view's
        mx = (fx * self._board_xf()[0] + sx) * (1 - u) + cx * u
        my = (fy * self._board_xf()[0] + sy) * (1 - u) + cy * u
        left = min(max(self.left, mx - w / 2), self.right - w)
        bottom = min(max(self.bottom, my - h / 2), self.top - h)
        return left, bottom, w, h

    def _eased(self) -> float:
        u = self.opening
        return u * u * (3 - 2 * u)

    def _board_xf(self) -> tuple[float, float, float]:
        """The camera on the board while it moves in: a point p of the board is drawn at
        p * zoom + offset; the province moves from its place towards the view's middle."""
        u = self._eased()
        z = 1 + (BOARD_ZOOM - 1) * u
        fx, fy = self.opened_from or (self.left + self.width / 2, self.bottom + self.height / 2)
        cx, cy = self.left + self.width / 2, self.bottom + self.height / 2
        px, py = fx + (cx - fx) * u, fy + (cy - fy) * u          # where the province is drawn
        offx, offy = px - fx * z, py - fy * z
        bd = self._backdrop.rect if self._backdrop is not None else None
        if bd is not None:       # once the zoomed board is larger than the view, it fills it
            bl, bb, bw, bh = bd
            if bw * z >= self.width:
                offx = min(max(offx, self.right - (bl + bw) * z), self.left - bl * z)
            if bh * z >= self.height:
                offy = min(max(offy, self.top - (bb + bh) * z), self.bottom - bb * z)
        return z, offx, offy

    def on_draw(self) -> None:
        if self.big and self.opening < 1.0 and self.opened_from is not None:
            self._draw_opening()
            return
        self._draw_scene()

    def _draw_opening(self) -> None:
        """One frame of the camera's move: the board zoomed (where the stage is not), then
        the whole stage drawn scaled into `opening_rect`. Each pixel of the view is
        filled once, so a frame costs what one picture of the stage costs."""
        win = arcade.get_window()
        ctx = win.ctx
        px = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        outer = (self.left, self.bottom, self.width, self.height)
        inner = self.opening_rect()
        scissor = ctx.scissor
        z, offx, offy = self._board_xf()
        bd = self._backdrop
        board = (0.0, 0.0, 0.0, 0.0)
        if bd is not None and bd.rect is not None:
            bl, bb, bw, bh = bd.rect
            board = (bl * z + offx, bb * z + offy, bw * z, bh * z)
        try:
            for strip in minus(outer, inner):
                for bare in minus(strip, board):           # no board there: the table
                    arcade.draw_lbwh_rectangle_filled(*bare, theme.BG)
                if bd is not None and bd.surface is not None:
                    camera(win, z, offx, offy).use()
                    ctx.scissor = pixels(strip, px)      # after the camera: its use resets it
                    bd.draw(opaque=True, smooth=True)
                    win.default_camera.use()
                    ctx.scissor = scissor
            k = inner[2] / max(1.0, self.width)
            camera(win, k, inner[0] - self.left * k, inner[1] - self.bottom * k).use()
            ctx.scissor = pixels(inner, px)
            self._layer.draw(opaque=True, smooth=True)
            self.cubes.draw()
        finally:
            win.default_camera.use()
            ctx.scissor = scissor
        arcade.draw_lbwh_rectangle_outline(*inner, (240, 200, 120), 2)

    def _draw_scene(self) -> None:
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
        if self.playing and (self.caption or self.big) and not self._panels_clipped():
            self._draw_words()

    def _panels_clipped(self) -> bool:
        """A partial repaint that misses the panels' counts (the window's scissor on the
        shaft or a tile of the handful): they are not drawn (their textures and text cost
        a software renderer even when clipped)."""
        if not self.big:
            return False
        win = arcade.get_window()
        scissor = win.ctx.scissor
        if scissor is None:
            return False
        px = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        x, y, w, h = scissor
        return not any(x < (cx + cw) * px and cx * px < x + w and y < (cy + ch) * px and cy * px < y + h
                       for cx, cy, cw, ch in self._count_rects())

    def side_counts(self) -> tuple[int, int, int] | None:
        """The battle's count so far: the attacker's cubes out, the defender's, and the
        peasants' when they are neither side (None: not a battle)."""
        d = self.drop
        if d is None or d.sides is None:
            return None
        att, dfn = d.sides
        a, b = self._counts.get(att, 0), self._counts.get(dfn, 0)
        p = self._counts.get(5, 0) if 5 not in d.sides else 0
        return a, b, p

    def _draw_words(self) -> None:
        """The live count (each side's, in its panel, in large type; the stage) or the
        caption (the thrown handful in a sentence; the small tower)."""
        self._words.begin()
        if self.big:
            counts = self.side_counts()
            if counts is not None and self.sides is not None and self.stage != "handful":
                k = self.type_scale()
                for key, facts, n, rect in zip(("a", "d"), self.sides, counts[:2], self.panel_rects()):
                    x, y, w, h = count_rect(rect, k)
                    size = 44 * k
                    for tex in (cube_face(facts.code), cube_mark(facts.code)):
                        arcade.draw_texture_rect(tex, arcade.XYWH(x + 14 * k + size / 2, y + h / 2, size, size))
                    self._words.put((key, "n"), str(n), x + 28 * k + size, y + h / 2, size=40 * k,
                                    bold=True, color=(255, 244, 222), anchor_y="center")
                    self._words.put((key, "out"), _("out of the tower"), x + 14 * k, y + h - 4,
                                    size=11 * k, color=(226, 210, 186), anchor_y="top")
                if counts[2]:
                    x, y, w, h = count_rect(self.panel_rects()[1], k)
                    self._words.put("p", ngettext("+ {n} peasant out", "+ {n} peasants out", counts[2])
                                    .format(n=counts[2]), x + w - 10 * k, y + h / 2, size=14 * k,
                                    bold=True, color=(200, 230, 190), anchor_x="right", anchor_y="center")
        else:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 44, self.width - 8, 20, (30, 25, 20, 200))
            self._words.put("c", self.caption, self.left + self.width / 2, self.top - 39, size=9,
                            color=(255, 240, 200), anchor_x="center")
        self._words.end()
        self._words.draw()

