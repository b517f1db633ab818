"""Driving a game on one machine: chance from the game seed, tower drops from the physics,
bot seats from `sim.bots`.

Used by the headless runner, the window's local games and the tests. Pure: the caller does
any I/O with the events and commands it gets back.

Tests: tests/sim/test_determinism.py, tests/cli/test_headless.py.
"""

from __future__ import annotations

import hashlib
from typing import Iterator

from sim import bots
from sim.chance import seed_for
from sim.commands import Chance, Command
from sim.events import Events
from sim.game import GameConfig, apply, new_game, pending
from sim.state import DecisionKind, State
from sim.tower import drop as tower


def bot_seed(game_seed: int | bytes, step: int, seat: int) -> bytes:
    base = game_seed if isinstance(game_seed, bytes) else str(game_seed).encode()
    return hashlib.sha256(b"shogun-bot/" + base + b"/%d/%d" % (step, seat)).digest()


class LocalGame:
    """A game whose chance and bot seats are answered here; human seats answer via `submit`.

    `seat_bots` maps seat -> bot name; seats not in it are human. `commands` is the full
    command log (enough to replay the game exactly).
    """

    def __init__(self, config: GameConfig, game_seed: int | bytes,
                 seat_bots: dict[int, str]) -> None:
        self.config = config
        self.game_seed = game_seed
        self.seat_bots = dict(seat_bots)
        self.state, self.first_events = new_game(config)
        self.commands: list[Command] = []

    @property
    def over(self) -> bool:
        return pending(self.state).kind == DecisionKind.OVER

    def automatic_command(self) -> Command | None:
        """The next command chance or a bot would give now, or None if a human must act."""
        d = pending(self.state)
        if d.kind == DecisionKind.OVER:
            return None
        if d.kind == DecisionKind.CHANCE:
            return Chance(seed_for(self.game_seed, self.state.chance_count))
        if d.kind == DecisionKind.TOWER:
            return tower.settle(d)
        for seat in d.seats:
            if seat in self.seat_bots:
                return bots.choose(self.state, seat, self.seat_bots[seat],
                                   bot_seed(self.game_seed, len(self.commands), seat))
        return None

    def submit(self, command: Command) -> Events:
        """Apply a command (IllegalCommand leaves the game unchanged)."""
        self.state, events = apply(self.state, command)
        self.commands.append(command)
        return events

    def step(self) -> Events | None:
        """Apply one automatic command; None when a human must act or the game is over."""
        cmd = self.automatic_command()
        if cmd is None:
            return None
        return self.submit(cmd)

    def run(self) -> Iterator[Events]:
        """Apply automatic commands until a human must act or the game ends."""
        while True:
            events = self.step()
            if events is None:
                return
            yield events


def play_bots(config: GameConfig, game_seed: int | bytes, bot_names: list[str]) -> tuple[State, Events]:
    """A whole bot game: (final state, all events)."""
    game = LocalGame(config, game_seed, dict(enumerate(bot_names)))
    events = list(game.first_events)
    for batch in game.run():
        events.extend(batch)
    return game.state, events
