"""Crafted hostile saves and game logs (issue 34 item 5), made from one honest game.

`core(folder)` writes the named cases a player could be handed (deep nesting, huge lines,
truncated JSON and msgpack, wrong and malformed hashes, empty fields, non-UTF-8, binary
junk, unknown event names, a save's and a log's first line swapped ...); `wrong_types(folder)`
writes, for every event kind and every command kind of the honest game and for the save's
header and command lines, one file per field and per wrong value, each as short as it can
be (the lines before it and the wrong one).

Used by tests/store/test_hostile_files.py (in process), tests/cli/test_hostile_files.py
(as processes) and tests/client/sessions/test_hostile_files.py (the window's loaders).
"""

from __future__ import annotations

import json
import random
from argparse import Namespace
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import msgpack

WRONG_VALUES: tuple[Any, ...] = ("x", [], {}, None, 10 ** 40, -1, True, 1.5, [[[["deep"]]]])


@dataclass(frozen=True)
class Honest:
    """One honest 3-player game: its save and its JSON log, as lines of bytes."""
    save: list[bytes]
    log: list[bytes]


def honest_game(folder: Path) -> Honest:
    from cli.headless import run
    save, log = folder / "honest.save", folder / "honest.log"
    code = run(Namespace(players=3, side="sun", setup="beginner", seed=5, bot=None,
                         log=str(log), save=str(save), resume=None, quiet=True))
    assert code == 0
    return Honest(save.read_bytes().splitlines(), log.read_bytes().splitlines())


def _lines(rows: list[bytes]) -> bytes:
    return b"".join(r + b"\n" for r in rows)


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def core(folder: Path, honest: Honest) -> list[Path]:
    """The named cases; each file's name says what is wrong with it."""
    s, g = honest.save, honest.log
    row40 = json.loads(s[40])
    header = json.loads(s[0])
    started = json.loads(g[0])
    junk = random.Random(34).randbytes(4096)
    cases: dict[str, bytes] = {
        "empty": b"",
        "blank-lines": b"\n\n\n",
        "binary-junk": junk,
        "binary-junk-lines": junk.replace(b"\n", b"") + b"\n" + junk[:100] + b"\n",
        "nul-bytes": b"\x00" * 1000 + b"\n",
        "non-utf8-first-line": b"\xff\xfe\xfd not text\n" + _lines(s[1:]),
        "non-utf8-save-line": _lines(s[:5]) + b'{"n":4,"cmd":"\xff\xfe"}\n' + _lines(s[6:]),
        "non-utf8-log-line": _lines(g[:3]) + b'{"event":"\xc3\x28"}\n',
        "deep-list-first-line": b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "deep-object-first-line": b'{"a":' * 30_000 + b"1" + b"}" * 30_000 + b"\n",
        "deep-save-command": _lines(s[:3]) + b'{"n":2,"cmd":' + b"[" * 50_000
                             + b"]" * 50_000 + b',"hash":"0"}\n',
        "deep-save-header": b'{"format":"shogun-save","config":' + b"[" * 50_000
                            + b"]" * 50_000 + b"}\n" + _lines(s[1:]),
        "deep-log-money": _dump({**started, "money": {"0": 1}})[:-1] + b',"x":'
                          + b"[" * 60_000 + b"]" * 60_000 + b"}\n" + _lines(g[1:]),
        "deep-log-field-40": _lines(g[:1]) + _dump({"event": "YearStarted", "year": 1,
                                                     "events": _nested(40)}) + b"\n",
        "huge-first-line": b'{"format":"shogun-save","pad":"' + b"a" * 3_000_000 + b'"}\n',
        "huge-save-line": _lines(s[:10]) + b'{"n":9,"pad":"' + b"b" * 3_000_000 + b'"}\n',
        "huge-log-line": _lines(g[:10]) + b'{"event":"Moved","pad":"' + b"c" * 3_000_000
                         + b'"}\n',
        "huge-number": _lines(s[:1]) + b'{"n":' + b"9" * 5000 + b',"cmd":{},"hash":""}\n',
        "truncated-header": s[0][:40],
        "truncated-save-line": _lines(s[:7]) + s[7][:30] + b"\n" + _lines(s[8:]),
        "truncated-log": _lines(g[:20]) + g[20][:25],
        "truncated-log-line": _lines(g[:20]) + g[20][:25] + b"\n" + _lines(g[21:]),
        "msgpack-save": msgpack.packb({"format": "shogun-save", "seed": 5, "bots": [1]}),
        "msgpack-truncated": msgpack.packb([header, row40] * 50)[:777],
        "msgpack-after-header": _lines(s[:1]) + msgpack.packb(row40) + b"\n",
        "wrong-hash": _lines(s[:40]) + _dump({**row40, "hash": "f" * 64}) + b"\n"
                      + _lines(s[41:]),
        "hash-not-hex": _lines(s[:40]) + _dump({**row40, "hash": "z" * 64}) + b"\n",
        "hash-short": _lines(s[:40]) + _dump({**row40, "hash": row40["hash"][:12]}) + b"\n",
        "hash-number": _lines(s[:40]) + _dump({**row40, "hash": 12}) + b"\n",
        "hash-missing": _lines(s[:40]) + _dump({"n": row40["n"], "cmd": row40["cmd"]}) + b"\n",
        "commands-swapped": _lines(s[:30]) + _dump({**json.loads(s[31]), "n": 29}) + b"\n"
                            + _dump({**json.loads(s[30]), "n": 30}) + b"\n" + _lines(s[32:]),
        "command-out-of-order": _lines(s[:30]) + _dump({**json.loads(s[30]), "n": 77}) + b"\n",
        "command-unknown": _lines(s[:30]) + _dump({**json.loads(s[30]), "cmd": {"type": "Nuke"}})
                           + b"\n",
        "command-empty": _lines(s[:30]) + _dump({**json.loads(s[30]), "cmd": {}}) + b"\n",
        "command-not-a-map": _lines(s[:30]) + b"[1,2,3]\n",
        "header-empty-config": _dump({**header, "config": {}}) + b"\n" + _lines(s[1:]),
        "header-no-bots": _dump({**header, "bots": []}) + b"\n" + _lines(s[1:]),
        "header-seed-map": _dump({**header, "seed": {"a": 1}}) + b"\n" + _lines(s[1:]),
        "header-99-players": _dump({**header, "config": {**header["config"], "players": 99}})
                             + b"\n" + _lines(s[1:]),
        "header-newer": _dump({**header, "version": 9, "rules": 9}) + b"\n" + _lines(s[1:]),
        "header-only-null": b"null\n",
        "log-empty-money": _dump({**started, "money": {}}) + b"\n" + _lines(g[1:]),
        "log-unknown-event": _lines(g[:5]) + _dump({"event": "Exploded", "seat": 0}) + b"\n",
        "log-event-list": _lines(g[:5]) + b'[{"event":"Moved"}]\n',
        "log-event-number": _lines(g[:5]) + b"42\n",
        "log-event-null-name": _lines(g[:5]) + b'{"event":null}\n',
        "log-starts-elsewhere": _lines(g[1:]),
        "log-99-players": _dump({**started, "players": 99}) + b"\n" + _lines(g[1:]),
        "log-unknown-province": _lines(g[:3]) + _dump({"event": "Moved", "seat": 0,
                                                       "from": "Atlantis", "to": "Izu",
                                                       "count": 1}) + b"\n",
        "save-header-then-log": _lines(s[:1]) + _lines(g[:20]),
        "log-then-save": _lines(g[:1]) + _lines(s[1:20]),
    }
    out = []
    for name, data in cases.items():
        path = folder / f"{name}.bad"
        path.write_bytes(data)
        out.append(path)
    return out


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _first_of_each(rows: list[bytes], kind: Callable[[dict], str]) -> dict[str, int]:
    """Kind -> the index of its first row."""
    seen: dict[str, int] = {}
    for i, raw in enumerate(rows):
        seen.setdefault(kind(json.loads(raw)), i)
    return seen


