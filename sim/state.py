"""The game state as a value: plain fields, typed progress records, a canonical wire form.

`apply` (in `sim/game.py`) copies the state and changes the copy, so the caller's state is
never touched. Progress inside a stage (the draft, a round's execution, a battle, winter)
lives in frozen records (`sim.progress`, re-exported here) replaced as a whole, so a copy
of the state shares them safely. The wire form lists everything in canonical order (provinces by
name, seats by number), so its msgpack bytes — and `state_hash` — are the same on every
machine and for every `PYTHONHASHSEED`.

Tests: tests/sim/test_codec.py, tests/sim/test_events.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, Literal, get_args

import msgpack

from sim.cards import cards
from sim.commands import ACTIONS, PLAN_FIELDS, IllegalCommand
from sim.progress import (BID, COLOURS, NO_CUBES, Battle, BattleExtra, DraftProgress, Plan,
                          RoundProgress, WinterProgress)
from sim.tower.contents import EMPTY as EMPTY_TOWER, PEASANT, TowerContents

ARMIES_PER_PLAYER = 62
PEASANTS = 20
UNREST_MARKERS = 42
BUILDINGS = tuple(b.name for b in cards().buildings)
BUILDING_STOCK = {b.name: b.stock for b in cards().buildings}
SPECIALS = tuple(s.name for s in cards().specials)
Season = Literal["spring", "summer", "autumn", "winter"]
SEASONS: tuple[Season, ...] = get_args(Season)


@dataclass(frozen=True)
class GameConfig:
    players: int = 4
    side: str = "sun"
    setup: str = "beginner"

    def check(self) -> None:
        if self.players not in (3, 4, 5):
            raise IllegalCommand("R-COMP-1", f"Shogun takes 3 to 5 players, not {self.players}")
        if self.side not in ("sun", "moon"):
            raise IllegalCommand("R-SETUP-1", f"there is no board side called {self.side!r:.20}")
        if self.setup not in ("beginner", "draft"):
            raise IllegalCommand("R-SETUP-4", f"there is no setup called {self.setup!r:.20}")
        if self.setup == "beginner" and self.side != "sun":
            raise IllegalCommand("R-SETUP-4", "the beginner setup exists for the sun side only")


class DecisionKind(StrEnum):
    """What the game waits for. A `StrEnum` compares equal to its value and packs as it
    (JSON, msgpack), so the wire form, the state hash and callers that compare with
    strings see no difference."""
    CHANCE = "chance"              # a random draw (`Chance`)
    TOWER = "tower"                # a drop's outcome (`TowerSettled`)
    PLAN = "plan"                  # every seat without a plan (`SubmitPlan`, `CommitPlan`)
    OPEN = "open"                  # a planned card to turn (`OpenField`, `ForfeitField`)
    DRAFT_TAKE = "draft_take"
    DRAFT_PLACE = "draft_place"
    SPECIAL = "special"            # a turn-order position (`PickSpecial`)
    MOVE = "move"                  # where armies go (`ChooseMove`)
    REVOLT_ORDER = "revolt_order"  # (`OrderRevolts`)
    OVER = "over"


@dataclass(frozen=True)
class Decision:
    """Who must act now and how. `detail` is plain data for UIs (the typed choices are
    `sim.legal.choices`)."""
    kind: DecisionKind
    seats: tuple[int, ...] = ()
    purpose: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


# The flow's stages, in `sim.game.STAGES` (the public state shows the current one).
Stage = Literal["draft", "fill", "year", "round", "plan", "event", "bids", "ties", "special",
                "exec", "round_end", "winter", "scoring", "over"]


_RECORDS = {"Plan": Plan, "DraftProgress": DraftProgress, "RoundProgress": RoundProgress,
            "Battle": Battle, "WinterProgress": WinterProgress}


# ----------------------------------------------------------------------------- mutable parts

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
        self.plan: Plan | None = None       # locked plan this round
        self.bid_paid = 0
        self.groups: tuple[int, ...] = ()   # draft army groups not yet placed

    def copy(self) -> "PlayerState":
        p = PlayerState.__new__(PlayerState)
        p.money, p.rice, p.score, p.supply = self.money, self.rice, self.score, self.supply
        p.special, p.position, p.plan = self.special, self.position, self.plan
        p.bid_paid, p.groups = self.bid_paid, self.groups
        return p

    _WIRE = ("money", "rice", "score", "supply", "special", "position", "plan", "bid_paid",
             "groups")


class State:
    """Everything the game needs to continue. Copy with `copy()`; never share lists."""

    __slots__ = ("config", "provinces", "players", "peasant_supply", "tray", "tower",
                 "year", "season", "stage", "decision", "event_deck", "year_events",
                 "current_event", "action_row", "hidden_actions", "specials_row",
                 "turn_order", "ranking", "round", "battle", "draft", "winter",
                 "winners", "chance_count")
    # The slots' types (annotations only: with `__slots__` they create no class attribute,
    # so the wire form and `copy` are as before).
    config: GameConfig
    provinces: dict[str, ProvinceState]     # in play only, canonical (sorted) order
    players: list[PlayerState]              # by seat
    peasant_supply: int
    tray: list[int]                         # cubes per colour (COLOURS slots)
    tower: TowerContents
    year: int
    season: int                             # index into SEASONS
    stage: Stage
    decision: Decision
    event_deck: list[int]
    year_events: list[int]
    current_event: int | None
    action_row: list[str | None]            # 10 slots; None until turned
    hidden_actions: list[str]
    specials_row: list[str]
    turn_order: list[int]
    ranking: list[int]
    round: RoundProgress | None
    battle: Battle | None
    draft: DraftProgress | None
    winter: WinterProgress | None
    winners: list[int]
    chance_count: int

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
        s.round, s.battle, s.draft, s.winter = self.round, self.battle, self.draft, self.winter
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

    def cubes_of(self, colour: int) -> dict[str, int]:
        """Where one colour's cubes are (for R-COMP-6 checks)."""
        on_board = 0
        if colour != PEASANT:
            on_board = sum(p.armies for p in self.provinces.values() if p.owner == colour)
        supply = self.peasant_supply if colour == PEASANT else self.players[colour].supply
        return {"supply": supply, "board": on_board, "tower": self.tower.counts().get(colour, 0),
                "tray": self.tray[colour], "held": self.held()[colour]}

    def held(self) -> tuple[int, ...]:
        """Cubes in hand on their way into the tower (R-COMP-6 counts them)."""
        return self.battle.held if self.battle is not None else NO_CUBES

    # -- wire form -------------------------------------------------------------------
    def packable(self) -> dict[str, Any]:
        """The wire form's layout, built cheaply: tuples stay tuples and the progress
        records stay records. msgpack packs a tuple exactly as a list, and `encode_state`
        packs each record as `["@Name", fields...]` (`_record_packed`), so packing this
        gives the very bytes of `to_wire()`. Why: every network peer hashes the state at
        every step, and copying every tuple into a list cost more than the step itself."""
        d, provinces, rows = self.decision, self.provinces, []
        for name in sorted(provinces):
            p = provinces[name]
            rows.append((name, p.owner, p.armies, p.buildings, p.unrest))
        return {
            "config": (self.config.players, self.config.side, self.config.setup),
            "provinces": rows,
            "players": [_player_fields(p) for p in self.players],
            "peasant_supply": self.peasant_supply,
            "tray": self.tray,
            "tower": self.tower.to_wire(),
            "year": self.year, "season": self.season, "stage": self.stage,
            "decision": (d.kind, d.seats, d.purpose, canonical(d.detail)),
            "event_deck": self.event_deck, "year_events": self.year_events,
            "current_event": self.current_event,
            "action_row": self.action_row, "hidden_actions": self.hidden_actions,
            "specials_row": self.specials_row,
            "turn_order": self.turn_order, "ranking": self.ranking,
            "round": self.round, "battle": self.battle,
            "draft": self.draft, "winter": self.winter,
            "winners": self.winners, "chance_count": self.chance_count,
        }

    def to_wire(self) -> dict[str, Any]:
        """The canonical wire form as plain lists and maps (what `decode_state` reads)."""
        return {key: _record_wire(value) for key, value in self.packable().items()}

    @classmethod
    def from_wire(cls, w: dict[str, Any]) -> "State":
        s = cls.__new__(cls)
        s.config = GameConfig(*w["config"])
        s.provinces = {}
        for name, owner, armies, buildings, unrest in w["provinces"]:
            s.provinces[name] = ProvinceState(owner, armies, tuple(buildings), unrest)
        s.players = []
        for row in w["players"]:
            p = PlayerState.__new__(PlayerState)
            for name, value in zip(PlayerState._WIRE, row, strict=True):
                setattr(p, name, _record_unwire(value))
            p.groups = tuple(p.groups)
            s.players.append(p)
        s.peasant_supply = w["peasant_supply"]
        s.tray = list(w["tray"])
        s.tower = TowerContents.from_wire(w["tower"])
        s.year, s.season, s.stage = w["year"], w["season"], w["stage"]
        kind, seats, purpose, detail = w["decision"]
        s.decision = Decision(DecisionKind(kind), tuple(seats), purpose, uncanonical(detail))
        s.event_deck, s.year_events = list(w["event_deck"]), list(w["year_events"])
        s.current_event = w["current_event"]
        s.action_row, s.hidden_actions = list(w["action_row"]), list(w["hidden_actions"])
        s.specials_row = list(w["specials_row"])
        s.turn_order, s.ranking = list(w["turn_order"]), list(w["ranking"])
        s.round, s.battle = _record_unwire(w["round"]), _record_unwire(w["battle"])
        s.draft, s.winter = _record_unwire(w["draft"]), _record_unwire(w["winter"])
        s.winners = list(w["winners"])
        s.chance_count = w["chance_count"]
        return s


