"""Save files: the command log written as play goes on, enough to rebuild the game exactly.

Format (JSON lines): a header `{"format": "shogun-save", "version": 2, "rules": 2, "config":
{...}, "seed": ..., "bots": [...]}` (a window game adds `"humans": [seats]`: the seats people
played; `bots` still names a bot for every seat, so a headless resume can finish it), then
one line per command `{"n": i, "cmd": <wire>, "hash": <state hash after it>}`. Chance
seeds are written as hex. Each line is flushed and synced, so a game killed at any moment
loses at most the line being written; such a torn last line (no newline) is dropped on
resume, because the command it held is recomputed exactly.
Anything else that is wrong — a bad header, a damaged or hostile line (too long, too deep,
not UTF-8, not JSON: `store.json_lines`), a command the rules refuse, a hash that does not
match — is a `SaveError` naming the file and the line, and the file is left as it is.

Tests: tests/cli/test_headless.py, tests/client/sessions/test_autosave.py,
tests/store/test_hostile_files.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from lang.i18n import N_
from sim.bots import BOT_NAMES
from sim.commands import Command, IllegalCommand, MalformedCommand, from_wire, to_wire
from sim.events import Events
from sim.game import RULES_VERSION, GameConfig, state_hash
from sim.local import LocalGame
from store.json_lines import read_json_lines
from store.save_error import SaveError as SaveError   # re-exported: callers import it here

FORMAT = "shogun-save"
VERSION = 2     # 2: the rules version is in the header; tower outcomes are commands


@dataclass
class SavedGame:
    config: GameConfig
    seed: Any
    bots: list[str]
    commands: list[Command]
    hashes: list[str]
    torn_tail: bool = False
    humans: tuple[int, ...] = ()   # seats people played (window games); bots stand in headless
    path: str | None = None        # the file it was read from (named in a replay's errors)


def _json_wire(cmd: Command) -> dict[str, Any]:
    wire = to_wire(cmd)
    if "seed" in wire:
        wire = {**wire, "seed": wire["seed"].hex()}
    return wire


def _from_json_wire(obj: Any) -> Command:
    if isinstance(obj, dict) and obj.get("type") == "Chance":
        try:
            obj = {**obj, "seed": bytes.fromhex(obj["seed"])}
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedCommand(f"chance seed is not hex ({exc})") from exc
    return from_wire(obj)


class SaveWriter:
    """Appends to a save; `create` starts one, `append_to` continues a resumed one."""

    def __init__(self, path: Path, handle: IO[str], durable: bool = True) -> None:
        self.path = path
        self._handle = handle
        self.durable = durable
        self.count = 0

    @classmethod
    def create(cls, path: str | Path, config: GameConfig, seed: Any, bots: list[str],
               durable: bool = True, humans: tuple[int, ...] = ()) -> "SaveWriter":
        """`durable=False` skips the flush and sync per line: for a record written in one
        go after the game (a network game's replay file), where a cut loses nothing."""
        path = Path(path)
        handle = open(path, "w", encoding="utf-8")
        header = {"format": FORMAT, "version": VERSION, "rules": RULES_VERSION,
                  "config": {"players": config.players, "side": config.side,
                             "setup": config.setup},
                  "seed": seed, "bots": bots}
        if humans:
            header["humans"] = list(humans)
        writer = cls(path, handle, durable)
        writer._line(header)
        return writer

    @classmethod
    def append_to(cls, path: str | Path, saved: SavedGame) -> "SaveWriter":
        path = Path(path)
        if saved.torn_tail:  # cut the torn line before appending after it
            data = path.read_bytes()
            path.write_bytes(data[: data.rfind(b"\n") + 1])
        writer = cls(path, open(path, "a", encoding="utf-8"))
        writer.count = len(saved.commands)
        return writer

    def _line(self, obj: dict[str, Any]) -> None:
        self._handle.write(json.dumps(obj, separators=(",", ":")) + "\n")
        if self.durable:
            self._handle.flush()
            os.fsync(self._handle.fileno())

    def command(self, cmd: Command, state_hash: str) -> None:
        self._line({"n": self.count, "cmd": _json_wire(cmd), "hash": state_hash})
        self.count += 1

    def close(self) -> None:
        self._handle.close()


def read_save(path: str | Path) -> SavedGame:
    """A save, read a bounded line at a time (`store.json_lines`): a `SaveError` naming the
    file, the line and what is wrong for anything but a save this version can replay."""
    path = Path(path)
    lines = read_json_lines(path, torn_ok=True)
    first = next(lines, None)
    if first is None:
        raise SaveError(N_("the save is empty"), path)
    if first.torn:
        with open(path, "rb") as handle:
            head = handle.read(4096)
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.end < len(head) - 4:          # not a UTF-8 character cut at the end
                raise SaveError(N_("it is not text: byte {at} is not UTF-8"), path, 1,
                                at=exc.start + 1) from None
        raise SaveError(N_("the save is truncated: its header line is incomplete"), path, 1)
    config, seed, bots, humans = _header(first.value, path)
    commands: list[Command] = []
    hashes: list[str] = []
    torn = False
    for row in lines:
        if row.torn:
            torn = True         # cut by a kill: the command it held is recomputed on resume
            break
        commands.append(_command_row(row.value, len(commands), path, row.number))
        hashes.append(row.value["hash"])
    return SavedGame(config, seed, bots, commands, hashes, torn_tail=torn, humans=humans,
                     path=str(path))


def _header(header: Any, path: Path) -> tuple[GameConfig, Any, list[str], tuple[int, ...]]:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SaveError(N_("it is not a Shogun save (its first line is no save header)"), path, 1)
    version, rules = header.get("version"), header.get("rules", 1)
    if version == 1 or (_whole(rules) and rules < RULES_VERSION):
        raise SaveError(N_("the save was written under older rules (version {rules}; this game "
                           "plays version {current}, where each planned card is turned at its "
                           "owner's turn and tower results are recorded), so it cannot be "
                           "resumed or replayed here"), path, 1,
                        rules=rules if _whole(rules) else 1, current=RULES_VERSION)
    if version != VERSION or rules != RULES_VERSION:
        raise SaveError(N_("the save comes from a newer version of the game (save format "
                           "{version}, rules {rules}); this one reads format {format}, rules "
                           "{current}"), path, 1, version=str(version)[:20],
                        rules=str(rules)[:20], format=VERSION, current=RULES_VERSION)
    c, seed, bots = header.get("config"), header.get("seed"), header.get("bots")
    humans = header.get("humans", [])
    if not isinstance(c, dict):
        raise _bad_header(path, "config")
    for key, kind in (("players", int), ("side", str), ("setup", str)):
        if not isinstance(c.get(key), kind) or isinstance(c.get(key), bool):
            raise _bad_header(path, f"config.{key}")
    config = GameConfig(c["players"], c["side"], c["setup"])
    try:
        config.check()
    except ValueError:
        raise _bad_header(path, "config") from None
    if not (isinstance(seed, int) and not isinstance(seed, bool) and abs(seed) < 2 ** 63) \
            and not (isinstance(seed, str) and len(seed) <= 200):
        raise _bad_header(path, "seed")
    if not isinstance(bots, list) or not all(isinstance(b, str) and b in BOT_NAMES for b in bots) \
            or len(bots) != config.players:
        raise _bad_header(path, "bots")
    if not isinstance(humans, list) or not all(_whole(s) and 0 <= s < config.players
                                               for s in humans):
        raise _bad_header(path, "humans")
    return config, seed, list(bots), tuple(humans)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad_header(path: Path, field: str) -> SaveError:
    return SaveError(N_("the save's header has a wrong or missing {field}"), path, 1, field=field)


def _command_row(row: Any, expected: int, path: Path, number: int) -> Command:
    """One command line `{"n", "cmd", "hash"}`, checked."""
    if not isinstance(row, dict):
        raise SaveError(N_("it is not a command line of a save"), path, number)
    n = row.get("n")
    if not _whole(n):
        raise SaveError(N_("the command line has a wrong or missing {field}"), path, number,
                        field="n")
    if n != expected:
        raise SaveError(N_("command {n} is out of order (command {expected} comes here)"), path,
                        number, n=n, expected=expected)
    h = row.get("hash")
    if not isinstance(h, str) or len(h) != 64 or any(ch not in "0123456789abcdef" for ch in h):
        raise SaveError(N_("the command line has a wrong or missing {field}"), path, number,
                        field="hash")
    try:
        return _from_json_wire(row.get("cmd"))
    except MalformedCommand:
        raise SaveError(N_("the saved command is damaged or not one this version knows"), path,
                        number) from None


def replay_into(game: LocalGame, saved: SavedGame, path: str | Path | None = None) -> Events:
    """Re-apply a save's commands, checking each state hash; returns the events. A command
    the rules refuse, or a hash that differs (both in full), is a `SaveError` naming the
    line (and `path`, the save's file, when given)."""
    where = path if path is not None else saved.path
    events = list(game.first_events)
    for i, (cmd, expected) in enumerate(zip(saved.commands, saved.hashes)):
        try:
            events.extend(game.submit(cmd))
        except IllegalCommand:
            raise SaveError(N_("its command {n} is not allowed at that point of the game: the "
                               "save is damaged, or from another version"), where, i + 2,
                            n=i) from None
        actual = state_hash(game.state)
        if actual != expected:
            raise SaveError(N_("the state hash after command {n}, {actual}, differs from the "
                               "saved {expected}: the save is damaged, or from another version"),
                            where, i + 2, n=i, actual=actual, expected=expected)
    return events
