"""Whether a row read from a game log is an event as `sim.events` declares it.

Why: the JSON game log is read back by `replay --text` and the window's log viewer, which
narrate and draw each event by key. A log from someone else may hold anything, and a
wrong type met deep in the narration or a drawing was a traceback (an empty `money` in
`GameStarted` raised `StopIteration`). The records in `sim.events` already name every key
and its type, so the check is read from them (nothing here repeats a field): each row
must be a map with a known `event` name, every required key, and every value of its
declared type, with whole numbers in a sane range and seats and provinces that exist.
`problem` says which event and which field, for a message naming the log's line.

Tests: tests/store/test_hostile_files.py.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, Union, get_args, get_origin

from sim.board import board
from sim.events import Event

BIGGEST = 2 ** 31          # no count, card, seat or score comes near it
SEATS = range(0, 5)
# keys whose values name a seat or a province, wherever they appear
SEAT_KEYS = frozenset({"seat", "new_owner", "owner"})
PROVINCE_KEYS = frozenset({"province", "from", "to", "moved_to"})
LOG_KEYS = {"seq": int}     # what `store.game_log.GameLog` adds to every event


@lru_cache(maxsize=1)
def records() -> dict[str, Any]:
    """Event name -> its TypedDict record."""
    return {get_args(typing.get_type_hints(record)["event"])[0]: record
            for record in get_args(Event)}


def _fits(value: Any, tp: Any, key: str | None) -> str | None:
    """None when `value` is of type `tp`; else the dotted path, under `key`, where not."""
    here = key or "?"
    origin = get_origin(tp)
    if tp is Any:
        return None
    if tp is type(None):
        return None if value is None else here
    if tp is bool:
        return None if isinstance(value, bool) else here
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= BIGGEST:
            return here
        if key in SEAT_KEYS and value not in SEATS:
            return here
        return None
    if tp is str:
        if not isinstance(value, str):
            return here
        if key in PROVINCE_KEYS and value not in board().names:
            return here
        return None
    if origin is Literal:
        return None if value in get_args(tp) else here
    if origin in (Union, types.UnionType):
        # a seat or a name: the member that fits is enough
        return None if any(_fits(value, t, key) is None for t in get_args(tp)) else here
    if origin is list:
        if not isinstance(value, list):
            return here
        (item,) = get_args(tp)
        for i, v in enumerate(value):
            wrong = _fits(v, item, key)
            if wrong is not None:
                return f"{here}.{i}"
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return here
        _k, item = get_args(tp)
        for k, v in value.items():
            wrong = _fits(v, item, None)
            if wrong is not None:
                return f"{here}.{k}" + ("" if wrong == "?" else f".{wrong}")
        return None
    if typing.is_typeddict(tp):
        wrong = _record_problem(value, tp)
        return None if wrong is None else f"{here}.{wrong}"
    return here                 # a type this check does not know: refuse, never guess


def _record_problem(value: Any, record: Any) -> str | None:
    if not isinstance(value, dict):
        return "?"
    hints = typing.get_type_hints(record)
    for name in record.__required_keys__:
        if name not in value:
            return name
    for name, tp in hints.items():
        if name in value:
            wrong = _fits(value[name], tp, name)
            if wrong is not None:
                return wrong
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
    return None if wrong is None else (name, wrong)
