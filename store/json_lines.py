"""Reading a file of JSON lines that may be hostile: a line at a time, each line bounded.

Why: a save or a game log is a file someone can hand to a player ("here is our game"),
so every byte of it is untrusted. Reading the whole file and then parsing one 60 MB line
took about 4 times the file in memory; a line nested 100,000 deep raised `RecursionError`
out of the JSON parser. Here the file is read one line at a time with a bound on the line's
length, so a line longer than any save or log holds is refused before it is parsed (and
before it is even held whole); a line nested deeper than any save or log nests is refused
right after parsing, so no reader further on meets it. Every refusal is a `SaveError`
naming the file and the line.

The bounds: the longest line a game writes is a 5-player `Snapshot` event, a few KB;
`MAX_LINE` is 256 KiB. The deepest is a `Snapshot` (6 levels); `MAX_DEPTH` is 32.

Tests: tests/store/test_hostile_files.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from lang.i18n import N_
from store.save_error import SaveError

MAX_LINE = 256 * 1024
MAX_DEPTH = 32


@dataclass(frozen=True)
class JsonLine:
    """One parsed line: its number (from 1) and its value; `torn` for a last line the
    writer never finished (no newline), which a save drops and a log refuses."""
    number: int
    value: Any
    torn: bool = False


def depth_beyond(value: Any, limit: int) -> bool:
    """Whether `value` nests more than `limit` lists or maps deep (no recursion: a parsed
    value can be as deep as the parser allowed)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in item)
    return False


def parse_line(raw: bytes, path: object, number: int) -> Any:
    """One line's JSON value, or a `SaveError` saying what is wrong with it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(N_("it is not text: byte {at} is not UTF-8"), path, number,
                        at=exc.start + 1) from None
    if not text.strip():
        raise SaveError(N_("the line is empty"), path, number)
    try:
        value = json.loads(text)
    except RecursionError:
        value = None
        deep = True
    except json.JSONDecodeError as exc:
        raise SaveError(N_("it is not JSON (at character {at})"), path, number,
                        at=exc.pos + 1) from None
    except ValueError:        # an integer of more digits than Python converts
        raise SaveError(N_("it holds a number with too many digits"), path, number) from None
    else:
        deep = depth_beyond(value, MAX_DEPTH)
    if deep:
        raise SaveError(N_("it nests more than {limit} levels deep; no save or game log does"),
                        path, number, limit=MAX_DEPTH)
    return value


def read_json_lines(path: str | Path, skip_blank: bool = False,
                    torn_ok: bool = False) -> Iterator[JsonLine]:
    """The file's lines, parsed, one at a time. Blank lines are skipped if `skip_blank`
    (a log), refused otherwise (a save). With `torn_ok` a last line without its newline
    comes unparsed (value None, `torn`): a save drops the line a kill cut."""
    try:
        handle: BinaryIO = open(path, "rb")
    except OSError as exc:
        raise SaveError(N_("it cannot be read ({why})"), path, why=exc.strerror or exc) from None
    with handle:
        number = 0
        while True:
            try:
                raw = handle.readline(MAX_LINE + 1)
            except OSError as exc:
                raise SaveError(N_("it cannot be read ({why})"), path, number + 1,
                                why=exc.strerror or exc) from None
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE:
                raise SaveError(N_("the line is longer than {limit} bytes; no save or game "
                                   "log has lines that long"), path, number, limit=MAX_LINE)
            torn = not raw.endswith(b"\n")
            if torn and torn_ok:
                yield JsonLine(number, None, torn=True)
                return
            if skip_blank and not raw.strip():
                continue
            yield JsonLine(number, parse_line(raw, path, number), torn)
