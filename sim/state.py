"""The game state as a value: plain fields, a cheap deep copy, a canonical wire form.

`apply` (in `sim/game.py`) copies the state and changes the copy, so the caller's state is
never touched. The wire form lists everything in canonical order (provinces by name, seats
by number), so its msgpack bytes — and `state_hash` — are the same on every machine and
for every `PYTHONHASHSEED`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgpack

from sim.board import board
from sim.commands import ACTIONS, SubmitPlan
from sim.tower import EMPTY as EMPTY_TOWER, PEASANT, TowerContents

ARMIES_PER_PLAYER = 62
PEASANTS = 20
UNREST_MARKERS = 42
BUILDING_STOCK = {"palace": 28, "temple": 26, "theatre": 26}
BUILDINGS = ("palace", "temple", "theatre")
SPECIALS = ("chest", "rice", "six_armies", "attack", "defence")
SEASONS = ("spring", "summer", "autumn", "winter")
COLOURS = 6  # tray slots: seats 0-4, then PEASANT (5)


@dataclass(frozen=True)
class GameConfig:
    players: int = 4
    side: str = "sun"
    setup: str = "beginner"

    def check(self) -> None:
        from sim.commands import IllegalCommand
        if self.players not in (3, 4, 5):
            raise IllegalCommand("R-COMP-1", f"{self.players} players; Shogun takes 3-5")
        if self.side not in ("sun", "moon"):
            raise IllegalCommand("R-SETUP-1", f"unknown board side {self.side!r}")
        if self.setup not in ("beginner", "draft"):
            raise IllegalCommand("R-SETUP-4", f"unknown setup {self.setup!r}")
        if self.setup == "beginner" and self.side != "sun":
            raise IllegalCommand("R-SETUP-4", "the beginner setup exists for the sun side only")


@dataclass(frozen=True)
class Decision:
    """Who must act now and how. `detail` is plain data for UIs and bots."""
    kind: str
    seats: tuple[int, ...] = ()
    purpose: str = ""
    detail: dict = field(default_factory=dict)


class ProvinceState:
    __slots__ = ("owner", "armies", "buildings", "unrest")

    def __init__(self, owner: int | None = None, armies: int = 0,
                 buildings: tuple[str, ...] = (), unrest: int = 0) -> None:
        self.owner = owner
        self.armies = armies
        self.buildings = buildings  # canonical order, subset of BUILDINGS
        self.unrest = unrest

    def copy(self) -> "ProvinceState":
        return ProvinceState(self.owner, self.armies, self.buildings, self.unrest)

    def to_wire(self) -> list:
        return [self.owner, self.armies, list(self.buildings), self.unrest]


class PlayerState:
    __slots__ = ("money", "rice", "score", "supply", "special", "position", "plan",
                 "bid_paid", "groups")

    def __init__(self, money: int = 0) -> None:
        self.money = money
        self.rice = 0
        self.score = 0
        self.supply = ARMIES_PER_PLAYER
        self.special: str | None = None     # special card held this round
        self.position: int | None = None    # turn-order position 1-5 this round
        self.plan: SubmitPlan | None = None  # locked plan this round (secret until all lock)
        self.bid_paid = 0
        self.groups: tuple[int, ...] = ()   # draft army groups not yet placed

    def copy(self) -> "PlayerState":
        p = PlayerState.__new__(PlayerState)
        p.money, p.rice, p.score, p.supply = self.money, self.rice, self.score, self.supply
        p.special, p.position, p.plan = self.special, self.position, self.plan
        p.bid_paid, p.groups = self.bid_paid, self.groups
        return p

    def to_wire(self) -> list:
        plan = None
        if self.plan is not None:
            plan = [list(self.plan.actions), self.plan.bid]
        return [self.money, self.rice, self.score, self.supply, self.special, self.position,
                plan, self.bid_paid, list(self.groups)]


class State:
    """Everything the game needs to continue. Copy with `copy()`; never share lists."""

    __slots__ = ("config", "provinces", "players", "peasant_supply", "tray", "tower",
                 "year", "season", "stage", "decision", "event_deck", "year_events",
                 "current_event", "action_row", "hidden_actions", "specials_row",
                 "turn_order", "ranking", "cursor", "battle", "draft", "winter",
                 "winners", "chance_count")

    def copy(self) -> "State":
        s = State.__new__(State)
        s.config = self.config
        s.provinces = {n: p.copy() for n, p in self.provinces.items()}
        s.players = [p.copy() for p in self.players]
        s.peasant_supply = self.peasant_supply
        s.tray = list(self.tray)
        s.tower = self.tower  # immutable
        s.year, s.season, s.stage = self.year, self.season, self.stage
        s.decision = self.decision  # immutable
        s.event_deck = list(self.event_deck)
        s.year_events = list(self.year_events)
        s.current_event = self.current_event
        s.action_row = list(self.action_row)
        s.hidden_actions = list(self.hidden_actions)
        s.specials_row = list(self.specials_row)
        s.turn_order = list(self.turn_order)
        s.ranking = list(self.ranking)
        s.cursor = _deep(self.cursor)
        s.battle = _deep(self.battle)
        s.draft = _deep(self.draft)
        s.winter = _deep(self.winter)
        s.winners = list(self.winners)
        s.chance_count = self.chance_count
        return s

    # -- derived facts ---------------------------------------------------------------
    def cards_of(self, seat: int) -> list[str]:
        """A player's province cards = the provinces they own (canonical order)."""
        return [n for n, p in self.provinces.items() if p.owner == seat]

    def unrest_left(self) -> int:
        return UNREST_MARKERS - sum(p.unrest for p in self.provinces.values())

    def buildings_left(self, kind: str) -> int:
        return BUILDING_STOCK[kind] - sum(kind in p.buildings for p in self.provinces.values())

    def in_play(self, name: str) -> bool:
        return name in self.provinces

    def cubes_of(self, colour: int) -> dict[str, int]:
        """Where one colour's cubes are (for R-COMP-6 checks)."""
        on_board = 0
        if colour != PEASANT:
            on_board = sum(p.armies for p in self.provinces.values() if p.owner == colour)
        supply = self.peasant_supply if colour == PEASANT else self.players[colour].supply
        held = 0
        if self.battle:
            held = self.battle.get("held", {}).get(colour, 0)
        return {"supply": supply, "board": on_board, "tower": self.tower.counts().get(colour, 0),
                "tray": self.tray[colour], "held": held}

    # -- wire form -------------------------------------------------------------------
    def to_wire(self) -> dict[str, Any]:
        d = self.decision
        return {
            "config": [self.config.players, self.config.side, self.config.setup],
            "provinces": [[n, *self.provinces[n].to_wire()] for n in sorted(self.provinces)],
            "players": [p.to_wire() for p in self.players],
            "peasant_supply": self.peasant_supply,
            "tray": list(self.tray),
            "tower": self.tower.to_wire(),
            "year": self.year, "season": self.season, "stage": self.stage,
            "decision": [d.kind, list(d.seats), d.purpose, _canon(d.detail)],
            "event_deck": list(self.event_deck), "year_events": list(self.year_events),
            "current_event": self.current_event,
            "action_row": list(self.action_row), "hidden_actions": list(self.hidden_actions),
            "specials_row": list(self.specials_row),
            "turn_order": list(self.turn_order), "ranking": list(self.ranking),
            "cursor": _canon(self.cursor), "battle": _canon(self.battle),
            "draft": _canon(self.draft), "winter": _canon(self.winter),
            "winners": list(self.winners), "chance_count": self.chance_count,
        }

    @classmethod
    def from_wire(cls, w: dict[str, Any]) -> "State":
        s = cls.__new__(cls)
        s.config = GameConfig(*w["config"])
        s.provinces = {}
        for name, owner, armies, buildings, unrest in w["provinces"]:
            s.provinces[name] = ProvinceState(owner, armies, tuple(buildings), unrest)
        s.players = []
        for row in w["players"]:
            p = PlayerState(row[0])
            p.rice, p.score, p.supply, p.special, p.position = row[1:6]
            plan = row[6]
            p.plan = None
            p.bid_paid, p.groups = row[7], tuple(row[8])
            s.players.append(p)
            if plan is not None:
                p.plan = SubmitPlan(len(s.players) - 1, tuple(plan[0]), plan[1])
        s.peasant_supply = w["peasant_supply"]
        s.tray = list(w["tray"])
        s.tower = TowerContents.from_wire(w["tower"])
        s.year, s.season, s.stage = w["year"], w["season"], w["stage"]
        kind, seats, purpose, detail = w["decision"]
        s.decision = Decision(kind, tuple(seats), purpose, _uncanon(detail))
        s.event_deck, s.year_events = list(w["event_deck"]), list(w["year_events"])
        s.current_event = w["current_event"]
        s.action_row, s.hidden_actions = list(w["action_row"]), list(w["hidden_actions"])
        s.specials_row = list(w["specials_row"])
        s.turn_order, s.ranking = list(w["turn_order"]), list(w["ranking"])
        s.cursor = _uncanon(w["cursor"])
        s.battle, s.draft, s.winter = (_uncanon(w["battle"]), _uncanon(w["draft"]),
                                       _uncanon(w["winter"]))
        s.winners = list(w["winners"])
        s.chance_count = w["chance_count"]
        return s


