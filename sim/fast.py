"""Applying commands for look-ahead: the rules of `sim.game.apply`, fewer guarantees.

Why: a search bot applies tens of thousands of commands per decision to states nobody
else sees. Both functions here call `sim.game.play`, the very body of `apply` (so the
rules cannot drift apart), but skip the legality check (their callers only apply
commands the bots built from `sim.legal`'s rules) and throw the events away (the
costliest are not even built: `sim.events.Unrecorded`).
`sim.game.apply` remains the only way the real game moves.

Tests: tests/sim/test_fast.py.
"""

from __future__ import annotations

from sim.commands import Command
from sim.events import Unrecorded
from sim.game import play
from sim.state import State


def advance_apply(state: State, command: Command) -> State:
    """`apply(state, command)[0]` without the check and the events; `state` untouched."""
    s = state.copy()
    advance_in_place(s, command)
    return s


def advance_in_place(s: State, command: Command) -> None:
    """Apply `command` to `s` itself: for a look-ahead that owns its state (no copy per
    command, which is most of `apply`'s cost in a rollout; and `Unrecorded` events, which
    spare the rules their costliest records, as nobody reads them)."""
    play(s, command, Unrecorded())
