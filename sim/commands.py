"""Commands: the only way a game state changes. Plain frozen data with a wire form.

A command's wire form is a msgpack-friendly dict with a `type` field. `from_wire` is the
single gate for untrusted input (network frames, save files): it checks every field's type
and range and raises `MalformedCommand` naming the fault. Whether a well-formed command is
*legal* is decided later by the rules (`IllegalCommand`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

ACTIONS = ("palace", "temple", "theatre", "rice", "tax",
           "deploy5", "deploy3", "deploy1", "battle_a", "battle_b")
DRAFT_CHOICES = ("up0", "up1", "deck", "refresh")
MAX_NAME = 40


class MalformedCommand(ValueError):
    """A command's wire form has a wrong type, a missing field or a value out of range."""


class IllegalCommand(ValueError):
    """A well-formed command that the rules do not allow now. Names the rule and reason."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
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


Command = Union[Chance, SubmitPlan, DraftTake, DraftPlace, PickSpecial, ChooseMove, OrderRevolts]


def to_wire(cmd: Command) -> dict[str, Any]:
    if isinstance(cmd, Chance):
        return {"type": "Chance", "seed": cmd.seed}
    if isinstance(cmd, SubmitPlan):
        return {"type": "SubmitPlan", "seat": cmd.seat,
                "actions": {a: p for a, p in zip(ACTIONS, cmd.actions)}, "bid": cmd.bid}
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


def _field(wire: dict, name: str, kinds: tuple, what: str) -> Any:
    if name not in wire:
        raise MalformedCommand(f"{what}: missing field '{name}'")
    value = wire[name]
    # bool is an int subclass; never accept it where a number is meant
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise MalformedCommand(f"{what}: field '{name}' has wrong type {type(value).__name__}")
    return value


def _seat(wire: dict, what: str) -> int:
    seat = _field(wire, "seat", (int,), what)
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
    """The seat that issues a command (None for chance)."""
    return None if isinstance(cmd, Chance) else cmd.seat
