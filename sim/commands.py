"""Commands: the only way a game state changes. Plain frozen data with a wire form.

A command's wire form is a msgpack-friendly dict with a `type` field. `from_wire` is the
single gate for untrusted input (network frames, save files): it checks every field's type
and range and raises `MalformedCommand` naming the fault. Whether a well-formed command is
*legal* is decided later by the rules (`IllegalCommand`).

Tests: tests/sim/test_codec.py, tests/sim/rules/test_illegal.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union, cast, get_args

from sim.cards import cards
from sim.tower.contents import COLOURS, MAX_CUBES, TowerContents

ACTIONS = cards().action_names      # canonical action order: plans list fields in it
PLAN_FIELDS = ACTIONS + ("bid",)    # what a plan commits to, one field at a time
DRAFT_CHOICES = ("up0", "up1", "deck", "refresh")
MAX_NAME = 40


class MalformedCommand(ValueError):
    """A command's wire form has a wrong type, a missing field or a value out of range."""


class IllegalCommand(ValueError):
    """A well-formed command that the rules do not allow now.

    `str(exc)` is the sentence a player reads ("Put a province card on at least 6 action
    fields."); `exc.rule` is the rule id (`R-PLAN-3`) for tests and logs, never shown to
    players.
    """

    def __init__(self, rule: str, reason: str) -> None:
        reason = reason[:1].upper() + reason[1:]
        if reason and reason[-1] not in ".!?":
            reason += "."
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


@dataclass(frozen=True)
class Chance:
    """The random input the physical game would reveal now (32 bytes)."""
    seed: bytes


@dataclass(frozen=True)
class SubmitPlan:
    """A seat's secret plan: a province (or None = a money card) per action, and the bid.

    `actions` is a tuple of 10 entries in `ACTIONS` order. `bid` is an int 0-4 (money card),
    a province name (province card), or None (no card left).
    """
    seat: int
    actions: tuple[str | None, ...]
    bid: int | str | None

    def action_map(self) -> dict[str, str | None]:
        return dict(zip(ACTIONS, self.actions))


@dataclass(frozen=True)
class CommitPlan:
    """A seat has locked a plan whose fields the others do not hold yet (a network game).

    Each field (the 10 actions and the bid, `PLAN_FIELDS`) is opened later by its owner
    with `OpenField`, only when the rules turn that card (R-PLAN-5, R-EXEC-2).
    """
    seat: int


@dataclass(frozen=True)
class OpenField:
    """The owner turns one card of a committed plan: `field` is an action or "bid"; `card`
    a province name, a money card value (bid), or None (a money card on an action field)."""
    seat: int
    field: str
    card: int | str | None


@dataclass(frozen=True)
class ForfeitField:
    """A card of a committed plan that nobody can open: its owner left and a bot took the
    seat over, and the bot never held the human's secret plan. Ruling R-FORFEIT-1: the
    field counts as a money card (an action field: no action; the bid: a money card 0).
    Only the network layer issues it, for a seat a bot plays (the engine cannot know who
    plays a seat); it answers the same `open` decision as `OpenField`."""
    seat: int
    field: str


# how the table came to a drop's outcome (see `TowerSettled.decided_by`)
TowerDecider = Literal["physics", "majority", "model"]
TOWER_DECIDERS: tuple[TowerDecider, ...] = get_args(TowerDecider)


@dataclass(frozen=True)
class TowerSettled:
    """Where a drop's cubes ended: `out` onto the tray, `contents` still inside.

    An input like chance (DESIGN): computed by `sim.tower.drop.settle`, agreed among peers,
    checked by the rules (every cube accounted for) before it is applied.
    """
    out: tuple[tuple[int, int], ...]     # (colour, n), colours ascending, n > 0
    contents: TowerContents
    # how the table came to this outcome (the game log's `TowerDropped.decided_by`):
    # "physics" (computed: a local game, or the deterministic build at a network table),
    # "majority" (a strict majority of the voters' platform builds), "model" (no strict
    # majority: `sim.tower.fallback`, seeded by the drop's seed, which no player chooses)
    decided_by: TowerDecider = "physics"

    def out_counts(self) -> dict[int, int]:
        return dict(self.out)


@dataclass(frozen=True)
class DraftTake:
    """Draft (R-SETUP-5): take face-up card 0 or 1, the deck's top card, or refresh the two."""
    seat: int
    choice: str


@dataclass(frozen=True)
class DraftPlace:
    """Draft: put one not-yet-placed army group of this size on the card just taken."""
    seat: int
    armies: int


