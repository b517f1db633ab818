"""The sim as `net` sees it: one small object, so tests can swap in a fake game.

Why an adapter: the lockstep core needs only a handful of pure functions from `sim`
(new_game, apply, pending, state_hash, the command wire forms and the bots). Keeping
them behind one object lets the protocol be tested against a tiny counting game, and
keeps every `sim` import in one place.
"""

from __future__ import annotations

from typing import Any


class SimEngine:
    """The real rules (`sim.game`, `sim.bots`, `sim.commands`)."""

    name = "shogun"

    def __init__(self) -> None:
        from sim import bots, commands, game
        self._game, self._bots, self._commands = game, bots, commands
        self.IllegalCommand = commands.IllegalCommand

    def config(self, players: int, side: str, setup: str) -> Any:
        return self._game.GameConfig(players=players, side=side, setup=setup)

    def config_wire(self, config: Any) -> dict:
        return {"players": config.players, "side": config.side, "setup": config.setup}

    def config_from_wire(self, wire: dict) -> Any:
        """The host's config from `GameStarted`, checked by the sim's own rule
        (`GameConfig.check`, which `new_game` would raise later); the error names the
        field as the table's players always read it."""
        players, side, setup = wire.get("players"), wire.get("side"), wire.get("setup")
        config = self.config(players, side, setup)
        try:
            config.check()
        except self.IllegalCommand as exc:
            if exc.rule == "R-COMP-1":
                raise ValueError(f"bad player count {players!r:.20}") from None
            raise ValueError(f"bad side/setup {side!r:.20}/{setup!r:.20}") from None
        return config

    def new_game(self, config: Any):
        return self._game.new_game(config)

    def apply(self, state: Any, command: Any):
        return self._game.apply(state, command)

    def pending(self, state: Any):
        return self._game.pending(state)

    def state_hash(self, state: Any) -> str:
        return self._game.state_hash(state)

    def encode_state(self, state: Any) -> bytes:
        return self._game.encode_state(state)

    def decode_state(self, data: bytes) -> Any:
        return self._game.decode_state(data)

    def public_state(self, state: Any) -> dict:
        return self._game.public_state(state)

    def choose(self, state: Any, seat: int, bot: str, seed: int) -> Any:
        return self._bots.choose(state, seat, bot, seed)

    def chance(self, seed: bytes) -> Any:
        return self._commands.Chance(seed)

    def settle(self, decision: Any) -> Any:
        """The physics' outcome of the drop a `tower` decision waits for."""
        from sim.tower import drop as tower
        return tower.settle(decision)

    # plans opened field by field (net.lockstep.plan_steps)
    def commit_plan(self, seat: int) -> Any:
        return self._commands.CommitPlan(seat)

    def open_field(self, seat: int, field: str, card: Any) -> Any:
        return self._commands.OpenField(seat, field, card)

    def forfeit_field(self, seat: int, field: str) -> Any:
        return self._commands.ForfeitField(seat, field)

    def plan_cards(self, plan: Any) -> dict[str, Any]:
        """A whole plan (`SubmitPlan`) as its card per field (`PLAN_FIELDS`)."""
        return {**plan.action_map(), "bid": plan.bid}

    def to_wire(self, command: Any) -> dict:
        return self._commands.to_wire(command)

    def from_wire(self, wire: Any) -> Any:
        return self._commands.from_wire(wire)

    def seat_of(self, command: Any) -> int | None:
        return self._commands.seat_of(command)

    def standings(self, state: Any) -> list[tuple[int, int, int]]:
        """(seat, score, money) best first, from the public state."""
        players = self.public_state(state).get("players", {})
        rows = [(int(s), p.get("score", 0), p.get("money", 0)) for s, p in players.items()]
        return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))