def _deep(value: Any) -> Any:
    """Copy nested dicts/lists of plain values (the small sub-states)."""
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def _canon(value: Any) -> Any:
    """Dicts as key-sorted pair lists so the encoding never depends on insertion order."""
    if isinstance(value, dict):
        return ["__map__", [[k, _canon(value[k])] for k in sorted(value, key=_key)]]
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    return value


def _key(k: Any) -> tuple:
    return (0, k, "") if isinstance(k, int) else (1, 0, str(k))


def _uncanon(value: Any) -> Any:
    if isinstance(value, list):
        if len(value) == 2 and value[0] == "__map__" and isinstance(value[1], list):
            return {k: _uncanon(v) for k, v in value[1]}
        return [_uncanon(v) for v in value]
    return value


def encode_state(state: State) -> bytes:
    return msgpack.packb(state.to_wire(), use_bin_type=True)


def decode_state(data: bytes) -> State:
    """Rebuild a state from `encode_state` bytes; ValueError if they are not a state."""
    try:
        wire = msgpack.unpackb(data, raw=False, strict_map_key=False)
        return State.from_wire(wire)
    except Exception as exc:  # any structural fault in untrusted bytes
        raise ValueError(f"not a valid encoded game state: {exc!r}") from exc


def state_hash(state: State) -> str:
    return hashlib.sha256(encode_state(state)).hexdigest()


