"""Whether the tower lesson's pour has been watched: every frame of it at normal speed
(or slower), in view (no card over the tower or the tray, no rules or question over the
stage), not skipped. The coach (`coach.py`) feeds it one frame at a time and ends the
tower step only once it says so; a pour that was not watched whole is played once more.

Why its own record: the rule "the lesson cannot be finished without the pour having
played at normal speed in view" (issue 48) is a decision over a few facts per frame, kept
apart from the window so the tests can read what it decided and why.

Tests: tests/client/tutorial/test_pour_lesson.py, tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from dataclasses import dataclass

NORMAL_SPEED = 1.0


@dataclass
class PourWatch:
    """One drop's pour as the player saw it. `frames`: frames of the pour seen at normal
    speed in view; `missed`: frames of it that were not (too fast, hidden, skipped);
    `over`: the pour has ended (the tally, the climax or the drop's end came)."""

    frames: int = 0
    missed: int = 0
    over: bool = False
    _pouring: bool = False

    def frame(self, stage: str, speed: float, in_view: bool, skipped: bool = False) -> None:
        """A frame of the stage: `stage` is the tower's ('handful', 'pour', 'tally',
        'climax'; '' when no drop plays), `speed` the pace it played at, `in_view`
        whether the tower and the tray were in sight, `skipped` whether the drop jumped
        ahead in this frame."""
        if stage == "pour":
            self._pouring = True
            if speed <= NORMAL_SPEED and in_view and not skipped:
                self.frames += 1
            else:
                self.missed += 1
        elif self._pouring or (skipped and stage in ("tally", "climax", "")):
            if skipped:
                self.missed += 1
            self.over = True
            self._pouring = False

    @property
    def watched(self) -> bool:
        """The whole pour was played at normal speed in view."""
        return self.over and self.frames > 0 and self.missed == 0

    @property
    def needs_replay(self) -> bool:
        """The pour is over, but the player did not see all of it."""
        return self.over and not self.watched
