"""What a batch carries, for every package of the client that reads one: the engine's
records (`sim.events`) and the client's own (`Resumed`), with the one narrowing by the
`event` tag. It sits in client.core, below client.words and client.tower, which read
events too (tests/test_layering.py); client.sessions.interface re-exports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypedDict, TypeVar, Union, cast

from sim import events as ev


class Resumed(TypedDict):
    """The client's own record, first in a resumed game's batch (or a replay's seek): the
    events so far, which the log says again at once instead of playing them."""
    event: Literal["Resumed"]
    past: list[ev.Event]


# what a batch carries: the engine's records (`sim.events`), and the client's own; a
# reader narrows one to its record with `as_kind(e, ev.Moved)` or a table of `shows`
Played = Union[ev.Event, Resumed]
PlayedName = Union[ev.EventName, Literal["Resumed"]]

P = TypeVar("P", bound=Played)
C = TypeVar("C")
R = TypeVar("R")


def kind_of(e: Played) -> PlayedName:
    """An event's name (its `event` tag, e.g. "Moved"): the one place the client reads it
    by its key. Compared with a name that is no event's, mypy says so (strict equality)."""
    return e["event"]


def as_kind(e: Played, record: type[P]) -> P | None:
    """`e` as `record` (`ev.TowerDropped`, `Resumed`) when it is an event of that kind, else
    None: the narrowing by name, whose keys mypy then checks. A record's class is named as
    its tag (`sim.events`; tests/client/test_event_types.py holds them to it)."""
    return cast(P, e) if kind_of(e) == record.__name__ else None


def shows(record: type[P], handle: Callable[[C, P], R]) -> tuple[str, Callable[[C, Played], R]]:
    """A dispatch table's entry: the name of `record`'s events and the handler that takes
    them as that record (like `net.transport.message_records.handles`): the one cast for
    a handler, sound because the table is looked up by the event's own name."""
    return record.__name__, cast(Callable[[C, Played], R], handle)
