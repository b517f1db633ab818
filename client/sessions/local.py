"""A local game in the window (`sim.local.LocalGame`): the people at `human_seats` decide
through the scene, bots elsewhere; a bot's decision is computed in a worker thread
(`pump(wait=s)`) so a hard bot's second of search never freezes the window. The scene's
session interface is declared in `client/sessions/interface.py`.

Tests: tests/client/scenes/test_window.py, tests/client/game/test_comforts_window.py,
tests/client/sessions/test_autosave.py.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from client.sessions.interface import Batch, OfflineSession
from client.sessions.interface import viewed_batch as viewed_batch   # benchmarks/bench_batch_views.py swaps it
from sim import events as ev
from sim import game
from sim.state import DecisionKind
from sim.local import LocalGame
import time
from sim import bots
from sim.local import bot_seed
from sim.commands import SubmitPlan

if TYPE_CHECKING:
    from client.sessions.interface import Seeking
    from sim.commands import Command, SubmitPlan
    from sim.state import Decision, State


class LocalSession(OfflineSession):
    """A local game (`sim.local.LocalGame`): me at `human_seats`, bots elsewhere."""

    study: Seeking | None = None

    def __init__(self, players: int = 4, side: str = "sun", setup: str = "beginner",
                 human_seats: tuple[int, ...] | list[int] = (0,),
                 bot: str | dict[int, str] = "heuristic", seed: int = 1) -> None:
        self.config = game.GameConfig(players=players, side=side, setup=setup)
        self.my_seats = tuple(human_seats)
        self.bots: dict[int, str] = dict(bot) if isinstance(bot, dict) else {
            s: bot for s in range(players) if s not in self.my_seats}
        self.seed = seed
        self.status = ""
        self.queue: deque[Batch] = deque()
        self.source: Path | None = None     # the save this game was resumed from, if any
        # fn(command, state) after each command (autosave)
        self.command_applied: list[Callable[[Command, State], None]] = []
        self.game = LocalGame(self.config, seed, self.bots)
        self.queue.append(Batch(list(self.game.first_events), self.game.state))
        # a worker thread for bots' decisions (pump(wait=…))
        self._pool: cf.ThreadPoolExecutor | None = None
        # (future, state it decides for, seat)
        self._thinking: tuple[cf.Future[Command], State, int] | None = None
        self.thinking_since = 0.0     # time.monotonic() when the running decision began

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def commands(self) -> list[Command]:
        return self.game.commands

    @property
    def decision(self) -> Decision:
        return game.pending(self.game.state)

    @property
    def bot_levels(self) -> dict[int, str]:
        return self.bots

    def step_key(self) -> int:
        return len(self.game.commands)

    def waiting_for_me(self) -> bool:
        d = self.decision
        return d.kind not in (DecisionKind.CHANCE, DecisionKind.OVER) and any(s in self.my_seats for s in d.seats)

    @property
    def thinking(self) -> int | None:
        """The bot seat whose decision is being computed off the frame, or None."""
        return self._thinking[2] if self._thinking is not None else None

    def pump(self, wait: float | None = None) -> bool:
        """Apply one automatic step (chance or a bot). True if something happened.

        `wait=None` decides a bot's move here and now (blocking, as the headless runner
        does). With `wait=s` the move is computed in a worker thread and this returns
        False after at most s seconds if it is not ready (call again next frame): a hard
        bot's second of search never freezes the window. The command is the same either
        way (the bot's seed depends on the command count, its view on the state)."""
        before = self.game.state
        if wait is None and self._thinking is None:
            events: Sequence[ev.Event] | None = self.game.step()
        else:
            events = self._think(wait)
        if events is None:
            return False
        self._queue_step(before, events)
        return True

    def _think(self, wait: float | None) -> Sequence[ev.Event] | None:

        if self._thinking is not None and self._thinking[1] is not self.game.state:
            self._thinking = None          # a person's command came in meanwhile: decide again
        if self._thinking is None:
            d = self.decision
            seat = next((s for s in d.seats if s in self.bots), None) \
                if d.kind not in (DecisionKind.CHANCE, DecisionKind.TOWER, DecisionKind.OVER) else None
            if seat is None:
                return self.game.step()     # chance, a settled drop, or nothing to do
            if self._pool is None:
                self._pool = cf.ThreadPoolExecutor(1, thread_name_prefix="shogun-bot")
            state = self.game.state
            fut = self._pool.submit(bots.choose, state, seat, self.bots[seat],
                                    bot_seed(self.game.game_seed, len(self.game.commands), seat))
            self._thinking = (fut, state, seat)
            self.thinking_since = time.monotonic()
        fut = self._thinking[0]
        try:
            cmd = fut.result(timeout=wait)      # None: wait for it
        except cf.TimeoutError:
            return None
        self._thinking = None
        return self.game.submit(cmd)

    def my_plan(self, seat: int) -> SubmitPlan | None:
        """`seat`'s locked plan of this round (the whole plan is in the local state)."""
        plan = self.game.state.players[seat].plan if seat in self.my_seats else None
        return None if plan is None else SubmitPlan(seat, tuple(plan.actions), plan.bid)

    def submit(self, cmd: Command) -> None:
        before = self.game.state
        events = self.game.submit(cmd)
        self._queue_step(before, events)

    def _queue_step(self, before: State, events: Sequence[ev.Event]) -> None:
        """The step just applied, queued with the engine's view after each event."""
        self.queue.append(viewed_batch(before, self.game.commands[-1:], events, self.game.state))
        for fn in self.command_applied:
            fn(self.game.commands[-1], self.game.state)

    def close(self) -> None:
        self._thinking = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
