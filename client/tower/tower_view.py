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

Pace (`drop_clock`): at speed 1 a drop plays in about REAL_SECONDS, faster for long
drops, slower only in a close battle's slow motion. `stage` says where a drop is:
'handful', 'pour', 'tally'.

On a software renderer a frame costs the pixels it fills, so the stage repaints in pieces
(`damage_rects`): the tiles where a cube moved (where it was and is: `CubeSprites.changed`),
the panels' counts when one lands, the tiles the handful crosses (`stage_repaint`); the
opening is a camera move
(`stage_opening`). Where things sit: `stage_layout`; the count in words: `stage_tally`;
where the handful is gathered from: `handful_origins`; the still picture's words:
`tower_labels`.

Tests: tests/client/tower/test_battle_view.py, tests/client/tower/test_cubes.py,
tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import arcade

from client.core import theme
from client.core.cached_layer import CachedLayer
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.tower import stage_layout as layout
from client.tower import tower_art as art
from client.tower.cube_sprites import CubeSprites
from client.tower.cube_textures import warm_cube_textures
from client.tower.drop_clock import CLIMAX, TALLY, DropClock, Stage
from client.tower.drop_play import DropPlay, Pose, code_of, tray_places
from client.tower.handful_origins import Icon, place_origins
from client.tower.stage_layout import Box
from client.tower.stage_opening import Opening, Sea
from client.core.dirty_union import each_rect
from client.tower.stage_repaint import StageRepaint, box_tiles, handful_tiles, scissor_misses
from client.tower.stage_sides import SideFacts, draw_side
from client.tower.stage_climax import PEASANT, BattleKind, Verdict, battle_totals, counted_by
from client.tower.stage_climax_art import banner_rect, draw_climax
from client.tower.stage_tally import count_forms
from client.tower.stage_trays import box_places, draw_box_count, draw_tray_box
from client.tower.tower_labels import draw_inside_counts, put_tray_word
from lang.i18n import _
from sim.tower.contents import TowerContents

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData
    from sim.tower.drop import Recording



FLIGHT = 0.4           # recorded seconds a counted cube takes from the tower's tray to its side's


def _touches(p: Pose, xf: tuple[float, float, float], rect: Box) -> bool:
    """The cube at `p` (tower units; drawn with `xf`), its shadow or glow included,
    overlaps `rect` (window pixels)."""
    s, ox, oy = xf
    x, y, r = ox + p.x * s, oy + p.y * s, 0.9 * max(3.0, p.size * s) + 2
    left, bottom, w, h = rect
    return left < x + r and x - r < left + w and bottom < y + r and y - r < bottom + h


