"""What a part of the lockstep sees of the core: a declared interface, not a shared `self`.

Why: the parts (`links`, `chance_step`, `command_step`, `tower_vote`, `plan_steps`,
`plan_messages`, `outbox`, `desync`, `inputs`) each own their state and are built with
the core they serve, the way Twisted's AMP hands `BoxDispatcher` its locator. Each part
has its own Protocol below (`LinksCore`, `PlanCore`, ...): all it may read or call on the
core (`net.lockstep.core.Lockstep`), so a reader sees each part's reach at a glance, and
mypy checks it where the part is built. What the lockstep needs from the peer it runs in is
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


# Each part's own view: the members of the core that part reaches, and no more (mypy checks
# `Lockstep` against each where the part is built).

class LinksCore(Protocol):
    """What `links` (BeaconLinks) reads and calls of the core."""

    my_seat: int | None

    kinds: dict[int, str]

    step: int

    round: int

    chain: HashChain | None

    def contributors(self) -> list[int]: ...


class ChanceCore(Protocol):
    """What `chance_step` (ChanceStep) reads and calls of the core."""

    game: GameEngine

    my_seat: int | None

    state: EngineState

    step: int

    @property
    def hash(self) -> str: ...

    def contributors(self) -> list[int]: ...

    def send(self, msg: Wire) -> Wire: ...

    def commit_step(self, commands: list[EngineCommand], beacon: bool,
                    result: Applied | None = None,
                    commits: list[Wire] | None = None,
                    bot_seed: bytes | None = None) -> None: ...


class CommandCore(Protocol):
    """What `command_step` (CommandStep) reads and calls of the core."""

    game: GameEngine

    bot: str

    my_seat: int | None

    bots: set[int]

    state: EngineState

    step: int

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    @property
    def hash(self) -> str: ...

    def box(self, step: int) -> StepInbox: ...

    def send(self, msg: Wire) -> Wire: ...

    def ask(self, d: PendingDecision) -> None: ...

    def commit_step(self, commands: list[EngineCommand], beacon: bool,
                    result: Applied | None = None,
                    commits: list[Wire] | None = None,
                    bot_seed: bytes | None = None) -> None: ...

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None: ...


class TowerVoteCore(Protocol):
    """What `tower_vote` (TowerVote) reads and calls of the core."""

    game: GameEngine

    my_seat: int | None

    state: EngineState

    step: int

    ended: bool

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    @property
    def hash(self) -> str: ...

    def decision(self) -> PendingDecision: ...

    def contributors(self) -> list[int]: ...

    def box(self, step: int) -> StepInbox: ...

    def send(self, msg: Wire) -> Wire: ...

    def commit_step(self, commands: list[EngineCommand], beacon: bool,
                    result: Applied | None = None,
                    commits: list[Wire] | None = None,
                    bot_seed: bytes | None = None) -> None: ...


class PlanCore(Protocol):
    """What `plan_steps` (PlanSteps) reads and calls of the core."""

    game: GameEngine

    bot: str

    my_seat: int | None

    bots: set[int]

    state: EngineState

    step: int

    ended: bool

    following: bool

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


class PlanMessagesCore(Protocol):
    """What `plan_messages` (PlanMessages) reads and calls of the core."""

    my_seat: int | None

    bots: set[int]

    step: int

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    def decision(self) -> PendingDecision: ...

    def box(self, step: int) -> StepInbox: ...

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None: ...


class OutboxCore(Protocol):
    """What `outbox` (Outbox) reads and calls of the core."""

    game: GameEngine

    my_seat: int | None

    step: int

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    def box(self, step: int) -> StepInbox: ...


class DesyncCore(Protocol):
    """What `desync` (DesyncWatch) reads and calls of the core."""

    my_seat: int | None

    bots: set[int]

    step: int

    ended: bool

    following: bool

    inbox: dict[int, StepInbox]

    log: list[Wire]

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    @property
    def hash(self) -> str: ...

    def send(self, msg: Wire) -> Wire: ...


class InputsCore(Protocol):
    """What `inputs` (Inputs) reads and calls of the core."""

    bots: set[int]

    kinds: dict[int, str]

    step: int

    following: bool

    host: LockstepHost        # the way out (`net.lockstep.host`), read at call time

    def decision(self) -> PendingDecision: ...

    def box(self, step: int) -> StepInbox: ...

    def advance(self) -> None: ...

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None: ...
