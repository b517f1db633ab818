"""One recorded drop as a timeline: where every cube is at a moment of the recording, in
tower units, with no drawing in it (the tower view and the film draw from it; tests read
it without a window).

The stages of a battle's drop (issues 28 and 36): the **handful** (the thrown cubes are
gathered from where they come from, the province's side panel and the tray, and carried
to the tower's top: `gathered`), the **pour** (the recorded frames; a cube still in hand
waits in a short queue above its entry slot until the recording lets it in), the
**slides** (a cube that left slides from the exit into its tray place and is counted when
it gets there: the running tally), and the **tally** held at the end. In the tray the
cubes are sorted by colour into columns of COLUMN (`tray_places`: the sides' colours
first), so a count can be read off the tray. When the battle is
close (the sides' counts end at most one apart), the last side cubes to come out are shown
in slow motion (`slow_window`).

Tests: tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData
    from sim.tower.drop import Recording

TRAY_COLS = 5
SLIDE = 0.45           # recorded seconds a cube takes from the exit to its tray place
HOLD = 0.35            # recorded seconds the landed tray stays before the tally hold
SLOW = 0.35            # the pace of the slow motion, against normal
ROOM_ABOVE = 18.0      # tower units above the lid a waiting cube may reach (the stage shows 20)


@dataclass(frozen=True)
class Pose:
    """A cube to draw, in tower units (y up, angle counter-clockwise in radians) or, for
    the sprites, in window pixels; `thrown`: one of this drop's cubes (it glows)."""
    code: int
    x: float
    y: float
    angle: float
    size: float
    thrown: bool = False
    moving: bool = False       # on its way out of the tower (the stage repaints where it goes)


def code_of(colour: int | str) -> int:
    return 5 if colour in ("peasant", 5) else int(colour)


COLUMN = 5             # cubes in a column of the tray (counted in fives, as by hand)
GROUP_GAP = 2.5        # tower units between two colours' columns