@dataclass(frozen=True)
class PickSpecial:
    """Turn order (R-BID-3): take the special card at position 1-5."""
    seat: int
    position: int


@dataclass(frozen=True)
class ChooseMove:
    """Where the armies of a deploy1 / battle action go. target None = no move (deploy1)."""
    seat: int
    target: str | None
    count: int


@dataclass(frozen=True)
class OrderRevolts:
    """Winter (R-WINTER-3): the order in which this seat's revolts are resolved."""
    seat: int
    provinces: tuple[str, ...]


Command = Union[Chance, SubmitPlan, CommitPlan, OpenField, ForfeitField, TowerSettled, DraftTake, DraftPlace,
                PickSpecial, ChooseMove, OrderRevolts]


def to_wire(cmd: Command) -> dict[str, Any]:
    if isinstance(cmd, Chance):
        return {"type": "Chance", "seed": cmd.seed}
    if isinstance(cmd, SubmitPlan):
        return {"type": "SubmitPlan", "seat": cmd.seat,
                "actions": {a: p for a, p in zip(ACTIONS, cmd.actions)}, "bid": cmd.bid}
    if isinstance(cmd, CommitPlan):
        return {"type": "CommitPlan", "seat": cmd.seat}
    if isinstance(cmd, OpenField):
        return {"type": "OpenField", "seat": cmd.seat, "field": cmd.field, "card": cmd.card}
    if isinstance(cmd, ForfeitField):
        return {"type": "ForfeitField", "seat": cmd.seat, "field": cmd.field}
    if isinstance(cmd, TowerSettled):
        wire = {"type": "TowerSettled", "out": [[c, n] for c, n in cmd.out],
                "contents": cmd.contents.to_wire()}
        if cmd.decided_by != "physics":
            wire["decided_by"] = cmd.decided_by
        return wire
    if isinstance(cmd, DraftTake):
        return {"type": "DraftTake", "seat": cmd.seat, "choice": cmd.choice}
    if isinstance(cmd, DraftPlace):
        return {"type": "DraftPlace", "seat": cmd.seat, "armies": cmd.armies}
    if isinstance(cmd, PickSpecial):
        return {"type": "PickSpecial", "seat": cmd.seat, "position": cmd.position}
    if isinstance(cmd, ChooseMove):
        return {"type": "ChooseMove", "seat": cmd.seat, "target": cmd.target, "count": cmd.count}
    if isinstance(cmd, OrderRevolts):
        return {"type": "OrderRevolts", "seat": cmd.seat, "provinces": list(cmd.provinces)}
    raise TypeError(f"not a command: {cmd!r}")


def _field(wire: dict[str, Any], name: str, kinds: tuple[type, ...], what: str) -> Any:
    if name not in wire:
        raise MalformedCommand(f"{what}: missing field '{name}'")
    value = wire[name]
    # bool is an int subclass; never accept it where a number is meant
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise MalformedCommand(f"{what}: field '{name}' has wrong type {type(value).__name__}")
    return value


def _seat(wire: dict[str, Any], what: str) -> int:
    seat: int = _field(wire, "seat", (int,), what)
    if not 0 <= seat <= 4:
        raise MalformedCommand(f"{what}: seat {seat} out of range 0-4")
    return seat


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise MalformedCommand(f"{what}: bad province name {value!r:.60}")
    return value