def colour_name(code: int) -> int | str:
    """Colour codes (0-4 seats, 5 peasants) as the game log names them."""
    return "peasant" if code == PEASANT else code


def colour_map(counts: dict[int, int] | list[int]) -> dict[str, int]:
    """{colour: n} for the log, canonical order, zero entries kept out."""
    items = enumerate(counts) if isinstance(counts, list) else sorted(counts.items())
    return {str(colour_name(c)): n for c, n in items if n}


def public_state(state: State) -> dict[str, Any]:
    """The Snapshot form of DESIGN.md, plus what a table display needs."""
    b = board()
    provinces = {}
    for name in b.names:
        p = state.provinces.get(name)
        if p is None:
            provinces[name] = {"owner": None, "armies": 0, "buildings": [], "unrest": 0,
                               "excluded": True}
        else:
            provinces[name] = {"owner": p.owner, "armies": p.armies,
                               "buildings": list(p.buildings), "unrest": p.unrest}
    players = {}
    for seat, p in enumerate(state.players):
        players[str(seat)] = {"money": p.money, "rice": p.rice, "score": p.score,
                              "supply": p.supply, "cards": state.cards_of(seat),
                              "special": p.special, "position": p.position}
    counts = state.tower.counts()
    return {
        "provinces": provinces,
        "players": players,
        "tower": {"inside": colour_map(counts), "tray": colour_map(state.tray)},
        "peasant_supply": state.peasant_supply,
        "year": state.year,
        "season": SEASONS[state.season] if state.season is not None else None,
        "actions": [a for a in state.action_row],
        "specials": list(state.specials_row),
        "events": list(state.year_events),
        "current_event": state.current_event,
        "turn_order": list(state.turn_order),
        "side": state.config.side,
        "stage": state.stage,
    }


__all__ = ["ACTIONS", "BUILDINGS", "COLOURS", "Decision", "EMPTY_TOWER", "GameConfig",
           "PEASANT", "PlayerState", "ProvinceState", "SEASONS", "SPECIALS", "State",
           "colour_map", "colour_name", "decode_state", "encode_state", "public_state",
           "state_hash"]
