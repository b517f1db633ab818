"""The sim as `net` sees it: one small object, so tests can swap in a fake game.

Why an adapter: the lockstep core needs only a handful of pure functions from `sim`
(new_game, apply, pending, state_hash, the command wire forms and the bots). Keeping
them behind one object lets the protocol be tested against a tiny counting game, and
keeps every `sim` import in one place. `GameEngine` is what the lockstep asks of any
engine; states and commands are the engine's own (`Any` there: the core never looks
inside them, and the counting game of the tests has other types than the sim).

Tests: tests/net/lockstep/test_real_engine.py (the real rules over the lockstep);
tests/net/fake_game.py is the counting game with the same interface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, cast

from net.transport.messages import PlanCard, Wire

if TYPE_CHECKING:
    from sim import events as ev
    from sim.commands import Command, SubmitPlan
    from sim.snapshot import PublicState
    from sim.state import Decision, GameConfig, State

EngineState = Any       # the engine's game state (`sim.state.State` for the real rules)
EngineCommand = Any     # the engine's command (`sim.commands.Command`)
EngineEvent = Any       # one event the engine reports (a dict for the real rules)
EngineConfig = Any      # the engine's game configuration (`sim.state.GameConfig`)
Applied = tuple[EngineState, list[EngineEvent]]    # what `apply` returns


def sim_events(events: list[EngineEvent]) -> list[ev.Event]:
    """The engine's events as the records `sim.events` declares (a tagged union, narrowed
    by its `event` name): taken so once, where the table hands a step's events to its
    owner (`net.table.play.Play.events_happened`), as `net.transport.message_records`
    takes a checked message as its record. The real rules' events are those records; a
    test's counting game has its own, which its test reads as it likes."""
    return cast("list[ev.Event]", events)


class PendingDecision(Protocol):
    """What the lockstep reads of the engine's pending decision (`sim.state.Decision`);
    its kind compares equal to the strings "plan", "chance", ... (a str or a StrEnum)."""

    @property
    def kind(self) -> str: ...

    @property
    def seats(self) -> tuple[int, ...]: ...

    @property
    def purpose(self) -> str: ...


class GameEngine(Protocol):
    """The pure functions the lockstep core needs from an engine (`SimEngine`)."""

    def new_game(self, config: EngineConfig) -> Applied: ...

    def apply(self, state: EngineState, command: EngineCommand) -> Applied: ...

    def pending(self, state: EngineState) -> PendingDecision: ...

    def state_hash(self, state: EngineState) -> str: ...

    def choose(self, state: EngineState, seat: int, bot: str, seed: bytes) -> EngineCommand: ...

    def chance(self, seed: bytes) -> EngineCommand: ...

    def settle(self, decision: PendingDecision) -> EngineCommand: ...

    def commit_plan(self, seat: int) -> EngineCommand: ...

    def open_field(self, seat: int, field: str, card: PlanCard) -> EngineCommand: ...

    def forfeit_field(self, seat: int, field: str) -> EngineCommand: ...

    def plan_cards(self, plan: EngineCommand) -> dict[str, PlanCard]: ...

    def to_wire(self, command: EngineCommand) -> Wire: ...

    def from_wire(self, wire: object) -> EngineCommand: ...

    def seat_of(self, command: EngineCommand) -> int | None: ...


class SimEngine:
    """The real rules (`sim.game`, `sim.bots`, `sim.commands`)."""

    name = "shogun"

    def __init__(self) -> None:
        from sim import bots, commands, game
        self._game, self._bots, self._commands = game, bots, commands
        self.IllegalCommand = commands.IllegalCommand
        from sim.tower.build import deterministic_here
        # my drops can be checked by any other deterministic peer (`net.lockstep.tower_vote`)
        self.deterministic: bool = deterministic_here()

    def prepare(self) -> None:
        """Read every file the game needs now, before the table accepts strangers (issue 26
        item 2): the board and the cards, and the tower's modules (pymunk). Later, a host
        whose open files a flood has used up could not open them at the start, and the
        game would fail on this machine's limit."""
        from sim.board import board
        from sim.cards import cards
        from sim.tower import drop  # noqa: F401  (imported for its side: loaded now)
        board()
        cards()

    def config(self, players: int, side: str, setup: str) -> GameConfig:
        return self._game.GameConfig(players=players, side=side, setup=setup)

    def config_wire(self, config: GameConfig) -> dict[str, object]:
        return {"players": config.players, "side": config.side, "setup": config.setup}

    def config_from_wire(self, wire: Mapping[str, object]) -> GameConfig:
        """The host's config from `GameStarted`, checked by the sim's own rule
        (`GameConfig.check`, which `new_game` would raise later); the error names the
        field as the table's players always read it."""
        players: Any = wire.get("players")       # wire values, checked by `check`
        side: Any = wire.get("side")
        setup: Any = wire.get("setup")
        config = self.config(players, side, setup)
        try:
            config.check()
        except self.IllegalCommand as exc:
            if exc.rule == "R-COMP-1":
                raise ValueError(f"bad player count {players!r:.20}") from None
            raise ValueError(f"bad side/setup {side!r:.20}/{setup!r:.20}") from None
        return config

    def new_game(self, config: GameConfig) -> tuple[State, ev.Events]:
        return self._game.new_game(config)

    def apply(self, state: State, command: Command) -> tuple[State, ev.Events]:
        return self._game.apply(state, command)

    def pending(self, state: State) -> Decision:
        return self._game.pending(state)

    def state_hash(self, state: State) -> str:
        return self._game.state_hash(state)

    def encode_state(self, state: State) -> bytes:
        return self._game.encode_state(state)

    def decode_state(self, data: bytes) -> State:
        return self._game.decode_state(data)

    def public_state(self, state: State) -> PublicState:
        return self._game.public_state(state)

    def choose(self, state: State, seat: int, bot: str, seed: bytes) -> Command:
        return self._bots.choose(state, seat, bot, seed)

    def chance(self, seed: bytes) -> Command:
        return self._commands.Chance(seed)

    def settle(self, decision: PendingDecision) -> Command:
        """The physics' outcome of the drop a `tower` decision waits for (`decision` is
        the rules' own `Decision`, as `pending` gave it)."""
        from sim.tower import drop as tower
        return tower.settle(cast("Decision", decision))

    # plans opened field by field (net.lockstep.plan_steps)
    def commit_plan(self, seat: int) -> Command:
        return self._commands.CommitPlan(seat)

    def open_field(self, seat: int, field: str, card: PlanCard) -> Command:
        return self._commands.OpenField(seat, field, card)

    def forfeit_field(self, seat: int, field: str) -> Command:
        return self._commands.ForfeitField(seat, field)

    def plan_cards(self, plan: Command) -> dict[str, PlanCard]:
        """A whole plan (`SubmitPlan`) as its card per field (`PLAN_FIELDS`)."""
        whole = cast("SubmitPlan", plan)
        return {**whole.action_map(), "bid": whole.bid}

    def to_wire(self, command: Command) -> Wire:
        return self._commands.to_wire(command)

    def from_wire(self, wire: object) -> Command:
        return self._commands.from_wire(wire)

    def seat_of(self, command: Command) -> int | None:
        return self._commands.seat_of(command)

    def standings(self, state: State) -> list[tuple[int, int, int]]:
        """(seat, score, money) best first, from the public state."""
        players = self.public_state(state).get("players", {})
        rows = [(int(s), p.get("score", 0), p.get("money", 0)) for s, p in players.items()]
        return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))
