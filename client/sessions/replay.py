"""Watching a finished or saved game in the window, and resuming a save.

* `ReplaySession(path)` with a save (`headless --save`): re-runs its commands through the
  engine one at a time, so every battle tumbles through the tower exactly as it did.
  With a JSON game log (`--log`): plays its events (the board follows the `Snapshot`s
  and the battle events; TowerDropped carries the drop's replay data).
* `resume_local(path)` continues a save with people at its human seats, bots elsewhere.

Tests: tests/client/game/test_comforts_window.py (studying a save),
tests/client/sessions/test_autosave.py (resuming), tests/client/game/test_restored_table.py
(the table restored after Continue and a seek), tests/client/sessions/test_hostile_files.py
(a crafted save or log is a message).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from client.sessions.interface import Batch, OfflineSession, Played, Resumed
from sim.viewed import apply_viewed
from lang.i18n import _
from sim import events as ev
from sim import game
from sim.state import DecisionKind
from store.game_save import replay_into
from store.game_save import read_save
from client.sessions.local import LocalSession
from store.game_log import is_log, read_log
from sim.local import LocalGame
from store.game_save import read_save, replay_into

if TYPE_CHECKING:
    from client.sessions.local import LocalSession
    from sim.commands import Command
    from store.game_save import SavedGame


class ReplaySession(OfflineSession):
    my_seats: tuple[int, ...] = ()
    thinking = None
    thinking_since = 0.0

    def __init__(self, path: str) -> None:
        if not path:
            raise ValueError(_("Give the file name in the box above."))
        p = Path(path).expanduser()
        if not p.exists():
            raise ValueError(_("No such file: {path}").format(path=p))
        self.queue: deque[Batch] = deque()
        self._path = str(p)
        self.status = ""
        self._step = 0
        self._rounds: list[int] | None = None
        self._events: list[ev.Event] = []
        self._state: game.State | None
        self._commands: list[Command] | None
        if is_log(p):      # every event checked as it is read: a hostile log is a SaveError
            self._events = [row.event for row in read_log(p)]
            start = self._events[0]
            assert start["event"] == "GameStarted"      # `read_log` refuses another first
            self.config = game.GameConfig(start["players"], start["side"], start["setup"])
            self._state = None
            self._commands = None
            self.status = _("Replaying a game log (it plays forward only)")
            # the table set up as the log's game starts, at once: the log's own first
            # Snapshot comes only after the set-up, the tower's fill and the year's cards
            # (an empty map, an empty players panel and " of year 1" for seconds)
            first, _events = game.new_game(self.config)
            self.queue.append(Batch([{"event": "Snapshot", "state": game.public_state(first)}], None))
        else:
            saved = read_save(p)
            # every command applied and its hash checked now, so a damaged or hostile save
            # is a message at once, never a failure halfway through the film
            replay_into(LocalGame(saved.config, saved.seed, {}), saved)
            self.config = saved.config
            self._commands = list(saved.commands)
            self._state, events = game.new_game(self.config)
            self.queue.append(Batch(events, self._state))
            self.status = _("Replaying a saved game")

    @property
    def state(self) -> game.State | None:
        return self._state

    @property
    def commands(self) -> list[None]:
        return [None] * self._step

    @property
    def decision(self) -> game.Decision | None:
        """What the engine waits for; None for a game log (its events play without one)."""
        if self._state is None:
            return None
        return game.pending(self._state)

    @property
    def bot_levels(self) -> dict[int, str]:
        return {}

    @property
    def study(self) -> ReplaySession | None:
        """A save can be studied step by step; a game log only plays forward."""
        return self if self.seekable else None

    def step_key(self) -> int:
        return self._step

    def waiting_for_me(self) -> bool:
        return False

    def pump(self, wait: float | None = None) -> bool:
        if self._commands is None:
            # a log: hand over events up to and including the next notable one
            if self._step >= len(self._events):
                return False
            batch: list[Played] = []
            while self._step < len(self._events):
                e = self._events[self._step]
                self._step += 1
                batch.append(e)
                # a drop goes with its battle's result, so the battle view names the sides
                if e["event"] == "TowerDropped" and e["reason"] in ("battle", "revolt"):
                    continue
                if e["event"] in ("TowerDropped", "ActionDone", "Moved", "RoundStarted",
                                      "BattleResolved", "Scored", "Snapshot"):
                    break
            self.queue.append(Batch(batch, None))
            return True
        assert self._state is not None      # a save: the engine's state from the start
        if self._step >= len(self._commands):
            if game.pending(self._state).kind != DecisionKind.OVER:
                self.status = _("End of the save")
            return False
        command = self._commands[self._step]
        self._state, events, views = apply_viewed(self._state, command)
        self._step += 1
        self.queue.append(Batch(events, self._state, views))
        return True

    def submit(self, cmd: Command) -> None:
        raise ValueError("a replay takes no commands")

    # -- studying a save: step back and forth, jump by round ------------------------------
    @property
    def seekable(self) -> bool:
        return self._commands is not None

    def forward_only_note(self) -> str:
        """What ← Page Up/Down Home say in a game log (they step through a save only)."""
        return _("A game log plays forward only: to step back or jump by round, replay the "
                 "game's save (headless --save FILE).")

    @property
    def steps(self) -> int:
        return len(self._commands or [])

    @property
    def step(self) -> int:
        """Commands applied so far."""
        return self._step

    def seek(self, step: int) -> tuple[game.State, list[ev.Event]]:
        """Go to the state after `step` commands (re-applied from the start: a whole game
        takes well under a second); the queue is emptied. Returns the state and the events
        that led to it (the log is rebuilt from them)."""
        step = max(0, min(step, self.steps))
        state, events = game.new_game(self.config)
        past: list[ev.Event] = list(events)
        for cmd in (self._commands or [])[:step]:
            state, events = game.apply(state, cmd)
            past.extend(events)
        self._state, self._step = state, step
        self.queue.clear()
        return state, past

    @property
    def path(self) -> str:
        """The file replayed (a film of one of its battles is made from it)."""
        return self._path

    def battles_until(self, step: int) -> int:
        """How many battles (a revolt is one) the first `step` commands fought."""
        state, _ = game.new_game(self.config)
        n = 0
        for cmd in (self._commands or [])[:step]:
            state, events = game.apply(state, cmd)
            n += sum(1 for e in events if e["event"] == "TowerDropped"
                     and e["reason"] in ("battle", "revolt"))
        return n

    def round_starts(self) -> list[int]:
        """Steps at which a new round (or winter) begins: where the season changes."""
        if self._rounds is None:
            state, _ = game.new_game(self.config)
            marks, last = [0], (state.year, state.season)
            for k, cmd in enumerate(self._commands or []):
                state, _ = game.apply(state, cmd)
                if (state.year, state.season) != last:
                    marks.append(k + 1)
                    last = (state.year, state.season)
            self._rounds = marks
        return self._rounds

    def close(self) -> None:
        pass


def resume_local(path: str, seat: int | None = None) -> tuple[LocalSession, SavedGame]:
    """A LocalSession continuing a save: people at the save's human seats (or at `seat`),
    the save's bots elsewhere. Every command is re-applied and its state hash checked
    (a `SaveError` names the first one that differs). Returns (session, saved)."""
    source = Path(path).expanduser()
    saved = read_save(source)
    players = saved.config.players
    humans = (seat,) if seat is not None else (saved.humans or (0,))
    bots = {s: (saved.bots[s] if s < len(saved.bots) else saved.bots[0] if saved.bots else "heuristic")
            for s in range(players) if s not in humans}
    session = LocalSession(players, saved.config.side, saved.config.setup, humans, bots,
                           saved.seed)
    session.source = source
    session.queue.clear()
    events = replay_into(session.game, saved)
    # a finished save: only the standings (the scene goes straight to the end screen)
    # the events so far ride on the Resumed event: the log is restored from them, not replayed
    tail: list[Played] = [e for e in events if e["event"] == "GameEnded"]
    resumed: Resumed = {"event": "Resumed", "past": [e for e in events if e["event"] != "GameEnded"]}
    session.queue.append(Batch([resumed, *tail], session.game.state))
    return session, saved
