"""Whether a row read from a game log is an event as `sim.events` declares it.

Why: the JSON game log is read back by `replay --text` and the window's log viewer, which
narrate and draw each event by key. A log from someone else may hold anything, and a
wrong type met deep in the narration or a drawing was a traceback (an empty `money` in
`GameStarted` raised `StopIteration`). The records in `sim.events` already name every key
and its type, so the check is read from them (nothing here repeats a field): each row
must be a map with a known `event` name, every required key, and every value of its
declared type, with whole numbers in a sane range, and seats, colours, provinces and
actions that exist wherever a key or value names one.
`problem` says which event and which field, for a message naming the log's line.

Tests: tests/store/test_hostile_files.py.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Callable, Literal, Union, get_args, get_origin

from sim.board import board
from sim.commands import ACTIONS
from sim.events import Event

BIGGEST = 2 ** 31          # no count, card, seat or score comes near it
SEATS = range(0, 5)
# keys whose values name a seat or a province, wherever they appear
SEAT_KEYS = frozenset({"seat", "new_owner", "owner"})
PROVINCE_KEYS = frozenset({"province", "from", "to", "moved_to"})
LOG_KEYS = {"seq": int}     # what `store.game_log.GameLog` adds to every event
_SEAT_NAMES = frozenset(str(s) for s in SEATS)
# maps, by the key they sit under, whose own keys name seats, colours, provinces or actions
# (a drawing looks them up), and maps whose values name provinces
_MAP_KEYS: dict[str, Callable[[], frozenset[str]]] = {
    **dict.fromkeys(("money", "scores", "paid", "bids", "players", "specials"),
                    lambda: _SEAT_NAMES),
    **dict.fromkeys(("thrown", "out", "inside_after", "inside", "tray"),
                    lambda: _SEAT_NAMES | {"peasant"}),
    "provinces": lambda: frozenset(board().names),
    "actions": lambda: frozenset(ACTIONS),
}
_MAP_VALUES = {"actions": "province"}      # a revealed plan: action -> province


@lru_cache(maxsize=1)
def records() -> dict[str, Any]:
    """Event name -> its TypedDict record."""
    return {get_args(typing.get_type_hints(record)["event"])[0]: record
            for record in get_args(Event)}


def _fits(value: Any, tp: Any, key: str | None) -> list[str] | None:
    """None when `value` is of type `tp`; else the path inside `value` to what is not
    ([] for `value` itself). `key` is what the value sits under (seats, provinces ...)."""
    origin = get_origin(tp)
    if tp is Any:
        return None
    if tp is type(None):
        return None if value is None else []
    if tp is bool:
        return None if isinstance(value, bool) else []
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= BIGGEST:
            return []
        return [] if key in SEAT_KEYS and value not in SEATS else None
    if tp is str:
        if not isinstance(value, str):
            return []
        return [] if key in PROVINCE_KEYS and value not in board().names else None
    if origin is Literal:
        return None if value in get_args(tp) else []
    if origin in (Union, types.UnionType):
        # a seat or a name: the member that fits is enough
        return None if any(_fits(value, t, key) is None for t in get_args(tp)) else []
    if origin is list:
        if not isinstance(value, list):
            return []
        (item,) = get_args(tp)
        for i, v in enumerate(value):
            wrong = _fits(v, item, key)
            if wrong is not None:
                return [str(i), *wrong]
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return []
        _k, item = get_args(tp)
        allowed = _MAP_KEYS.get(key or "")
        for k, v in value.items():
            if allowed is not None and k not in allowed():
                return [str(k)[:20]]
            wrong = _fits(v, item, _MAP_VALUES.get(key or ""))
            if wrong is not None:
                return [str(k)[:20], *wrong]
        return None
    if typing.is_typeddict(tp):
        return _record_problem(value, tp)
    return []                   # a type this check does not know: refuse, never guess


def _record_problem(value: Any, record: Any) -> list[str] | None:
    if not isinstance(value, dict):
        return []
    for name in record.__required_keys__:
        if name not in value:
            return [name]
    for name, tp in typing.get_type_hints(record).items():
        if name in value:
            wrong = _fits(value[name], tp, name)
            if wrong is not None:
                return [name, *wrong]
    return None


def event_problem(row: Any) -> tuple[str, str | None] | None:
    """None for a well-formed event; else (the event's name or "", the wrong field or
    None when the row is no event at all)."""
    if not isinstance(row, Mapping) or not isinstance(row.get("event"), str):
        return "", None
    name = row["event"]
    record = records().get(name)
    if record is None:
        return name, "event"
    for key, tp in LOG_KEYS.items():
        if key in row and _fits(row[key], tp, key) is not None:
            return name, key
    wrong = _record_problem(dict(row), record)
    return None if wrong is None else (name, ".".join(wrong))
