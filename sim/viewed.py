"""One step of the game with the public view after each event it emits: what a table
shows while it plays the step's events one by one.

Why: without it the window re-derives the board between two engine states by patching a
copy per event (armies moved, survivors, buildings cleared), a second, unchecked copy of
the rules' consequences; events alone cannot rebuild it. Here the engine itself says
what the public state was when each event was emitted (the rules emit an event once its
change is made), so a display has nothing to re-derive.

Pure and deterministic like `apply`, and the same step: the state and the events are
those `apply` returns (the log, its hashes and the game's signatures are untouched); only
the views are added. It costs one `public_state` per event, so only a display asks for
it: `apply` stays as it is (benchmarks/bench_engine.py prints both rates).

Tests: tests/sim/test_viewed.py.
"""

from __future__ import annotations

from sim import legal
from sim.commands import Command
from sim.events import Event, Events
from sim.game import play
from sim.snapshot import PublicState, public_state
from sim.state import State


class _Viewed(list[Event]):
    """The step's events as the rules append them, each with the public state of `s` at
    that moment. The rules only ever `append` (a step checks the two lists agree)."""

    def __init__(self, s: State) -> None:
        super().__init__()
        self._s = s
        self.views: list[PublicState] = []

    def append(self, event: Event) -> None:
        super().append(event)
        self.views.append(public_state(self._s))


def apply_viewed(state: State, command: Command) -> tuple[State, Events, list[PublicState]]:
    """`apply(state, command)` and, for each event of the step, the public view right
    after it was emitted. Raises IllegalCommand; `state` is untouched."""
    legal.check(state, command)
    s = state.copy()
    recorder = _Viewed(s)
    play(s, command, recorder)
    if len(recorder.views) != len(recorder):
        raise AssertionError("a rule added events without append(): its views are missing")
    return s, list(recorder), recorder.views
