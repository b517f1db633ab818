"""The JSON game log (one object per line, DESIGN.md's table): a writer that adds `seq`,
and the reader of a log that may be hostile (`read_log`).

Tests: tests/cli/test_headless.py (the game-log contract), tests/store/test_hostile_files.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from lang.i18n import N_
from sim import events as ev
from sim.game import GameConfig
from sim.narrate import describe
from store.event_check import event_problem
from store.json_lines import read_json_lines
from store.save_error import SaveError


class GameLog:
    """Appends events as JSON lines and flushes each batch, so a killed game keeps its log."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.seq = 0

    def write(self, events: Iterable[Mapping[str, Any]]) -> None:
        for event in events:
            record = {"seq": self.seq, **event}
            self._stream.write(json.dumps(record, separators=(",", ":")) + "\n")
            self.seq += 1
        self._stream.flush()


@dataclass(frozen=True)
class LoggedEvent:
    """An event read back from a log, with the line it was on: its record, checked
    (`read_log`) before it is taken as one."""
    line: int
    event: ev.Event


def is_log(path: str | Path) -> bool:
    """Whether the file's first line is an event (a game log) rather than a save's header.
    A first line that cannot be read at all is a `SaveError` naming it."""
    for first in read_json_lines(path, skip_blank=True, torn_ok=True):
        return isinstance(first.value, dict) and "event" in first.value   # torn: a save's
    return False


def read_log(path: str | Path) -> list[LoggedEvent]:
    """Every event of a JSON game log, each checked against its record in `sim.events`
    and narrated once, so whatever reads them next (`replay --text`, the window's viewer)
    meets only events it can use; else a `SaveError` naming the line and what is wrong."""
    out: list[LoggedEvent] = []
    for row in read_json_lines(path, skip_blank=True):
        wrong = event_problem(row.value)
        if wrong is not None:
            name, field = wrong
            if not name or field is None:
                raise SaveError(N_("it is not an event (a map with an event name)"),
                                path, row.number)
            if field == "event":
                raise SaveError(N_("{event} is not an event this version knows"), path,
                                row.number, event=name[:40])
            raise SaveError(N_("the {event} event has a wrong or missing {field}"), path,
                            row.number, event=name, field=field[:60])
        try:
            describe(row.value)
        except (LookupError, TypeError, ValueError, AttributeError, StopIteration,
                ArithmeticError, RecursionError):
            raise SaveError(N_("the {event} event holds values this version cannot make "
                               "sense of"), path, row.number, event=row.value["event"]) from None
        # checked against its record above: from here on it is read as that record
        out.append(LoggedEvent(row.number, cast(ev.Event, row.value)))
    if not out:
        raise SaveError(N_("it holds no events"), path)
    first = out[0].event
    if first["event"] != "GameStarted":
        raise SaveError(N_("a game log begins with the GameStarted event, not {event}"), path,
                        out[0].line, event=first["event"])
    try:
        GameConfig(first["players"], first["side"], first["setup"]).check()
    except ValueError:
        raise SaveError(N_("the log's game is not one this version plays (players, side or "
                           "setup)"), path, out[0].line) from None
    return out
