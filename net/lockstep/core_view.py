"""What a part of the lockstep sees of the core: a declared interface, not a shared `self`.

Why: the parts (`links`, `chance_step`, `command_step`, `tower_vote`, `plan_steps`,
`plan_messages`, `outbox`, `desync`, `inputs`) each own their state and are built with
the core they serve, the way Twisted's AMP hands `BoxDispatcher` its locator. This
Protocol is all they may read or call on it, so a reader sees each part's reach at a
glance, and mypy checks it. What the lockstep needs from the peer it runs in is
`core.host` (`net.lockstep.host.LockstepHost`), read at call time: tests swap it mid-game.

Tests: tests/net/lockstep/test_core.py (every part through `Lockstep`).
"""

from __future__ import annotations

from typing import Callable, Protocol, TypeVar, cast

from net.lockstep.beacon import HashChain
from net.lockstep.host import LockstepHost
from net.lockstep.engine import Applied, EngineCommand, EngineState, GameEngine, PendingDecision
from net.lockstep.step_inbox import StepInbox, Wire
from net.transport.message_records import kind_of

# a part's handler of one message kind: (seat, msg, the step's inbox, step) -> True when
# the message is new input (the core then files it, compares its hash and advances)
Receiver = Callable[[int, Wire, StepInbox, int], bool]
# a part's runner of one decision kind: (decision, inbox) -> True when the step applied
StepRunner = Callable[[PendingDecision, StepInbox], bool]
M = TypeVar("M")


def receives(record: type[M], receive: Callable[[int, M, StepInbox, int], bool]
             ) -> tuple[str, Receiver]:
    """A table entry: the kind of `record` and its receiver, taking the checked map (the
    one cast: `net.transport.messages.check` has shown the map has the record's fields)."""
    return kind_of(record), cast(Receiver, receive)


class CoreView(Protocol):
    """The lockstep core as its parts use it (`net.lockstep.core.Lockstep`)."""

    game: GameEngine
    bot: str
    my_seat: int | None
    bots: set[int]
    kinds: dict[int, str]
    state: EngineState
    step: int
    round: int
    ended: bool
    following: bool
    inbox: dict[int, StepInbox]
    log: list[Wire]
    chain: HashChain | None
    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    @property
    def hash(self) -> str: ...

    def decision(self) -> PendingDecision: ...

    def contributors(self) -> list[int]: ...

    def box(self, step: int) -> StepInbox: ...

    def send(self, msg: Wire) -> Wire: ...

    def ask(self, d: PendingDecision) -> None: ...

    def ask_again(self) -> None: ...

    def advance(self) -> None: ...

    def commit_step(self, commands: list[EngineCommand], beacon: bool,
                    result: Applied | None = None,
                    commits: list[Wire] | None = None,
                    bot_seed: bytes | None = None) -> None: ...

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None: ...
