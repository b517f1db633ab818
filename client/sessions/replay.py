"""Watching a finished or saved game in the window, and resuming a save.

* `ReplaySession(path)` with a save (`headless --save`): re-runs its commands through the
  engine one at a time, so every battle tumbles through the tower exactly as it did.
  With a JSON game log (`--log`): plays its events (the board follows the `Snapshot`s
  and the battle events; TowerDropped carries the drop's replay data), step by step
  (`log_steps`). Both seek back and forth like a save (`seek`: rebuilt from the start).
* `resume_local(path)` continues a save with people at its human seats, bots elsewhere.

Tests: tests/client/game/test_comforts_window.py (studying a save),
tests/client/sessions/test_autosave.py (resuming), tests/client/game/test_restored_table.py
(the table restored after Continue and a seek), tests/client/sessions/test_hostile_files.py
(a crafted save or log is a message), tests/client/sessions/test_log_replay_window.py
(a log opens on its table and seeks both ways).
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from client.sessions.display_patches import patched
from client.sessions.interface import Batch, OfflineSession, Played, Resumed, Sought
from client.sessions.local import LocalSession
from lang.i18n import _
from sim import events as ev
from sim import game
from sim.local import LocalGame
from sim.state import DecisionKind
from sim.tower.contents import TowerContents
from sim.viewed import apply_viewed
from store.game_log import is_log, read_log
from store.game_save import read_save, replay_into

if TYPE_CHECKING:
    from sim.commands import Command
    from sim.snapshot import PublicState
    from store.game_save import SavedGame

def ends_step(e: ev.Event) -> bool:
    """A game log's step ends with a notable event (a battle's drop goes on to its result)."""
    if e["event"] == "TowerDropped":
        return e["reason"] not in ("battle", "revolt")
    return e["event"] in ("ActionDone", "Moved", "RoundStarted", "BattleResolved", "Scored",
                          "Snapshot")


def log_steps(events: Sequence[ev.Event]) -> list[int]:
    """Where each step of a game log ends, as an index into its events. Step 0 is the
    game at its first `Snapshot` (the set-up, the tower's fill and the year's cards said at
    once, the fill not played: the window opens on the table, issue 49); each later step
    runs up to and including the next notable event, a battle's drop with its result."""
    first = next((i for i, e in enumerate(events) if e["event"] == "Snapshot"), len(events) - 1)
    bounds = [first + 1]
    bounds += [i + 1 for i in range(first + 1, len(events)) if ends_step(events[i])]
    if bounds[-1] < len(events):
        bounds.append(len(events))
    return bounds


def tower_after(events: Sequence[ev.Event], at: int) -> list[list[int]]:
    """The tower's resting contents after a log's first `at` events: the next drop's
    `before` (contents change only by drops), else the last drop re-run (one drop of
    physics, without its recording), else empty."""
    for e in events[at:]:
        if e["event"] == "TowerDropped":
            return [list(c) for c in e["replay"]["before"]]
    last = next((e for e in reversed(events[:at]) if e["event"] == "TowerDropped"), None)
    if last is None or last["event"] != "TowerDropped":
        return []
    from sim.tower.drop import drop    # pymunk: only when a seek lands after the last drop
    rep = last["replay"]
    res = drop(TowerContents.from_wire(rep["before"]),
                     {int(c): int(n) for c, n in rep["thrown"]}, bytes.fromhex(rep["seed"]))
    return res.contents.to_wire()


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
        self._bounds: list[int] = []      # a log: where each of its steps ends (`log_steps`)
        self._setup: PublicState | None = None
        self._state: game.State | None
        self._commands: list[Command] | None
        if is_log(p):      # every event checked as it is read: a hostile log is a SaveError
            self._events = [row.event for row in read_log(p)]
            start = self._events[0]
            assert start["event"] == "GameStarted"      # `read_log` refuses another first
            self.config = game.GameConfig(start["players"], start["side"], start["setup"])
            self._state = None
            self._commands = None
            self._bounds = log_steps(self._events)
            # the table as set up (the log's set-up events make this very board): a seek
            # in the log starts from it; the scene shows step 0 at once (`ReplayControls.open`)
            self._setup = game.public_state(game.new_game(self.config)[0])
            self.status = ""      # the replay controls say the step and the keys
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
    def study(self) -> ReplaySession:
        """A save or a game log, studied step by step (back, forward, by round)."""
        return self

    def step_key(self) -> int:
        return self._step

    def waiting_for_me(self) -> bool:
        return False

    def pump(self, wait: float | None = None) -> bool:
        if self._commands is None:
            # a log: hand over its next step's events
            if self._step >= self.steps:
                return False
            batch: list[Played] = list(self._events[self._bounds[self._step]:self._bounds[self._step + 1]])
            self._step += 1
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

    # -- studying a replay: step back and forth, jump by round ---------------------------
    @property
    def is_log(self) -> bool:
        """A JSON game log (its steps are batches of events), not a save (commands)."""
        return self._commands is None

    @property
    def steps(self) -> int:
        if self._commands is None:
            return len(self._bounds) - 1
        return len(self._commands)

    @property
    def step(self) -> int:
        """Steps shown or in flight so far: a save's commands applied, a log's batches."""
        return self._step

    def seek(self, step: int) -> Sought:
        """Go to the table after `step` steps, rebuilt from the start (a save's commands
        re-applied: a whole game takes well under a second; a log's events patched onto
        its last Snapshot); the queue is emptied. Returns the events that led there (the
        log is rebuilt from them), the public state and the tower's contents."""
        step = max(0, min(step, self.steps))
        self.queue.clear()
        self._step = step
        if self._commands is None:
            past = self._events[:self._bounds[step]]
            assert self._setup is not None           # a log starts from its set-up
            board = patched(copy.deepcopy(self._setup), past)
            return Sought(list(past), board, tower_after(self._events, len(past)))
        state, events = game.new_game(self.config)
        said: list[ev.Event] = list(events)
        for cmd in self._commands[:step]:
            state, events = game.apply(state, cmd)
            said.extend(events)
        self._state = state
        return Sought(said, game.public_state(state), state.tower.to_wire())

    @property
    def path(self) -> str:
        """The file replayed (a film of one of its battles is made from it)."""
        return self._path

    def battles_until(self, step: int) -> int:
        """How many battles (a revolt is one) the first `step` steps fought."""
        if self._commands is None:
            return sum(1 for e in self._events[:self._bounds[min(step, self.steps)]]
                       if e["event"] == "TowerDropped" and e["reason"] in ("battle", "revolt"))
        state, _ = game.new_game(self.config)
        n = 0
        for cmd in self._commands[:step]:
            state, events = game.apply(state, cmd)
            n += sum(1 for e in events if e["event"] == "TowerDropped"
                     and e["reason"] in ("battle", "revolt"))
        return n

    def round_starts(self) -> list[int]:
        """Steps at which a new round (or winter) begins: where the season changes (a
        log: the steps that start a round or a winter)."""
        if self._rounds is None:
            if self._commands is None:
                self._rounds = [0] + [k + 1 for k in range(self.steps) if any(
                    e["event"] in ("RoundStarted", "WinterStarted")
                    for e in self._events[self._bounds[k]:self._bounds[k + 1]])]
                return self._rounds
            state, _ = game.new_game(self.config)
            marks, last = [0], (state.year, state.season)
            for k, cmd in enumerate(self._commands):
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
