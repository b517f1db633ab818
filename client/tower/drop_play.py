"""One recorded drop as a timeline: where every cube is at a moment of the recording, in
tower units, with no drawing in it (the tower view and the film draw from it; tests read
it without a window).

The stages of a battle's drop (issue 28 item 3): the **handful** (the thrown cubes shown
beside the tower's mouth, grouped by side, before the pour), the **pour** (the recorded
frames; a cube still in hand stays in the hand until the recording lets it in), the
**slides** (a cube that left slides from the exit into its tray place and is counted when
it gets there: the running tally), and the **tally** held at the end. When the battle is
close (the sides' counts end at most one apart), the last side cubes to come out are shown
in slow motion (`slow_window`).

Tests: tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.tower.drop import Recording

TRAY_COLS = 5
SLIDE = 0.45           # recorded seconds a cube takes from the exit to its tray place
HOLD = 0.35            # recorded seconds the landed tray stays before the tally hold
SLOW = 0.35            # the pace of the slow motion, against normal
HAND_COLS = 5          # cubes in a row of the handful


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


def code_of(colour: int | str) -> int:
    return 5 if colour in ("peasant", 5) else int(colour)


def tray_slot(geo: dict[str, Any], k: int, n: int = 0) -> tuple[float, float, float]:
    """Where the k-th of n cubes lies in the tray, and its drawn size (a full tray packs
    the cubes smaller so that they stay inside the tray's walls)."""
    room = geo["tray_end"] - geo["width"] - 8
    cols = max(TRAY_COLS, -(-n // 3))
    size = min(10.0, room / cols - 0.6)
    step = size + 0.6
    w, end = geo["width"], geo["tray_end"]
    x = w + 4 + step / 2 + (k % cols) * step
    floor = geo["exit"]["y0"] * (1 - (x - w) / max(1, end - w))   # the sloping tray
    return x, floor + 2 + size / 2 + (k // cols) * step, size


HAND_CUBE = 11.0       # the handful's cubes are drawn a little larger than life


def hand_slot(geo: dict[str, Any], k: int) -> tuple[float, float]:
    """The k-th cube of the handful: rows of HAND_COLS right of the tray's far wall, from
    the tower's top down (the battle view keeps that room free: `HAND_ROOM`)."""
    step = HAND_CUBE + 1.5
    x = geo["tray_end"] + 10 + step / 2 + (k % HAND_COLS) * step
    return x, geo["top"] - 4 - (k // HAND_COLS) * step


HAND_ROOM = 10 + HAND_COLS * (HAND_CUBE + 1.5) + 4     # tower units right of the tray


class DropPlay:
    """The timeline of one recorded drop; `sides` = (attacker, defender) colour codes of
    a battle (5 = peasants), or None for a drop that is not a battle (the tower's fill)."""

    def __init__(self, rec: Recording, geo: dict[str, Any],
                 sides: tuple[int, int] | None = None) -> None:
        self.rec = rec
        self.geo = geo
        self.sides = sides
        self.exits: dict[int, int] = {i: e for i, e in enumerate(rec.exited) if e is not None}
        self.order = sorted(self.exits, key=lambda i: (self.exits[i], i))
        self.slot = {i: j for j, i in enumerate(self.order)}
        self.out_total = len(self.order)
        self.start = {i: self._last_pose(i, self.exits[i]) for i in self.order}
        self.end_t = max([len(rec.frames) / rec.fps]
                         + [self.exits[i] / rec.fps + SLIDE for i in self.order]) + HOLD
        thrown = [i for i in range(rec.inside_before, len(rec.colours))]
        rank = {c: k for k, c in enumerate(sides or ())}
        self.hand = {i: k for k, i in enumerate(
            sorted(thrown, key=lambda i: (rank.get(code_of(rec.colours[i]), 9), rec.colours[i], i)))}
        self.slow_window = self._slow_window()

    # -- what comes out -------------------------------------------------------------------
    def landed_by(self, t: float) -> int:
        """How many cubes have reached the tray by recording time t."""
        return sum(1 for i in self.order if t >= self.exits[i] / self.rec.fps + SLIDE)

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
        return max(0.0, t0), self.exits[mine[-1]] / self.rec.fps + SLIDE

    def pace(self, t: float) -> float:
        """How fast the recording runs at time t, against normal (slow in the window)."""
        w = self.slow_window
        return SLOW if w is not None and w[0] <= t <= w[1] else 1.0

    # -- where the cubes are --------------------------------------------------------------
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
                hx, hy = hand_slot(self.geo, self.hand[i])
                out.append(Pose(code_of(rec.colours[i]), hx, hy, 0.0, HAND_CUBE, True))
        for i in self.order:
            te = self.exits[i] / rec.fps
            if t < te:
                continue
            tx, ty, size = tray_slot(self.geo, self.slot[i], self.out_total)
            u = min(1.0, (t - te) / SLIDE)
            code = code_of(rec.colours[i])
            if u >= 1.0:
                out.append(Pose(code, tx, ty, 0.0, size))
                continue
            x0, y0, a0 = self.start[i]
            ease = u * u                           # gathers speed down the slope
            hop = math.sin(u * math.pi) * 3        # and tumbles a little
            out.append(Pose(code, x0 + (tx - x0) * ease, y0 + (ty - y0) * ease + hop,
                            a0 * (1 - u) + u * math.pi * 0.5, cube + (size - cube) * u,
                            i >= rec.inside_before))
        return out

    def resting(self) -> list[tuple[int, float, float, float]]:
        """The cubes inside after the drop: colour code, x, y, angle."""
        last = self.rec.frames[-1]
        return [(code_of(self.rec.colours[i]), *p) for i, p in enumerate(last) if p is not None]