def wrong_types(folder: Path, honest: Honest) -> list[Path]:
    """Every field of every event kind, command kind and save line, with every wrong value."""
    out: list[Path] = []
    s, g = honest.save, honest.log

    def write(name: str, data: bytes) -> None:
        path = folder / f"{name}.bad"
        path.write_bytes(data)
        out.append(path)

    # the log: GameStarted, then the first event of each kind with one field wrong
    for kind, i in _first_of_each(g, lambda e: e["event"]).items():
        event = json.loads(g[i])
        for key in [k for k in event if k != "event"]:
            for n, wrong in enumerate(WRONG_VALUES):
                line = _dump({**event, key: wrong})
                rows = [line] if i == 0 else [g[0], line]
                write(f"log-{kind}-{key}-{n}", _lines(rows))
    # the save's header
    header = json.loads(s[0])
    for key in list(header) + ["humans"]:
        for n, wrong in enumerate(WRONG_VALUES):
            write(f"save-header-{key}-{n}", _lines([_dump({**header, key: wrong})] + s[1:4]))
    for key in header["config"]:
        for n, wrong in enumerate(WRONG_VALUES):
            wrong_config = {**header, "config": {**header["config"], key: wrong}}
            write(f"save-config-{key}-{n}", _lines([_dump(wrong_config)] + s[1:4]))
    # the first command of each kind: its line's fields, then its command's fields
    for kind, i in _first_of_each(s[1:], lambda r: r["cmd"]["type"]).items():
        row = json.loads(s[1 + i])
        for key in ("n", "cmd", "hash"):
            for n, wrong in enumerate(WRONG_VALUES):
                write(f"save-{kind}-line-{key}-{n}", _lines(s[:1 + i] + [_dump({**row, key: wrong})]))
        for key in [k for k in row["cmd"] if k != "type"]:
            for n, wrong in enumerate(WRONG_VALUES):
                wrong_row = {**row, "cmd": {**row["cmd"], key: wrong}}
                write(f"save-{kind}-{key}-{n}", _lines(s[:1 + i] + [_dump(wrong_row)]))
    return out
