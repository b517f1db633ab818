"""Never lose a window game: every local game writes its save as it goes.

The file is the headless save format (`store/game_save.py`): a header, then one line per
command with the state hash after it, so `./shogun replay FILE --verify` checks it and
`./shogun headless --resume FILE` (bots for every seat) or the menu's Continue (people at
their seats again) pick it up. The autosave is `autosave.save` in the user's data folder;
leaving a game keeps it, a finished game moves it to `last-game.save` (so Continue is only
offered for a game that can go on), and a new game moves an unfinished one to `saves/`
first. Named saves are copies in `saves/`.

Tests: tests/client/sessions/test_autosave.py.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from store.game_save import SaveError, SavedGame, SaveWriter, read_save
from client.core.settings import data_dir
from lang.i18n import _, ngettext
from sim.game import pending, state_hash
from sim.local import LocalGame
from sim.commands import Command
from sim.state import DecisionKind, GameConfig, State
from client.words.seasons import SEASON_WORDS
from sim import game
from sim.state import SEASONS

FILL_IN_BOT = "heuristic"    # named in the header for human seats: a headless resume plays them


def autosave_path() -> Path:
    return data_dir() / "autosave.save"


def last_game_path() -> Path:
    return data_dir() / "last-game.save"


def saves_dir() -> Path:
    return data_dir() / "saves"


class SessionToSave(Protocol):
    """What an autosave reads of the game it saves: a window's `LocalSession`, or the
    benchmark's stand-in for one (benchmarks/local_game.py)."""

    @property
    def config(self) -> GameConfig: ...
    @property
    def seed(self) -> Any: ...                 # as the save's header writes it
    @property
    def bots(self) -> dict[int, str]: ...
    @property
    def my_seats(self) -> tuple[int, ...]: ...
    @property
    def source(self) -> Path | None:
        """The save this game was resumed from, if any."""
    @property
    def game(self) -> LocalGame: ...
    @property
    def command_applied(self) -> list[Callable[[Any, Any], None]]: ...


class Autosave:
    """Appends each command a `LocalSession` applies to its save file, with its hash."""

    def __init__(self, session: SessionToSave, writer: SaveWriter) -> None:
        self.session: SessionToSave = session
        self.writer = writer
        self.path = writer.path
        self.closed = False
        self.finished = False
        session.command_applied.append(self._on_command)

    @classmethod
    def start(cls, session: SessionToSave, path: Path | None = None,
              saved: SavedGame | None = None) -> "Autosave":
        """Begin the save of `session`. With `saved` (the session was resumed from it) and
        the same path, append to it; otherwise write everything so far into a new file."""
        path = Path(path or autosave_path())
        path.parent.mkdir(parents=True, exist_ok=True)
        if saved is not None and path.exists() and _same_file(path, session.source):
            return cls(session, SaveWriter.append_to(path, saved))
        if path == autosave_path() and path.exists():
            if _worth_keeping(path):
                keep_unfinished(path)
            else:
                path.unlink()
        cfg = session.config
        bots = [session.bots.get(s, FILL_IN_BOT) for s in range(cfg.players)]
        writer = SaveWriter.create(path, cfg, session.seed, bots, humans=tuple(session.my_seats))
        hashes = saved.hashes if saved is not None else _hashes(session)
        for cmd, h in zip(session.game.commands, hashes):
            writer.command(cmd, h)
        return cls(session, writer)

    def _on_command(self, cmd: Command, state: State) -> None:
        if self.closed:
            return
        self.writer.command(cmd, state_hash(state))
        if pending(state).kind == DecisionKind.OVER:
            self.finish()

    def finish(self) -> None:
        """The game ended: keep it as the last game, and offer no Continue for it."""
        self.close()
        self.finished = True
        if self.path == autosave_path():
            self.path.replace(last_game_path())
            self.path = last_game_path()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.writer.close()


# the name `keep_unfinished` gives (in English on disk; the menu says it in the language)
UNFINISHED = re.compile(r"unfinished \d{4}-\d{2}-\d{2} \d{6}")


