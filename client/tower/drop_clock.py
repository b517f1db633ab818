"""A drop's clock as it plays (issue 36: the pour in real time): the handful's real
seconds before the pour, the recording's own time (run faster for long drops, never
slower, but in a close battle's slow motion), the tally held after the last cube, and a
shake's jolt. At speed 1 a drop plays in about REAL_SECONDS (a real pour takes a second
or two).

Tests: tests/client/tower/test_cubes.py, tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from sim.tower.drop import Recording

Stage = Literal["", "handful", "pour", "tally", "climax"]    # where a drop is ('': none plays)
REAL_SECONDS = 5.0     # a drop plays in real time up to this long (issue 36: the pour in real time)
MAX_RATE = 4.0         # at most this many recorded seconds per second at speed 1
JOLT = 0.3             # recorded seconds a shake's jolt lasts
TALLY = 1.0            # real seconds (at speed 1) a battle's tally stays after the last cube
CLIMAX = 2.2           # then the decision (issue 48): the totals, the banner, the sting, held


class DropClock:
    def __init__(self) -> None:
        self.t: float = 0.0             # recorded seconds shown so far
        self.pre: float = 0.0           # real seconds of the handful still to show
        self.handful: float = 0.0       # real seconds the handful takes in all
        self.post: float = 0.0          # real seconds of the tally and climax still to hold
        self.climax: float = 0.0        # real seconds the climax takes (0: none, not a battle)
        self.rate: float = 1.0          # recorded seconds per real second (before the pace)
        self.jolt_t: float = -1.0       # when the last shake's jolt began (-1: none yet)
        self.shook: int = 0             # the recording's shakes shown so far
        self.frame: int = -1            # the recorded frame shown last

    def start(self, recording: Recording, handful: float, battle: bool,
              climax: float = 0.0) -> None:
        """A new drop: `handful` real seconds of gathering first; a battle's tally holds,
        then its climax (`climax` real seconds; 0: the battle's result is not known)."""
        dur = len(recording.frames) / recording.fps
        self.rate = min(MAX_RATE, max(1.0, dur / REAL_SECONDS))
        self.t = 0.0
        self.pre = self.handful = handful
        self.climax = climax if battle else 0.0
        self.post = TALLY + self.climax if battle else 0.0
        self.frame = -1
        self.shook = 0
        self.jolt_t = -1.0

    def stage(self, end_t: float) -> Stage:
        """Where the drop is, `end_t` its last recorded moment."""
        if self.pre > 0:
            return "handful"
        if self.t < end_t:
            return "pour"
        return "climax" if 0 < self.climax and self.post <= self.climax else "tally"

    def shakes_to_show(self, shakes: int) -> int:
        """The recording has reached this many shakes: how many are new (each jolts
        from now)."""
        new = max(0, shakes - self.shook)
        if new:
            self.jolt_t = self.t
            self.shook = shakes
        return new

    def jolt(self, scale: float) -> tuple[float, float]:
        """The drawing's offset in pixels while the tower is being knocked (a shake);
        `scale`: the tower's pixels per unit."""
        if self.jolt_t < 0:
            return 0.0, 0.0
        u = (self.t - self.jolt_t) / JOLT
        if u >= 1.0:
            return 0.0, 0.0
        a = 4.0 * scale * (1 - u)
        return a * math.sin(u * 9 * math.pi), 0.4 * a * math.cos(u * 7 * math.pi)