class TowerView(Node):
    covers_rects = True      # `_draw_scene` copies its picture first, rectangle by rectangle

    def __init__(self, geometry: GeometryData) -> None:
        super().__init__("tower")
        self.geo: GeometryData = geometry
        self.finished: Signal = Signal("finished")
        self.poured: Signal = Signal("poured")
        self.cube_landed: Signal = Signal("cube_landed")
        self.shaken: Signal = Signal("shaken")
        self.climaxed: Signal = Signal("climaxed")               # the decision is shown
        self.big: bool = False
        self.out_total: int = 0
        self.landed: int = 0
        self.speed: float = 1.0
        self.caption: str = ""
        self.playing: bool = False
        self.drop: DropPlay | None = None
        self._counts: dict[int, int] = {}                        # colour code -> cubes landed
        self._clock: DropClock = DropClock()                     # the drop's time as it plays
        self._rest: list[tuple[int, float, float, float]] = []   # colour, x, y, angle(rad)
        self._tray_counts: dict[str, int] = {}
        self.cubes: CubeSprites = CubeSprites()
        self._layers: tuple[CachedLayer, CachedLayer] = (CachedLayer(), CachedLayer())   # the still
        # picture, in the column and on the stage: each keeps its framebuffer between battles
        self._art: CachedLayer = CachedLayer(samples=4)          # the stage's table and tower,
        # anti-aliased (drawn once per window size, copied into the stage's picture at each battle)
        self._art_key: tuple[Box, float] | None = None           # what `_art` was drawn for
        self._column_art: CachedLayer = CachedLayer()            # the column's tower, the same way
        self._column_key: tuple[Box, float] | None = None
        self._texts: tuple[TextCache, TextCache] = (TextCache(), TextCache())   # the still
        # picture's words, in the column and on the stage (each keeps its labels: no new
        # layout of the other's words at each switch)
        self._drawn: tuple[object, ...] | None = None            # what the stage's picture shows
        self._parts: tuple[tuple[object, ...], int] | None = None   # a picture begun in parts:
        # what it shows, the next part to draw (`prepare_sides`)
        self._words: TextCache = TextCache()                     # the live count's
        self._fitted: dict[tuple[int, float, int], float] = {}   # the count's fitted size, this drop
        self.sides: tuple[SideFacts, SideFacts] | None = None    # the stage's two panels
        self.verdict: Verdict | None = None                      # the battle's result (its climax)
        self._climax_words: TextCache = TextCache()
        self._opening: Opening = Opening()                       # the camera's move in
        self._from_tray: dict[int, int] = {}                     # thrown cubes that were in the tray
        self._icons: dict[str, list[Icon]] = {}                  # the panels' cubes
        self._repaint: StageRepaint = StageRepaint()             # what the next frames repaint
        self._counting = False                                   # the counts shown (not the handful)

    # -- geometry -------------------------------------------------------------------------
    def _box(self) -> Box:
        return self.left, self.bottom, self.width, self.height

    def _xf(self) -> tuple[float, float, float]:
        return layout.tower_xf(self.geo, self._box(), self.big)

    def type_scale(self) -> float:
        """The stage's type grows with the view (1 at 1280x800)."""
        return layout.type_scale(self.height)

    def panel_rects(self) -> tuple[Box, Box]:
        """The attacker's panel left of the tower, the defender's right of it."""
        return layout.panel_rects(self.geo, self._box(), self.big)

    def tray_boxes(self) -> tuple[Box, Box]:
        """Each side's tray under its panel (the stage)."""
        return layout.tray_boxes(self.geo, self._box(), self.big)

    @property
    def battle_kind(self) -> BattleKind | None:
        """How the drop in play is counted (None: not a battle); without its result the
        peasants count for no one."""
        d = self.drop
        if d is None or d.sides is None:
            return None
        if self.verdict is not None:
            return self.verdict.battle
        return BattleKind("attack", d.sides[0], d.sides[1], unrest=1)

    def damage_rect(self) -> tuple[int, int, int, int]:
        """What a frame of the animation repaints (the window's partial redraw): where
        cubes can be and the count below (`stage_layout.shaft_rect`; `play` asks for a
        full repaint when the caption changes). A shake's jolt moves the whole drawing, so
        then the whole view."""
        if self.jolt() != (0.0, 0.0) or (self.big and (self._repaint.hand_left or self._repaint.recount
                                                       or self._opening.moving)):
            return int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1
        return layout.shaft_rect(self.geo, self._box(), self.big)

    def damage_rects(self) -> list[tuple[int, int, int, int]]:
        """What a frame of the stage repaints, in pieces (issue 36 item 6: a whole stage
        costs llvmpipe 10-20 ms): the tiles where a cube's drawing changed, where it was
        and is (issue 48: not the whole shaft and tray); the two panels' counts when a cube
        landed; the tiles the handful's cubes cross (where they were and are); the whole
        stage only while the camera moves in and on the frame after."""
        if not self.big or self.jolt() != (0.0, 0.0):
            return [self.damage_rect()]
        if self._opening.moving or self._repaint.whole:
            return [(int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1)]
        return self._repaint.rects(layout.count_rects(self.geo, self._box(), self.big),
                                   held=self._held())

    def _held(self) -> bool:
        """The drop is in its tally's or climax's hold: every cube has landed and nothing
        moves (the frames repaint nothing once the stage is drawn as it is)."""
        d = self.drop
        return self.playing and d is not None and self._clock.pre <= 0 and self._clock.t >= d.end_t

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        jx, jy = self.jolt()
        return ox + x * s + jx, oy + y * s + jy

    def _still(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._xf()
        return ox + x * s, oy + y * s

    @property
    def _layer(self) -> CachedLayer:
        return self._layers[self.big]

    def prepare_stage(self, box: Box) -> None:
        """Draw the stage's table and tower for a stage at `box` now (issue 48: the
        stage's first frame drew them, with its panels, in one 67-159 ms frame): the
        scene calls it while the stage is closed, at its layout; its first frame then
        copies this picture and adds the panels. Also makes the cubes' textures."""
        win = arcade.get_window()
        key = (box, win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0))
        if key == self._art_key:
            return
        s, ox, oy = layout.tower_xf(self.geo, box, True)
        art.draw_stage_art(self._art, self.geo, box, (s, ox, oy))
        self._art_key = key
        warm_cube_textures()

    @property
    def texts(self) -> TextCache:
        """The still picture's words (the column's or the stage's)."""
        return self._texts[self.big]

    def _stage_key(self) -> tuple[object, ...]:
        """What the stage's picture shows: its place and resolution, the sides' panels (or
        the caption of a drop that is not a battle) and the language's words."""
        win = arcade.get_window()
        return (self._box(), win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0), self.sides,
                None if self.sides is not None else self.caption, _("tray"), self._art_key)

    def prepare_sides(self, box: Box, sides: tuple[SideFacts, SideFacts] | None,
                      caption: str = "") -> bool:
        """Draw the stage's picture (table, tower, the sides' panels, the lamp) for a
        battle about to be shown, while the stage is still closed (issue 48: its first
        frame drew it, 120-310 ms), one part a call (the scene calls it once a frame while
        the event before the drop holds: a whole picture was a 75-190 ms frame at
        1920x1080 on llvmpipe): the table and tower if the window changed, then the
        picture's PARTS (`_draw_static`). True when it was whole already (nothing drawn by
        this call): the stage's first frame then only copies it. The column's tower is left as it is (its picture is kept apart).
        `caption`: a drop that is not a battle (the set-up's fill) has no sides, its
        sentence instead."""
        win = arcade.get_window()
        if self._art_key != (box, win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)):
            self.prepare_stage(box)
            return False
        kept = (self.left, self.bottom, self.width, self.height, self.big, self.sides, self.drop,
                self.caption)
        self.left, self.bottom, self.width, self.height = box
        self.big, self.sides, self.drop = True, sides, None
        self.caption = caption if sides is None else self.caption
        try:
            key = self._stage_key()
            if key == self._drawn:
                return True
            part = self._parts[1] if self._parts is not None and self._parts[0] == key else 0
            self._layer.render(box, lambda: self._draw_static(part), clear=part == 0)
            if part + 1 < self.PARTS:
                self._parts = (key, part + 1)
            else:
                self._drawn, self._parts = key, None
            return False
        finally:
            (self.left, self.bottom, self.width, self.height, self.big, self.sides, self.drop,
             self.caption) = kept

    def rebuild(self) -> None:
        if self.big:
            self._parts = None                      # a picture begun in parts is drawn whole
            self.prepare_stage(self._box())         # done already unless the window changed
            key = self._stage_key()
            if key == self._drawn:                  # `prepare_sides` drew it for this battle
                if self.drop is not None and self.drop.gathered < 1.0 and self.sides is not None:
                    self._set_origins()             # from the cubes the panels show
                return
        if not self.big:
            self._prepare_column()
        self._layer.render((self.left, self.bottom, self.width, self.height), self._draw_static)
        self._drawn = self._stage_key() if self.big else self._drawn

    def _prepare_column(self) -> None:
        """The column's tower (its sky, courtyard and pagoda, no cubes) drawn once per
        place and resolution: the column's picture, drawn again whenever its counts or
        tray change and as a battle's stage closes, copies it (issue 48: it drew the
        tower's ~300 shapes each time, 20-35 ms)."""
        win = arcade.get_window()
        box = self._box()
        key = (box, win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0))
        if key != self._column_key:
            self._column_art.render(box, lambda: art.draw_tower(self.geo, box, self._still, self._xf()[0]))
            self._column_key = key

    PARTS = 3           # the stage's picture is drawn in this many parts (`_draw_static`)

    def _draw_static(self, part: int | None = None) -> None:
        """The still picture, whole (`part` None) or one of its PARTS in their drawing
        order (the stage's, one a frame while the stage is closed: `prepare_sides`): the
        table and tower with the trays; the sides' panels; the lamp and the words."""
        if part in (None, 0):
            if self.big:
                self._art.draw(opaque=True)             # `prepare_stage`'s picture
            else:
                self._column_art.draw(opaque=True)      # `_prepare_column`'s picture
            self.texts.begin()
            if not self.big:
                self.texts.put("t", _("Battle tower"), self.left + self.width / 2, self.top - 16, size=10,
                               color=(240, 230, 210), anchor_x="center", bold=True)
                draw_inside_counts(self.texts, self._rest, self._box())
            put_tray_word(self.texts, self.geo, self._still, self.right,
                          13 * self.type_scale() if self.big else theme.SMALLEST_TYPE,
                          (236, 220, 190) if self.big else (40, 30, 22))
            if self.big and self.sides is not None:
                for facts, rect in zip(self.sides, self.tray_boxes()):
                    draw_tray_box(rect, facts.code, self.type_scale())
        if part in (None, 1) and self.big:
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
        if part in (None, 2):
            if self.big:
                art.draw_stage_light(self._box())    # the lamp over it all, under the words
            self.texts.end()
            self.texts.draw()

    def panel_heads(self) -> tuple[float, float]:
        """Where each side's head words (its role, name and province) end on the stage,
        the attacker's and the defender's: the bottom of the lowest (a card laid over a
        panel stays under it). Before the panels are drawn, their top."""
        out = []
        for key, (_l, b, _w, h) in zip(("a", "d"), self.panel_rects()):
            words = [self._texts[True].labels.get((key, part)) for part in ("role", "name", "where")]
            out.append(min((t.bottom for t in words if t is not None), default=b + h))
        return out[0], out[1]

    def tray_word_box(self) -> tuple[float, float, float, float]:
        """The 'tray' word's box (left, bottom, right, top): under the tray's box, on the
        base, never across its edge (issue 37: it was 8 pt across the edge)."""
        t = self.texts.labels.get("tray")
        if t is None:
            return (0.0, 0.0, 0.0, 0.0)
        return (t.left, t.bottom, t.right, t.top)

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

    def set_tray(self, counts: Mapping[str, int] | None) -> None:
        self._tray_counts = dict(counts or {})
        if not self.playing:
            self._place_rest()

    def show_contents(self, wire: Sequence[Sequence[int]] | None) -> None:
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
        return self._clock.frame / len(d.rec.frames) if d is not None and d.rec.frames else 0.0

    @property
    def playback_time(self) -> float:
        """Seconds of the recording shown so far (of the drop playing)."""
        return self._clock.t

    @property
    def stage(self) -> Stage:
        """Where the drop in play is: 'handful', 'pour', 'tally' ('' when none plays)."""
        if not self.playing or self.drop is None:
            return ""
        return self._clock.stage(self.drop.end_t)

    @property
    def slow_motion(self) -> bool:
        """The close battle's last cubes are being shown slowly."""
        return self.stage == "pour" and self.drop is not None and self.drop.pace(self._clock.t) < 1.0

    def play(self, recording: Recording, caption: str = "", sides: tuple[int, int] | None = None,
             handful: float = 0.0, from_tray: dict[int, int] | None = None) -> None:
        """Animate a recorded drop; `from_tray`: how many of the thrown cubes of each
        colour code were lying in the tray (they are gathered from there)."""
        self.drop = DropPlay(recording, self.geo, sides)
        self._from_tray = dict(from_tray or {})
        self._fitted.clear()
        self._clock.start(recording, handful, sides is not None,
                          CLIMAX if self.verdict is not None else 0.0)
        self.out_total = self.drop.out_total
        self.landed = 0
        self._counts = {}
        if caption != self.caption:
            self.caption = caption
            if self.big:
                self.mark_dirty()       # the caption lives in the static layer
            damage()
        self.playing = True
        self._place_trays()
        self._gather_from()
        if handful <= 0:
            self.poured.emit()
        self._show(0.0)

    def _gather_from(self) -> None:
        """Where each thrown cube is gathered from, in tower units: the attacker's from
        its panel (the province's armies), the defender's and the peasants' from theirs,
        the tray's from their places in the tray; none in the small tower."""
        d = self.drop
        if d is None or not self.big or self._clock.pre <= 0:
            if d is not None:
                d.gathered = 1.0
            return
        self._set_origins()
        d.gathered = 0.0

    def _place_trays(self) -> None:
        """On the stage the cubes that count go on from the tower's tray into their
        side's tray under its panel (`stage_trays`), in columns by colour; the rest stay."""
        d, b = self.drop, self.battle_kind
        if d is None or b is None or not self.big:
            return
        s, ox, oy = self._xf()
        k = self.type_scale()
        final = d.tally(d.out_total)
        places: dict[int, tuple[float, float, float]] = {}
        for side, rect in zip(("a", "d"), self.tray_boxes()):
            own = b.attacker if side == "a" else b.defender
            groups = [(own, final.get(own, 0))]
            if own != PEASANT and counted_by(b, PEASANT) == side:
                groups.append((PEASANT, final.get(PEASANT, 0)))
            spots: dict[int, list[tuple[float, float, float]]] = {}
            for code, x, y, size in box_places(rect, groups, k):
                spots.setdefault(code, []).append(((x - ox) / s, (y - oy) / s, size / s))
            seen: dict[int, int] = {}
            for i in d.order:
                c = code_of(d.rec.colours[i])
                if c in spots and counted_by(b, c) == side:
                    j = seen.get(c, 0)
                    seen[c] = j + 1
                    places[i] = spots[c][j]
        d.set_places(places, FLIGHT)

    def _set_origins(self) -> None:
        """The thrown cubes' origins (see `_gather_from`): a side's own from the cubes its
        panel shows (`handful_places`, once the panel is drawn), in their order."""
        d = self.drop
        assert d is not None
        place_origins(d, self.geo, self._xf(), self.panel_rects(), self._icons, self._from_tray)

    def skip(self) -> bool:
        """S: the stage in play ends. During the handful, the pour or the tally every cube
        lands at once and the decision is shown (the climax, held until S again or its
        time is up; the tally where the result is not known); during the climax the drop
        ends. False when no drop was playing."""
        if not self.playing or self.drop is None:
            return False
        if self._clock.pre > 0:
            self._clock.pre = 0.0
            self.drop.gathered = 1.0
            self.poured.emit()
        climax = self._clock.climax
        if self.big and self.drop.sides is not None and self._clock.t < self.drop.end_t:
            self._clock.t = self.drop.end_t
            self._show(self._clock.t)
            if climax > 0:          # every cube landed: on to the decision
                self._clock.post = climax
                self._enter_climax()
            else:
                self._clock.post = max(self._clock.post, TALLY)
            damage()
            return True
        if self.big and self.stage == "tally" and climax > 0:
            self._clock.post = climax           # the tally: on to the decision
            self._enter_climax()
            return True
        self._end_play()
        return True

    def _enter_climax(self) -> None:
        """The decision is shown: the whole stage once (the sides lit and dimmed), the
        cubes the banner would half cover left out (issue 48: one poked out at its edge)."""
        if self.drop is not None:
            self._show(self._clock.t)
        self._repaint.whole = 2
        self.climaxed.emit()
        damage()

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
        for code, x, y, a in self._rest:
            self._put(Pose(code_of(code), x, y, a, float(self.geo["cube"])), xf)
        for code, (x, y, size) in zip(tray, tray_places(self.geo, tray)):
            self._put(Pose(code, x, y, 0.0, size), xf)
        self.cubes.end()

    def _show(self, t: float) -> None:
        """Draw the drop at recording time t and count the cubes that reached the tray."""
        d = self.drop
        assert d is not None, "only while a drop plays"
        xf = self._frame_xf()
        under = self.banner_rect() if self.stage == "climax" else None
        self.cubes.begin()
        for p in d.poses(t, in_hand=True):
            if under is None or not _touches(p, xf, under):
                self._put(p, xf)
        self.cubes.end()
        shaft = layout.shaft_rect(self.geo, self._box(), self.big)
        landed = d.landed_by(t)
        self._repaint.framed(self.big and d.gathered < 1.0,
                             handful_tiles(self.cubes.shown, shaft) if self.big else set(),
                             (self.left, self.bottom, self.right, self.top),
                             landed != self.landed and self.big,
                             box_tiles(self.cubes.changed) if self.big else None)
        counting = self.stage != "handful"
        if self.big and counting and not self._counting:
            self._repaint.recount = 2       # the counts appear as the pour begins
        self._counting = counting
        while self.landed < landed:
            c = code_of(d.rec.colours[d.order[self.landed]])
            self._counts[c] = self._counts.get(c, 0) + 1
            self.landed += 1
            self.cube_landed.emit("peasant" if c == 5 else c)
        f = d.frame_at(t)
        for _shake in range(self._clock.shakes_to_show(sum(1 for k in (d.rec.shakes or ()) if k <= f))):
            self.shaken.emit()
        self._clock.frame = f

    def banner_rect(self) -> Box | None:
        """The climax's banner (None: not drawn)."""
        if not self.big or self.verdict is None:
            return None
        s, ox, _oy = self._xf()
        return banner_rect(self._box(), self.panel_rects(), self.type_scale(),
                           ox + self.geo["width"] / 2 * s)

    def jolt(self) -> tuple[float, float]:
        """The drawing's offset in pixels while the tower is being knocked (a shake)."""
        return self._clock.jolt(self._xf()[0]) if self.playing else (0.0, 0.0)

    def count_text(self) -> str:
        """The tray so far: per side in a battle ("Blue 4 — 3 Orange (and 1 other cube)"),
        else by colour ("Out: 7 Blue, 1 Peasant"), counted as the cubes land."""
        forms = self.count_forms()
        return forms[0] if forms else ""

    def count_forms(self) -> list[str]:
        """The tray's count, longest first: in full; without the cubes of neither side;
        with the sides' colours for the players' names (a narrow battle view)."""
        if not self.playing:
            return []
        d = self.drop
        return count_forms(self._counts, d.sides if d is not None else None)

    def _end_play(self) -> None:
        d = self.drop
        assert d is not None
        self._clock.t = d.end_t
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
        if self._opening.moving:
            if not self._opening.advance(dt * self.speed):
                return
            self._repaint.opened()
        if self._clock.pre > 0:
            self._clock.pre -= dt * self.speed
            d.gathered = 1.0 - max(0.0, self._clock.pre) / max(1e-6, self._clock.handful)
            self._show(self._clock.t)
            if self._clock.pre <= 0:
                self.poured.emit()
            return
        if self._clock.t >= d.end_t:                      # the tally holds, then the climax
            before = self.stage
            self._repaint.held()
            self._clock.post -= dt * self.speed
            if self._clock.post <= 0:
                self._end_play()
            elif before == "tally" and self.stage == "climax":
                self._enter_climax()
            return
        jolting = self.jolt() != (0.0, 0.0)
        self._clock.t = min(d.end_t, self._clock.t + dt * self.speed * self._clock.rate * d.pace(self._clock.t))
        self._show(self._clock.t)
        if jolting and self.jolt() == (0.0, 0.0):
            damage()                # the jolt is over: the whole view back in its place
        if self._clock.t >= d.end_t and self._clock.post <= 0:
            self._end_play()

    def on_layout(self) -> None:
        if self.playing and self.drop is not None:
            self._show(self._clock.t)
        else:
            self._place_rest()

    def open_from(self, point: tuple[float, float] | None,
                  backdrop: CachedLayer | None = None, sea: Sea | None = None) -> None:
        """The camera moves in from this point of the window (the province fought over)
        to the stage: the board (`backdrop`: its cached picture; `sea`: its open sea)
        zooms in on the province, and the stage grows out of it to the whole view
        (`stage_opening`)."""
        self._opening.start(point, backdrop, self.big, sea)

    @property
    def opening(self) -> float:
        """The stage's opening so far (0 to 1; 1: open)."""
        return self._opening.progress

    def opening_rect(self) -> Box:
        """Where the stage is drawn while the camera moves in (the whole view once open)."""
        return self._opening.stage_rect(self._box())

    def on_draw(self) -> None:
        if self.big and self._opening.moving and self._opening.opened_from is not None:
            self._opening.draw(self._box(), self._layer, self.cubes)
            return
        self._draw_scene()

    def _draw_scene(self) -> None:
        jx, jy = self.jolt()
        if (jx or jy) and self._layer.surface is not None and self._layer.rect is not None:
            arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (34, 30, 44))
            l, b = self._layer.rect[:2]
            self._layer.surface.position = (l + jx, b + jy)
            self._layer.draw(opaque=True)
            self._layer.surface.position = (l, b)
        else:               # the picture only where the frame repaints (not the whole box)
            each_rect(lambda: self._layer.draw(opaque=True))
        self.cubes.draw()
        if self.playing and (self.caption or self.big) and not self._panels_clipped():
            self._draw_words()
        if self.big and self.verdict is not None and self.stage == "climax":
            s, ox, oy = self._xf()
            draw_climax(self._climax_words, self.verdict, self.panel_rects(), self.tray_boxes(),
                        self._box(), self.type_scale(), ox + self.geo["width"] / 2 * s)

    def _panels_clipped(self) -> bool:
        """A partial repaint that misses the panels' counts (the window's scissor on the
        shaft or a tile of the handful): they are not drawn (their textures and text cost
        a software renderer even when clipped)."""
        return self.big and scissor_misses(layout.count_rects(self.geo, self._box(), self.big))

    def totals(self) -> tuple[int, int] | None:
        """The battle's totals so far, counted as the rules count them (`battle_totals`:
        the peasants in the side they count for; None: not a battle)."""
        b = self.battle_kind
        return None if b is None else battle_totals(b, self._counts)

    def _draw_words(self) -> None:
        """The live count (each side's, in its panel, in large type; the stage) or the
        caption (the thrown handful in a sentence; the small tower)."""
        self._words.begin()
        if self.big:
            totals, b = self.totals(), self.battle_kind
            if totals is not None and b is not None and self.sides is not None \
                    and self.stage != "handful":
                won = self.verdict.winner if self.verdict is not None and self.stage == "climax" else None
                for key, code, n, rect in zip(("a", "d"), (b.attacker, b.defender), totals,
                                              self.tray_boxes()):
                    p = self._counts.get(PEASANT, 0) if code != PEASANT and counted_by(b, PEASANT) == key else 0
                    draw_box_count(self._words, key, rect, code, n, p, self.type_scale(),
                                   None if won is None else won == key)
        else:
            arcade.draw_lbwh_rectangle_filled(self.left + 4, self.top - 44, self.width - 8, 20, (30, 25, 20, 200))
            self._words.put("c", self.caption, self.left + self.width / 2, self.top - 39, size=9,
                            color=(255, 240, 200), anchor_x="center")
        self._words.end()
        self._words.draw()