def tray_places(geo: GeometryData, codes: list[int], sides: tuple[int, int] | None = None
                ) -> list[tuple[float, float, float]]:
    """Where each of these cubes (colour codes, in landing order) lies in the tray, and
    its drawn size: sorted by colour into columns of COLUMN, the sides' colours first, the
    k-th cube of a colour on its colour's k-th place, so the columns grow as cubes land.
    A crowded tray packs the cubes smaller to keep them inside its walls."""
    rank = {c: k for k, c in enumerate(sides or ())}
    counts: dict[int, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    order = sorted(counts, key=lambda c: (rank.get(c, 9), c))
    w, end = float(geo["width"]), float(geo["tray_end"])
    room = end - w - 8
    rows = max(COLUMN, -(-max(1, len(codes)) // 8))
    cols = {c: -(-counts[c] // rows) for c in order}
    n_cols = sum(cols.values())
    gaps = GROUP_GAP * max(0, len(order) - 1)
    size = min(10.0, (room - gaps) / max(1, n_cols) - 0.6)
    step = size + 0.6
    first: dict[int, float] = {}
    x = w + 4 + step / 2
    for c in order:
        first[c] = x
        x += cols[c] * step + GROUP_GAP
    seen: dict[int, int] = {}
    out = []
    for c in codes:
        k = seen.get(c, 0)
        seen[c] = k + 1
        cx = first[c] + (k // rows) * step
        floor = geo["exit"]["y0"] * (1 - (cx - w) / max(1.0, end - w))   # the sloping tray
        out.append((cx, floor + 2 + size / 2 + (k % rows) * step, size))
    return out


def group_tops(geo: GeometryData, codes: list[int], sides: tuple[int, int] | None = None
               ) -> dict[int, tuple[float, float]]:
    """Each colour's place above its columns in the tray (its count is written there)."""
    places = tray_places(geo, codes, sides)
    tops: dict[int, tuple[float, float, float]] = {}
    for c, (x, y, size) in zip(codes, places):
        x0, x1, top = tops.get(c, (x, x, y))
        tops[c] = (min(x0, x), max(x1, x), max(top, y + size / 2))
    return {c: ((x0 + x1) / 2, top) for c, (x0, x1, top) in tops.items()}


class DropPlay:
    """The timeline of one recorded drop; `sides` = (attacker, defender) colour codes of
    a battle (5 = peasants), or None for a drop that is not a battle (the tower's fill)."""

    def __init__(self, rec: Recording, geo: GeometryData,
                 sides: tuple[int, int] | None = None) -> None:
        self.rec = rec
        self.geo = geo
        self.sides = sides
        self.exits: dict[int, int] = {i: e for i, e in enumerate(rec.exited) if e is not None}
        self.order = sorted(self.exits, key=lambda i: (self.exits[i], i))
        self.out_total = len(self.order)
        places = tray_places(geo, [code_of(rec.colours[i]) for i in self.order], sides)
        self.place = {i: places[j] for j, i in enumerate(self.order)}
        self.slide = {i: SLIDE for i in self.order}       # recorded seconds to its place
        self.start = {i: self._last_pose(i, self.exits[i]) for i in self.order}
        self.end_t = self._end()
        thrown = [i for i in range(rec.inside_before, len(rec.colours))]
        rank = {c: k for k, c in enumerate(sides or ())}
        self.hand = {i: k for k, i in enumerate(
            sorted(thrown, key=lambda i: (rank.get(code_of(rec.colours[i]), 9), rec.colours[i], i)))}
        self.slow_window = self._slow_window()
        self.origins: dict[int, tuple[float, float]] = {}   # where each thrown cube is gathered from
        self.gathered = 1.0        # the handful's way from its origins to the top (0 to 1)
        self._queue = self._entry_queue()

    def _end(self) -> float:
        return max([len(self.rec.frames) / self.rec.fps]
                   + [self.exits[i] / self.rec.fps + self.slide[i] for i in self.order]) + HOLD

    def set_places(self, places: dict[int, tuple[float, float, float]], flight: float) -> None:
        """Some cubes go on past the tower's tray to these places (tower units: a side's
        tray on the stage, `stage_trays`), taking `flight` recorded seconds more."""
        for i, place in places.items():
            if i in self.place:
                self.place[i] = place
                self.slide[i] = SLIDE + flight
        self.end_t = self._end()
        self.slow_window = self._slow_window()

    # -- what comes out -------------------------------------------------------------------
    def landed_by(self, t: float) -> int:
        """How many cubes have reached their place by recording time t."""
        return sum(1 for i in self.order if t >= self.exits[i] / self.rec.fps + self.slide[i])

    def tally(self, landed: int) -> dict[int, int]:
        """The first `landed` cubes out, counted by colour code."""
        out: dict[int, int] = {}
        for i in self.order[:landed]:
            c = code_of(self.rec.colours[i])
            out[c] = out.get(c, 0) + 1
        return out

    def close(self) -> bool:
        """A close battle: the sides' final counts are at most one apart."""
        if self.sides is None:
            return False
        t = self.tally(self.out_total)
        a, d = (t.get(c, 0) for c in self.sides)
        return a + d >= 2 and abs(a - d) <= 1

    def _slow_window(self) -> tuple[float, float] | None:
        """Recording times between which a close battle's last two side cubes come out."""
        if not self.close() or self.sides is None:
            return None
        mine = [i for i in self.order if code_of(self.rec.colours[i]) in self.sides][-2:]
        t0 = self.exits[mine[0]] / self.rec.fps - 0.15
        return max(0.0, t0), self.exits[mine[-1]] / self.rec.fps + self.slide[mine[-1]]

    def pace(self, t: float) -> float:
        """How fast the recording runs at time t, against normal (slow in the window)."""
        w = self.slow_window
        return SLOW if w is not None and w[0] <= t <= w[1] else 1.0

    # -- where the cubes are --------------------------------------------------------------
    def _entry_queue(self) -> dict[int, tuple[float, float, int]]:
        """Each thrown cube's entry point (its first recorded pose) and its place in the
        queue of cubes that enter at the same slot (0: the first to go in)."""
        rec = self.rec
        out: dict[int, tuple[float, float, int]] = {}
        slots: dict[int, int] = {}
        thrown = [i for i in range(rec.inside_before, len(rec.colours)) if rec.entered[i] is not None]
        for i in sorted(thrown, key=lambda i: (rec.entered[i] or 0, i)):
            e = rec.entered[i]
            assert e is not None
            p = rec.frames[min(e, len(rec.frames) - 1)][i] or (self.geo["width"] / 2, self.geo["top"] - 20, 0.0)
            slot = int(round(p[0] / 10))
            out[i] = (p[0], p[1], slots.get(slot, 0))
            slots[slot] = slots.get(slot, 0) + 1
        return out

    def waiting_place(self, i: int, f: int) -> tuple[float, float]:
        """A thrown cube not in yet at frame f: in the queue above its entry point, moving
        down as those before it go in (the handful poured in at the top, not parked)."""
        rec = self.rec
        x, y, rank = self._queue.get(i, (self.geo["width"] / 2, self.geo["top"] - 20, 0))
        ahead = sum(1 for j, (_x, _y, r) in self._queue.items()
                    if r < rank and abs(_x - x) < 5 and (rec.entered[j] or 0) > f)
        # a heap no higher than the stage's top (issue 48: a long queue rose over the
        # window's top bar): its columns side by side above the slot
        cube = float(self.geo["cube"])
        step, ceiling = cube + 1.0, float(self.geo["top"]) + ROOM_ABOVE - cube / 2
        rows = max(1, int((ceiling - (y + 4)) // step))
        row, col = ahead % rows, ahead // rows
        shift = ((col + 1) // 2) * 6.0 * (-1 if col % 2 else 1)
        return x + shift, min(ceiling, y + 4 + (row + 1) * step)

    def _in_hand(self, i: int, f: int) -> tuple[float, float]:
        """Where a thrown cube not yet in is drawn: on its way from its origin (while the
        handful is gathered), then in the queue at the top."""
        to = self.waiting_place(i, f)
        src = self.origins.get(i)
        if src is None or self.gathered >= 1.0:
            return to
        k = self.hand.get(i, 0)
        u = min(1.0, max(0.0, self.gathered * 1.6 - k * 0.6 / max(1, len(self.hand))))
        e = u * u * (3 - 2 * u)                                   # eased
        lift = math.sin(u * math.pi) * 40.0                       # an arc, as thrown
        return src[0] + (to[0] - src[0]) * e, src[1] + (to[1] - src[1]) * e + lift

    def frame_at(self, t: float) -> int:
        return max(0, min(len(self.rec.frames) - 1, int(t * self.rec.fps)))

    def _last_pose(self, i: int, e: int) -> tuple[float, float, float]:
        """Cube i's pose on the frame before it left (where its slide starts)."""
        frames = self.rec.frames
        for f in range(min(e, len(frames)) - 1, -1, -1):
            p = frames[f][i]
            if p is not None:
                return p
        return (self.geo["width"], self.geo["exit"]["y0"] + 5, 0.0)

    def poses(self, t: float, in_hand: bool = False) -> list[Pose]:
        """Every cube at recording time t; `in_hand`: cubes not yet in the tower are drawn
        in the handful beside it (the handful stage and the pour)."""
        rec, cube = self.rec, float(self.geo["cube"])
        f = self.frame_at(t)
        frame = rec.frames[f]
        out: list[Pose] = []
        for i, p in enumerate(frame):
            thrown = i >= rec.inside_before
            if p is not None:
                out.append(Pose(code_of(rec.colours[i]), p[0], p[1], p[2], cube, thrown))
            elif in_hand and thrown and ((entered := rec.entered[i]) is None or f < entered):
                hx, hy = self._in_hand(i, f)
                out.append(Pose(code_of(rec.colours[i]), hx, hy, 0.0, cube, True))
        for i in self.order:
            te = self.exits[i] / rec.fps
            if t < te:
                continue
            tx, ty, size = self.place[i]
            u = min(1.0, (t - te) / self.slide[i])
            code = code_of(rec.colours[i])
            if u >= 1.0:            # at rest; just arrived, still repainted where it lies
                out.append(Pose(code, tx, ty, 0.0, size, False, t - te < self.slide[i] + 0.1))
                continue
            x0, y0, a0 = self.start[i]
            far = math.hypot(tx - x0, ty - y0)
            ease = u * u if far < 80 else u * u * (3 - 2 * u)   # down the slope / thrown on
            hop = math.sin(u * math.pi) * (3 + 0.25 * max(0.0, far - 40))   # an arc, as tossed
            out.append(Pose(code, x0 + (tx - x0) * ease, y0 + (ty - y0) * ease + hop,
                            a0 * (1 - u) + u * math.pi * 0.5, cube + (size - cube) * u,
                            i >= rec.inside_before, True))
        return out

    def resting(self) -> list[tuple[int, float, float, float]]:
        """The cubes inside after the drop: colour code, x, y, angle."""
        last = self.rec.frames[-1]
        return [(code_of(self.rec.colours[i]), *p) for i, p in enumerate(last) if p is not None]
