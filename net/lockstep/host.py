"""What the lockstep needs from the peer it runs in: one declared interface, `LockstepHost`.

Why one Protocol handed to the constructor, not eleven callbacks set afterwards: a reader
following a message (a locked plan, say) from the lockstep to the network finds every
way out of it here, in one place, and mypy checks that the host fills them all. It is
Twisted's `BoxDispatcher(locator)`: the dispatcher is given whom it reports to when it is
built. The table's host is `net.table.play.Play`; a lockstep without a table (tests, a
replay) takes `QuietHost`.

The parts of the lockstep (their views of the core: `net.lockstep.core_view`) reach the host through
`core.host`, read at call time: a test may put another host in its place mid-game.

Tests: tests/net/lockstep/test_core.py (through `tests/net/mesh_harness.py`'s host).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from net.lockstep.engine import EngineEvent, EngineState, PendingDecision
from net.lockstep.step_inbox import Wire


class LockstepHost(Protocol):
    """The lockstep's way out: the network, the seat's key, the player and the save."""

    def broadcast(self, msg: Wire) -> None:
        """Send one of my messages to every player."""

    def sign(self, msg: Wire) -> Wire:
        """My seat's signature on a message I originate."""

    def verify(self, seat: int, msg: Wire) -> bool:
        """Whether `msg` carries `seat`'s signature."""

    def cheated(self, seat: int, first: Mapping[str, object] | None,
                second: Mapping[str, object]) -> object:
        """A proof that `seat` cheated (two signed messages for one step, or one that is a
        proof by itself); true when the host took it as one."""

    def offended(self, seat: int, reason: str) -> None:
        """`seat` sent something the rules of the lockstep refuse."""

    def desync_found(self, seat: int, step: int, mine: str, theirs: str) -> None:
        """`seat`'s state hash at `step` differs from mine."""

    def events_happened(self, events: list[EngineEvent], state: EngineState) -> None:
        """What the game says happened, and the state after it (for the window)."""

    def decision_due(self, decision: PendingDecision, state: EngineState) -> None:
        """My player's input is wanted for this step."""

    def step_applied(self, entry: Wire) -> None:
        """A step's log entry, applied (for the save's command log and spectators)."""

    def save_due(self) -> None:
        """Now is a good time to save (every few steps, before a plan goes out, at the end)."""

    def ended(self, state: EngineState) -> None:
        """The game is over here."""


class QuietHost:
    """A host that signs nothing, trusts every signature and is told nothing: for a
    lockstep that only replays or follows a log, and for tests that fill in what they watch."""

    def broadcast(self, msg: Wire) -> None:
        return None

    def sign(self, msg: Wire) -> Wire:
        return msg

    def verify(self, seat: int, msg: Wire) -> bool:
        return True

    def cheated(self, seat: int, first: Mapping[str, object] | None,
                second: Mapping[str, object]) -> object:
        return None

    def offended(self, seat: int, reason: str) -> None:
        return None

    def desync_found(self, seat: int, step: int, mine: str, theirs: str) -> None:
        return None

    def events_happened(self, events: list[EngineEvent], state: EngineState) -> None:
        return None

    def decision_due(self, decision: PendingDecision, state: EngineState) -> None:
        return None

    def step_applied(self, entry: Wire) -> None:
        return None

    def save_due(self) -> None:
        return None

    def ended(self, state: EngineState) -> None:
        return None
