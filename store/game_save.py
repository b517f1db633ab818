"""Save files: the command log written as play goes on, enough to rebuild the game exactly.

Format (JSON lines): a header `{"format": "shogun-save", "version": 2, "rules": 2, "config":
{...}, "seed": ..., "bots": [...]}` (a window game adds `"humans": [seats]`: the seats people
played; `bots` still names a bot for every seat, so a headless resume can finish it), then
one line per command `{"n": i, "cmd": <wire>, "hash": <state hash after it>}`. Chance
seeds are written as hex. Each line is flushed and synced, so a game killed at any moment
loses at most the line being written; such a torn last line (no newline) is dropped on
resume, because the command it held is recomputed exactly.
Anything else that is wrong — a bad header, a damaged line, a hash that does not match — is
a `SaveError` naming the line, and the file is left as it is.

Tests: tests/cli/test_headless.py, tests/client/sessions/test_autosave.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sim.commands import Command, MalformedCommand, from_wire, to_wire
from sim.events import Events
from sim.game import RULES_VERSION, GameConfig, state_hash
from sim.local import LocalGame
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
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"cannot read save {path}: {exc.strerror}") from exc
    if not data:
        raise SaveError(f"save {path} is empty")
    lines = data.split(b"\n")
    torn = lines[-1] != b""
    complete = lines[:-1]
    if not complete:
        raise SaveError(f"save {path} is truncated: its header line is incomplete")
    try:
        header = json.loads(complete[0])
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"save {path} line 1: header is not JSON ({exc})") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SaveError(f"save {path} line 1: not a Shogun save (format {header!r:.60})")
    version, rules = header.get("version"), header.get("rules", 1)
    if version == 1 or (isinstance(rules, int) and rules < RULES_VERSION):
        raise SaveError(f"save {path} was written under older rules (version {rules}; this "
                        f"game plays version {RULES_VERSION}, where each planned card is "
                        f"turned at its owner's turn and tower results are recorded), so it "
                        f"cannot be resumed or replayed here")
    if version != VERSION or rules != RULES_VERSION:
        raise SaveError(f"save {path} comes from a newer version of the game (save format "
                        f"{version!r}, rules {rules!r}); this one reads format {VERSION}, "
                        f"rules {RULES_VERSION}")
    try:
        c = header["config"]
        config = GameConfig(int(c["players"]), str(c["side"]), str(c["setup"]))
        config.check()
        bots = [str(b) for b in header["bots"]]
        seed = header["seed"]
        humans = tuple(int(s) for s in header.get("humans", ()))
        if any(not 0 <= s < config.players for s in humans):
            raise ValueError(f"human seats {list(humans)} outside the {config.players} seats")
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"save {path} line 1: bad header ({exc})") from exc
    commands: list[Command] = []
    hashes: list[str] = []
    for number, raw in enumerate(complete[1:], start=2):
        try:
            row = json.loads(raw)
            if row["n"] != len(commands):
                raise SaveError(f"save {path} line {number}: command {row['n']} out of order")
            commands.append(_from_json_wire(row["cmd"]))
            h = row["hash"]
            if not isinstance(h, str) or len(h) != 64:
                raise ValueError("bad hash")
            hashes.append(h)
        except SaveError:
            raise
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"save {path} line {number} is damaged ({exc})") from exc
    return SavedGame(config, seed, bots, commands, hashes, torn_tail=torn, humans=humans)


def replay_into(game: LocalGame, saved: SavedGame) -> Events:
    """Re-apply a save's commands, checking each state hash; returns the events."""
    events = list(game.first_events)
    for i, (cmd, expected) in enumerate(zip(saved.commands, saved.hashes)):
        events.extend(game.submit(cmd))
        actual = state_hash(game.state)
        if actual != expected:
            raise SaveError(f"save command {i} (line {i + 2}): state hash {actual[:12]} differs "
                            f"from the saved {expected[:12]} — damaged, or from another version")
    return events
