"""What a scene may ask of a game session, declared: a local game, a network table and a
replay all implement `GameSession`, so the table scene never probes a session for what
it might offer.

Optional abilities are explicit members, not attributes that may be missing:
`runs_in_window` (the window drives the engine: `pump()` applies its automatic steps),
`table_offers` (a network table's countdown, hand-over, chat and plan unlock, or None),
`study` (a save being studied step by step, or None), `bot_levels` (a local game's bots).
The client never changes game state itself: the engine (`sim.game.apply`) does, here or
on every peer.

Tests: tests/client/sessions/test_interface.py, tests/client/sessions/test_batch_views.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

# the batch's records and their narrowing live below the packages that read them
# (client/core/played.py), so client.words and client.tower may name them too
from client.core.played import C as C, P as P, R as R
from client.core.played import Played as Played, PlayedName as PlayedName, Resumed as Resumed
from client.core.played import as_kind as as_kind, kind_of as kind_of, shows as shows
from sim import events as ev
from sim.commands import IllegalCommand
from sim.viewed import apply_viewed

if TYPE_CHECKING:
    from client.sessions.table_offers import TableOffers
    from sim.commands import Command
    from sim.snapshot import PublicState
    from sim.state import Decision, GameConfig, State


class Batch(NamedTuple):
    """One batch the scene animates: the events (records as the engine and the game log
    write them; the scene only reads them), the state they lead to (None for a replayed
    game log: its Snapshots rule) and the engine's public view right after each event
    (`sim.viewed`), which the board shows as the event plays. `views` is None where no
    engine step made the events (a game log, a game's set-up, a resumed game): the board
    then changes as display_patches.py says until the batch's end."""

    events: Sequence[Played]
    state: State | None
    views: Sequence[PublicState] | None = None


def viewed_batch(before: State, commands: Sequence[Command], events: Sequence[ev.Event],
                 after: State) -> Batch:
    """The batch of `commands` applied to `before`, with the engine's view after each
    event: the step is played once more by `sim.viewed.apply_viewed` (~0.6 ms), so the
    engine, not the client, says what the board was. The views are dropped (None) if
    the replay does not make the same events: never a wrong board."""
    state = before
    replayed: list[ev.Event] = []
    views: list[PublicState] = []
    try:
        for command in commands:
            state, more, seen = apply_viewed(state, command)
            replayed.extend(more)
            views.extend(seen)
    except IllegalCommand:
        return Batch(events, after)
    if replayed != list(events):
        return Batch(events, after)
    return Batch(events, after, views)


class Sought(NamedTuple):
    """Where a replay's seek landed: the events so far (the log says them again), the
    public state there (the board and panels show it at once) and the tower's resting
    contents (`TowerContents` wire lists: no drop draws them)."""

    past: list[ev.Event]
    public: PublicState
    tower: list[list[int]]


class Seeking(Protocol):
    """A save or a game log being studied: step back and forth, jump by round
    (`ReplaySession`)."""

    status: str
    queue: deque[Batch]

    @property
    def step(self) -> int: ...

    @property
    def steps(self) -> int: ...

    def seek(self, step: int) -> Sought:
        """The table after `step` steps (a save's commands, a log's batches) and the
        events that led there; the queue is emptied."""

    def round_starts(self) -> list[int]: ...

    @property
    def path(self) -> str: ...

    def battles_until(self, step: int) -> int: ...


class GameSession(Protocol):
    """Where commands go and event batches come from."""

    queue: deque[Batch]       # batches not yet shown, oldest first (the scene animates them)
    status: str               # a sentence for the status bar (lobby, waiting, paused), or ""
    waiting_text: str         # whom a network table waits for, or ""
    thinking_since: float     # time.monotonic() when the running bot decision began

    @property
    def config(self) -> GameConfig: ...

    @property
    def commands(self) -> Sequence[Command | None]:
        """One entry per command applied so far; None where this window does not hold the
        command itself (a network table's, a replayed save's): then only their count."""

    @property
    def state(self) -> State | None:
        """The newest engine state (maybe ahead of the screen); None for a game log."""

    @property
    def decision(self) -> Decision | None:
        """What the engine waits for now (None before a network game starts)."""

    @property
    def my_seats(self) -> tuple[int, ...]:
        """Seats this window decides for (empty: a spectator)."""

    @property
    def runs_in_window(self) -> bool:
        """True when the window drives the engine (a local game, a replay): the scene
        calls `pump()` whenever it has shown everything."""

    @property
    def thinking(self) -> int | None:
        """The bot seat whose decision is being computed off the frame, or None."""

    @property
    def bot_levels(self) -> dict[int, str]:
        """{seat: level} of a local game's bots (shown after their seats), else {}."""

    @property
    def table_offers(self) -> TableOffers | None:
        """A network table's comforts, or None."""

    @property
    def study(self) -> Seeking | None:
        """A replay (a save or a game log) studied step by step, or None."""

    def step_key(self) -> int:
        """Changes whenever a command is applied (the scene asks once per key)."""

    def waiting_for_me(self) -> bool: ...

    def pump(self, wait: float | None = None) -> bool:
        """Apply one automatic step; True if something happened. `wait=s` lets a local
        bot think in a worker thread for at most s seconds (the window keeps drawing)."""

    def tick(self) -> None:
        """Once a frame, before the scene plays anything."""

    def net_pump(self) -> None:
        """Drive the network from the window's clock (nothing for a local game)."""

    def submit(self, cmd: Command) -> None:
        """A command for one of my seats (raises ValueError if not allowed)."""

    def labels(self) -> dict[int, str]:
        """{seat: "Aiko (Blue)"} as the table names them; {} when the scene's own stand."""

    def close(self) -> None: ...


class OfflineSession:
    """What a game the window drives itself (a local game, a replay) answers the same way:
    no network to pump, no table to name the seats or offer comforts, nobody to wait for."""

    runs_in_window = True
    table_offers: TableOffers | None = None
    waiting_text = ""

    def tick(self) -> None:
        return None

    def net_pump(self) -> None:
        return None

    def labels(self) -> dict[int, str]:
        return {}
