"""Where commands go and events come from: a local game or a network table.

The scene talks to one interface:
  `queue`    deque of (events, state) batches not yet shown (the scene animates them in order)
  `state`    the newest sim State (what the engine has reached, maybe ahead of the screen)
  `my_seats` seats this window decides for (empty: spectator)
  `pump()`   local: when nothing is queued and the engine waits for chance or a bot,
             apply one such step; network: nothing (the reactor delivers)
  `submit(cmd)` a command for one of my seats (raises IllegalCommand if not allowed)
  `status`   a sentence for the status bar (lobby, waiting, paused), or ""
The client never changes game state itself: the engine (`sim.game.apply`) does, here or
on every peer.
"""

from __future__ import annotations

from collections import deque

from sim import game


class LocalSession:
    """A local game (`sim.local.LocalGame`): me at `human_seats`, bots elsewhere."""

    kind = "local"

    def __init__(self, players: int = 4, side: str = "sun", setup: str = "beginner",
                 human_seats=(0,), bot: str | dict = "heuristic", seed: int = 1) -> None:
        from sim.local import LocalGame
        self.config = game.GameConfig(players=players, side=side, setup=setup)
        self.my_seats = tuple(human_seats)
        self.bots = dict(bot) if isinstance(bot, dict) else {
            s: bot for s in range(players) if s not in self.my_seats}
        self.seed = seed
        self.status = ""
        self.queue: deque = deque()
        self.source = None            # the save this game was resumed from, if any
        self.command_applied: list = []   # fn(command, state) after each command (autosave)
        self.game = LocalGame(self.config, seed, self.bots)
        self.queue.append((list(self.game.first_events), self.game.state))

    @property
    def state(self):
        return self.game.state

    @property
    def commands(self):
        return self.game.commands

    @property
    def decision(self):
        return game.pending(self.game.state)

    def waiting_for_me(self) -> bool:
        d = self.decision
        return d.kind not in ("chance", "over") and any(s in self.my_seats for s in d.seats)

    def pump(self) -> bool:
        """Apply one automatic step (chance or a bot). True if something happened."""
        events = self.game.step()
        if events is None:
            return False
        self.queue.append((events, self.game.state))
        self._applied()
        return True

    def submit(self, cmd) -> None:
        events = self.game.submit(cmd)
        self.queue.append((events, self.game.state))
        self._applied()

    def _applied(self) -> None:
        for fn in self.command_applied:
            fn(self.game.commands[-1], self.game.state)

    def close(self) -> None:
        pass