def keep_unfinished(path: Path) -> Path:
    """A new game is about to take the autosave's place: keep the unfinished one as a
    named save ("unfinished DATE TIME"), so starting a game never loses another (one its
    player decided nothing in is not kept: `_worth_keeping`)."""
    when = time.strftime("%Y-%m-%d %H%M%S", time.localtime(path.stat().st_mtime))
    target = saves_dir() / f"unfinished {when}.save"
    target.parent.mkdir(parents=True, exist_ok=True)
    path.replace(target)
    return target


def _worth_keeping(path: Path) -> bool:
    """An unfinished game is kept unless its player never decided anything in it (a game
    opened and left at once would otherwise pile up in the menu as "unfinished game").
    A game of bots only, watched, is kept; so is a save that cannot be read."""
    try:
        saved = read_save(path)
    except SaveError:
        return True
    humans = set(saved.humans)
    return not humans or any(getattr(c, "seat", None) in humans for c in saved.commands)


def _same_file(a: Path, b: Path | None) -> bool:
    try:
        return b is not None and Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def _hashes(session: SessionToSave) -> list[str]:
    """Hashes after each command so far, by replaying them (a session started mid-game)."""
    game = LocalGame(session.config, session.seed, {})
    out = []
    for cmd in session.game.commands:
        game.submit(cmd)
        out.append(state_hash(game.state))
    return out


@dataclass(frozen=True)
class SaveInfo:
    """What the menu says about a save before loading it."""

    path: Path
    title: str        # "4 players on the sun side — year 1, spring, saved 2026-11-29 17:53"


def describe_save(path: Path) -> SaveInfo | None:
    try:
        saved = read_save(path)
    except SaveError:
        return None
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    n = len(saved.commands)
    players = saved.config.players     # whole phrases: "partea soarelui", not "partea soare"
    side = _("the sun side") if saved.config.side == "sun" else _("the moon side")
    title = ngettext("{players} player on {side} — {steps}, saved {when}",
                     "{players} players on {side} — {steps}, saved {when}", players).format(
        players=players, side=side, steps=how_far(saved) or
        ngettext("{n} step", "{n} steps", n).format(n=n), when=when)
    return SaveInfo(path, title)


def how_far(saved: SavedGame) -> str:
    """Where a save's game stands, as a player counts it ("year 2, spring"; "the game is
    over"), from its commands re-applied (well under a second); "" if they do not apply."""
    try:
        state, _events = game.new_game(saved.config)
        for cmd in saved.commands:
            state, _events = game.apply(state, cmd)
    except Exception:          # a damaged save: the menu still says its step count
        return ""
    if game.pending(state).kind == DecisionKind.OVER:
        return _("the game is over")
    season = SEASONS[state.season]
    return _("year {year}, {season}").format(year=state.year,
                                              season=SEASON_WORDS.get(season, season))


def continue_info() -> SaveInfo | None:
    path = autosave_path()
    return describe_save(path) if path.exists() else None


def safe_name(name: str) -> str:
    """A file name from what the player typed: letters, digits, - and _ kept, the rest
    become single spaces (so no path can be smuggled in)."""
    cleaned = " ".join(re.sub(r"[^\w\-]+", " ", name).split())[:40]
    return cleaned or time.strftime("game %Y-%m-%d %H%M")


def save_named(autosave: Autosave, name: str) -> Path:
    """Copy the running game's save under a name in `saves/`; returns its path."""
    target = saves_dir() / f"{safe_name(name)}.save"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(autosave.path, target)
    return target


def named_saves(limit: int = 6) -> list[SaveInfo]:
    """The newest named saves first."""
    d = saves_dir()
    if not d.is_dir():
        return []
    paths = sorted(d.glob("*.save"), key=lambda p: p.stat().st_mtime, reverse=True)
    out = []
    for p in paths[:limit]:
        try:
            saved = read_save(p)
        except SaveError:
            continue
        # numbers, not a month's English name: the same in every language
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))
        if UNFINISHED.fullmatch(p.stem):      # told apart by how far they went
            steps = len(saved.commands)
            name = ngettext("unfinished game, {n} step", "unfinished game, {n} steps",
                            steps).format(n=steps)
        else:
            name = p.stem if len(p.stem) <= 26 else p.stem[:25] + "…"
        out.append(SaveInfo(p, f"{name}  ({when})"))
    return out