def _record_wire(value: Any) -> Any:
    """A progress record as ["@Name", field values...]; tuples as lists."""
    if type(value) in _RECORD_PACKING:
        return [_record_wire(v) for v in _record_packed(value)]
    if isinstance(value, (list, tuple)):
        return [_record_wire(v) for v in value]
    return value


_RECORD_PACKING = {cls: ("@" + name, attrgetter(*(f.name for f in fields(cls))))
                   for name, cls in _RECORDS.items()}
_player_fields = attrgetter(*PlayerState._WIRE)


def _record_packed(value: Any) -> tuple[Any, ...]:
    """msgpack's hook for what it cannot pack itself: a progress record as
    ("@Name", field values...), the `_record_wire` layout. Anything else is a bug."""
    packing = _RECORD_PACKING.get(type(value))
    if packing is None:
        raise TypeError(f"a game state cannot hold a {type(value).__name__}")
    tag, values = packing
    return (tag, *values(value))


def _record_unwire(value: Any) -> Any:
    if isinstance(value, list):
        if value and isinstance(value[0], str) and value[0].startswith("@"):
            record = _RECORDS[value[0][1:]]
            return record(*[_record_unwire(v) for v in value[1:]])
        return tuple(_record_unwire(v) for v in value)
    return value


_LEAVES = frozenset({str, int, bool, float, bytes, type(None)})   # kept as they are
_ONE_KIND = ({str}, {int})      # keys that sort by themselves in `_key`'s order


