"""Which tutorial step is due, followed from what the game asks and plays; no window.

Why apart from the coach: the same rules decide when a step is shown in the window and
in the tests that play the scripted game headless, so the tests check what the player
sees. A step is shown when its trigger happens (a decision the game asks of the player,
an event played) and the steps before it have been shown; when the game reaches a later
step's trigger first (the player chose otherwise: no battle of their own, no revolt),
the steps in between are passed over and listed in `missed`, except a step that may
come at any time (the tower lesson: the first battle may be the player's own, after the
Battle-or-move step), which waits for its trigger until the closing step. A decision step
ends when the decision has been answered; an event step when the player presses Next.

Tests: tests/client/tutorial/test_progress.py, tests/client/tutorial/test_script.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from client.core.played import Played, as_kind, kind_of
from client.tutorial.script import STEPS, Step
from sim import events as ev
from sim.state import DecisionKind


class TutorialProgress:
    """The steps shown so far, the one on show, and the next one due."""

    def __init__(self, steps: Sequence[Step] = STEPS) -> None:
        self.steps = tuple(steps)
        self.due = 0                         # index of the next step not shown yet
        self.current: Step | None = None     # the step on show
        self.shown: list[str] = []           # keys, in the order they were shown
        self.missed: list[str] = []          # keys passed over (their trigger never came)
        self.waiting: list[int] = []         # passed over, but shown when their trigger comes
        self.skipped = False                 # the player skipped the rest of the tutorial

    @property
    def finished(self) -> bool:
        return self.skipped or (self.current is None and self.due >= len(self.steps))

    def answered(self, kind: DecisionKind | str | None) -> bool:
        """The game asks the player `kind` now (None: nothing): a decision step whose
        decision is no longer asked has been answered and ends (True). Called before the
        events played since, so that those events are not taken for the player's."""
        cur = self.current
        if cur is not None and cur.trigger.decision is not None and cur.trigger.decision != kind:
            self.current = None
            return True
        return False

    def decision_asked(self, kind: DecisionKind | str | None) -> Step | None:
        """The game asks the player `kind` now (None: nothing is asked of them). Ends a
        decision step whose decision has been answered; returns a step newly shown."""
        self.answered(kind)
        if self.current is not None or kind is None:
            return None
        return self._reach(lambda s: s.trigger.decision is not None and s.trigger.decision == kind)

    def event_played(self, event: Played, more_of_kind: bool = False) -> Step | None:
        """An event has been played on the table (`more_of_kind`: another of its kind
        follows in the same batch); returns a step newly shown. A trigger's `reason` is a
        tower drop's."""
        if self.current is not None and self.current.trigger.decision is not None:
            return None                      # the player is answering: events wait
        name = kind_of(event)
        dropped = as_kind(event, ev.TowerDropped)
        reason = dropped["reason"] if dropped is not None else None
        return self._reach(lambda s: s.trigger.event == name and
                           (not s.trigger.reason or s.trigger.reason == reason) and
                           (not s.trigger.year or s.trigger.year == event.get("year")) and
                           not (s.trigger.last and more_of_kind),
                           replace_current=True)

    def _reach(self, matches: Callable[[Step], bool], replace_current: bool = False) -> Step | None:
        if self.skipped or (self.current is not None and not replace_current):
            return None
        for i in self.waiting:
            if matches(self.steps[i]):
                self.waiting.remove(i)
                return self._shown(i)
        for i in range(self.due, len(self.steps)):
            if matches(self.steps[i]):
                for j in range(self.due, i):
                    if self.steps[j].any_time:
                        self.waiting.append(j)
                    else:
                        self.missed.append(self.steps[j].key)
                self.due = i + 1
                if self.due >= len(self.steps):      # the closing step: no more waiting
                    self.missed.extend(self.steps[j].key for j in self.waiting)
                    self.waiting = []
                return self._shown(i)
        return None

    def _shown(self, i: int) -> Step:
        s = self.steps[i]
        self.current = s
        self.shown.append(s.key)
        return s

    def next(self) -> None:
        """The player pressed Next: the step on show is done."""
        self.current = None

    def skip(self) -> None:
        """The player skipped the tutorial: no step is shown any more."""
        self.current = None
        self.skipped = True