def from_wire(wire: Any) -> Command:
    """Parse an untrusted wire dict into a command, or raise `MalformedCommand`."""
    if not isinstance(wire, dict):
        raise MalformedCommand(f"command is a {type(wire).__name__}, not a map")
    kind = wire.get("type")
    what = f"command {kind!r:.40}"
    if kind == "Chance":
        seed = _field(wire, "seed", (bytes,), what)
        if len(seed) != 32:
            raise MalformedCommand(f"{what}: seed must be 32 bytes, got {len(seed)}")
        return Chance(seed)
    if kind == "SubmitPlan":
        seat = _seat(wire, what)
        actions = _field(wire, "actions", (dict,), what)
        if set(actions) != set(ACTIONS):
            raise MalformedCommand(f"{what}: actions must name exactly the 10 actions")
        plan = tuple(None if actions[a] is None else _name(actions[a], what) for a in ACTIONS)
        if "bid" not in wire:
            raise MalformedCommand(f"{what}: missing field 'bid'")
        bid = wire["bid"]
        if isinstance(bid, bool) or not (bid is None or isinstance(bid, (int, str))):
            raise MalformedCommand(f"{what}: bid has wrong type {type(bid).__name__}")
        if isinstance(bid, int) and not 0 <= bid <= 4:
            raise MalformedCommand(f"{what}: money bid {bid} is not a card 0-4")
        if isinstance(bid, str):
            _name(bid, what)
        return SubmitPlan(seat, plan, bid)
    if kind == "CommitPlan":
        return CommitPlan(_seat(wire, what))
    if kind == "OpenField":
        seat = _seat(wire, what)
        field = _field(wire, "field", (str,), what)
        if field not in PLAN_FIELDS:
            raise MalformedCommand(f"{what}: field must be one of {', '.join(PLAN_FIELDS)}")
        if "card" not in wire:
            raise MalformedCommand(f"{what}: missing field 'card'")
        card = wire["card"]
        if isinstance(card, bool) or not (card is None or isinstance(card, (int, str))):
            raise MalformedCommand(f"{what}: card has wrong type {type(card).__name__}")
        if isinstance(card, int) and not 0 <= card <= 4:
            raise MalformedCommand(f"{what}: money card {card} is not a card 0-4")
        if isinstance(card, str):
            _name(card, what)
        return OpenField(seat, field, card)
    if kind == "ForfeitField":
        seat = _seat(wire, what)
        field = _field(wire, "field", (str,), what)
        if field not in PLAN_FIELDS:
            raise MalformedCommand(f"{what}: field must be one of {', '.join(PLAN_FIELDS)}")
        return ForfeitField(seat, field)
    if kind == "TowerSettled":
        out_wire = _field(wire, "out", (list, tuple), what)
        if len(out_wire) > len(COLOURS):
            raise MalformedCommand(f"{what}: 'out' lists more colours than exist")
        out = []
        for item in out_wire:
            if (not isinstance(item, (list, tuple)) or len(item) != 2
                    or any(type(v) is not int for v in item)):
                raise MalformedCommand(f"{what}: each 'out' entry is [colour, count]")
            colour, n = item
            if colour not in COLOURS or not 0 < n <= MAX_CUBES:
                raise MalformedCommand(f"{what}: 'out' entry {colour}: {n} is out of range")
            out.append((colour, n))
        if [c for c, _ in out] != sorted({c for c, _ in out}):
            raise MalformedCommand(f"{what}: 'out' colours must be ascending and distinct")
        try:
            contents = TowerContents.from_wire(wire.get("contents"))
        except ValueError as exc:
            raise MalformedCommand(f"{what}: {exc}") from None
        decided_by = wire.get("decided_by", "physics")
        if decided_by not in TOWER_DECIDERS:
            raise MalformedCommand(f"{what}: decided_by must be one of {', '.join(TOWER_DECIDERS)}")
        return TowerSettled(tuple(out), contents, cast(TowerDecider, decided_by))
    if kind == "DraftTake":
        seat = _seat(wire, what)
        choice = _field(wire, "choice", (str,), what)
        if choice not in DRAFT_CHOICES:
            raise MalformedCommand(f"{what}: choice must be one of {DRAFT_CHOICES}")
        return DraftTake(seat, choice)
    if kind == "DraftPlace":
        return DraftPlace(_seat(wire, what), _field(wire, "armies", (int,), what))
    if kind == "PickSpecial":
        return PickSpecial(_seat(wire, what), _field(wire, "position", (int,), what))
    if kind == "ChooseMove":
        seat = _seat(wire, what)
        if "target" not in wire:
            raise MalformedCommand(f"{what}: missing field 'target'")
        target = None if wire["target"] is None else _name(wire["target"], what)
        count = _field(wire, "count", (int,), what)
        if not 0 <= count <= 1000:
            raise MalformedCommand(f"{what}: count {count} out of range")
        return ChooseMove(seat, target, count)
    if kind == "OrderRevolts":
        seat = _seat(wire, what)
        provinces = _field(wire, "provinces", (list, tuple), what)
        if len(provinces) > 45:
            raise MalformedCommand(f"{what}: too many provinces")
        return OrderRevolts(seat, tuple(_name(p, what) for p in provinces))
    raise MalformedCommand(f"unknown command type {kind!r:.40}")


def seat_of(cmd: Command) -> int | None:
    """The seat that issues a command (None for chance and the tower)."""
    return None if isinstance(cmd, (Chance, TowerSettled)) else cmd.seat