def canonical(value: Any) -> Any:
    """Dicts as key-sorted pair lists so the encoding never depends on insertion order.
    (Every state hash runs this over the pending decision's detail, so plain leaves are
    not visited, and keys all of one kind sort without `_key`: the same order.)"""
    if isinstance(value, dict):
        keys = (sorted(value) if set(map(type, value)) in _ONE_KIND
                else sorted(value, key=_key))
        pairs = []
        for k in keys:
            v = value[k]
            pairs.append([k, v if type(v) in _LEAVES else canonical(v)])
        return ["__map__", pairs]
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAVES else canonical(v) for v in value]
    return value


def _key(k: Any) -> tuple[int, Any, str]:
    return (0, k, "") if isinstance(k, int) else (1, 0, str(k))


def uncanonical(value: Any) -> Any:
    if isinstance(value, list):
        if len(value) == 2 and value[0] == "__map__" and isinstance(value[1], list):
            return {k: uncanonical(v) for k, v in value[1]}
        return [uncanonical(v) for v in value]
    return value


def encode_state(state: State) -> bytes:
    """The canonical bytes of a state: `msgpack.packb(state.to_wire())`, built without
    copying the state into lists first (`State.packable`)."""
    packed: bytes = msgpack.packb(state.packable(), default=_record_packed, use_bin_type=True)
    return packed


def decode_state(data: bytes) -> State:
    """Rebuild a state from `encode_state` bytes; ValueError if they are not a state."""
    try:
        wire = msgpack.unpackb(data, raw=False, strict_map_key=False)
        return State.from_wire(wire)
    except Exception as exc:  # any structural fault in untrusted bytes
        raise ValueError(f"not a valid encoded game state: {exc}") from exc


def state_hash(state: State) -> str:
    return hashlib.sha256(encode_state(state)).hexdigest()


def colour_name(code: int) -> int | str:
    """Colour codes (0-4 seats, 5 peasants) as the game log names them."""
    return "peasant" if code == PEASANT else code


def colour_map(counts: dict[int, int] | list[int] | tuple[int, ...]) -> dict[str, int]:
    """{colour: n} for the log, canonical order, zero entries kept out."""
    items = sorted(counts.items()) if isinstance(counts, dict) else enumerate(counts)
    return {str(colour_name(c)): n for c, n in items if n}


__all__ = ["ACTIONS", "BID", "BUILDINGS", "Battle", "BattleExtra", "COLOURS", "Decision",
           "DecisionKind", "DraftProgress", "EMPTY_TOWER", "GameConfig", "NO_CUBES", "PEASANT",
           "PLAN_FIELDS", "Plan", "PlayerState", "ProvinceState", "RoundProgress", "SEASONS",
           "SPECIALS", "Stage", "State", "WinterProgress", "canonical", "colour_map",
           "colour_name", "decode_state", "encode_state", "state_hash", "uncanonical"]
