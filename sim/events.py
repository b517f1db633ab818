"""What the game reports as it moves: one typed record per event kind.

Why typed: events leave `sim` for the game log (JSON lines), the window's narration and
animations, and the network's standings, each reading them by key. A record per kind
names every key and its type, so a misspelt key or a changed value is a type error in
`sim` rather than a silent gap in a log. They stay plain dicts at run time (a `TypedDict`
is a dict) and `EventName` is a `StrEnum`, which JSON and msgpack write exactly as its
string: logs, saves and state hashes are the same bytes as when events were untyped
dict literals. Keys are declared in the order the log writes them.

A reader narrows an `Event` by its name (`if e["event"] == EventName.MOVED:`); code that
reads events back from a log, where nothing is checked yet, takes `Mapping[str, Any]`.

No `from __future__ import annotations` here: a `TypedDict` learns which keys are
`NotRequired` only from evaluated annotations.

Tests: tests/sim/test_events.py.
"""

from enum import StrEnum
from typing import Literal, NotRequired, TypedDict, Union

from sim.snapshot import PublicState


class EventName(StrEnum):
    """Every event's `event` value, in the past tense of what happened."""
    GAME_STARTED = "GameStarted"
    PROVINCE_CLAIMED = "ProvinceClaimed"
    DRAFT_CARDS_TURNED = "DraftCardsTurned"
    DRAFT_CARDS_REFRESHED = "DraftCardsRefreshed"
    DRAFT_CARD_TAKEN = "DraftCardTaken"
    DRAFT_ENDED = "DraftEnded"
    YEAR_STARTED = "YearStarted"
    ROUND_STARTED = "RoundStarted"
    SNAPSHOT = "Snapshot"          # the public state at a round's start, winter and the end
    PLAN_LOCKED = "PlanLocked"
    FIELD_FORFEITED = "FieldForfeited"
    EVENT_DRAWN = "EventDrawn"
    BIDS_REVEALED = "BidsRevealed"
    TIES_BROKEN = "TiesBroken"
    TURN_ORDER_SET = "TurnOrderSet"
    ACTION_STARTED = "ActionStarted"
    CARD_TURNED = "CardTurned"
    ACTION_REVEALED = "ActionRevealed"
    ACTION_DONE = "ActionDone"
    ACTION_LAPSED = "ActionLapsed"
    MOVED = "Moved"
    TOWER_DROPPED = "TowerDropped"
    BATTLE_RESOLVED = "BattleResolved"
    PLAN_REVEALED = "PlanRevealed"
    ROUND_ENDED = "RoundEnded"
    WINTER_STARTED = "WinterStarted"
    SHORTAGE = "Shortage"          # R-WINTER-2: rice short, revolts drawn
    REVOLTS_ORDERED = "RevoltsOrdered"
    SCORED = "Scored"
    YEAR_ENDED = "YearEnded"
    GAME_ENDED = "GameEnded"


# ----------------------------------------------------------------------------- setup

class GameStarted(TypedDict):
    event: Literal[EventName.GAME_STARTED]
    players: int
    side: str
    setup: str
    money: dict[str, int]              # by seat number as a string (JSON keys)


class ProvinceClaimed(TypedDict):
    event: Literal[EventName.PROVINCE_CLAIMED]
    seat: int
    province: str
    armies: int


class DraftCardsTurned(TypedDict):
    event: Literal[EventName.DRAFT_CARDS_TURNED]
    up: list[str | None]


class DraftCardsRefreshed(TypedDict):
    event: Literal[EventName.DRAFT_CARDS_REFRESHED]
    seat: int


# "from" is a Python keyword: these two records are declared with the functional syntax.
DraftCardTaken = TypedDict("DraftCardTaken", {
    "event": Literal[EventName.DRAFT_CARD_TAKEN],
    "seat": int,
    "province": str,
    "from": Literal["deck", "face_up"],
})


class DraftEnded(TypedDict):
    event: Literal[EventName.DRAFT_ENDED]


# ----------------------------------------------------------------------------- years, rounds

class YearStarted(TypedDict):
    event: Literal[EventName.YEAR_STARTED]
    year: int
    events: list[int]                  # the year's four event cards


class RoundStarted(TypedDict):
    event: Literal[EventName.ROUND_STARTED]
    year: int
    season: str
    specials: list[str]
    actions: list[str | None]          # the face-up slots 1-5


class Snapshot(TypedDict):
    event: Literal[EventName.SNAPSHOT]
    state: PublicState


class RoundEnded(TypedDict):
    event: Literal[EventName.ROUND_ENDED]
    year: int
    season: str


# ----------------------------------------------------------------------------- plans, bids

class PlanLocked(TypedDict):
    event: Literal[EventName.PLAN_LOCKED]
    seat: int


class FieldForfeited(TypedDict):
    event: Literal[EventName.FIELD_FORFEITED]
    seat: int
    field: str


class PlanRevealed(TypedDict):
    event: Literal[EventName.PLAN_REVEALED]
    seat: int
    actions: dict[str, str | None]
    bid: int | str | None              # a money card, "province", or no card


class EventDrawn(TypedDict):
    event: Literal[EventName.EVENT_DRAWN]
    event_card: int
    rice_loss: int


class BidsRevealed(TypedDict):
    event: Literal[EventName.BIDS_REVEALED]
    bids: dict[str, int | str | None]
    paid: dict[str, int]


class TiesBroken(TypedDict):
    event: Literal[EventName.TIES_BROKEN]
    ranking: list[int]


class TurnOrderSet(TypedDict):
    event: Literal[EventName.TURN_ORDER_SET]
    order: list[int]
    specials: dict[str, str | None]
    paid: dict[str, int]
    pick_order: list[int]


# ----------------------------------------------------------------------------- actions

class ActionStarted(TypedDict):
    event: Literal[EventName.ACTION_STARTED]
    slot: int                          # 1-10
    action: str


class CardTurned(TypedDict):
    event: Literal[EventName.CARD_TURNED]
    seat: int
    action: str
    province: str | None               # None: a money card


class ActionRevealed(TypedDict):
    event: Literal[EventName.ACTION_REVEALED]
    slot: int
    action: str


class ActionDone(TypedDict):
    event: Literal[EventName.ACTION_DONE]
    seat: int
    action: str
    province: str
    paid: int
    money_gained: int
    rice_gained: int
    armies_placed: int
    unrest_removed: NotRequired[int]   # a theatre under events 1/2
    unrest_placed: NotRequired[int]    # rice and tax
    moved_to: NotRequired[str]
    revolt_lost: NotRequired[bool]
    attacked: NotRequired[str]
    result: NotRequired[str]           # with `attacked`: attacker | defender | draw


class ActionLapsed(TypedDict):
    event: Literal[EventName.ACTION_LAPSED]
    seat: int
    action: str
    province: str
    rule: str
    reason: str                        # English; `sim.narrate.lapse_reason` translates


Moved = TypedDict("Moved", {
    "event": Literal[EventName.MOVED],
    "seat": int,
    "from": str,
    "to": str,
    "count": int,
})


# ----------------------------------------------------------------------------- the tower

class TowerReplay(TypedDict):
    """What replays a drop: the contents before, the cubes thrown, the seed (hex)."""
    before: list[list[int]]
    thrown: list[list[int]]
    seed: str


class TowerDropped(TypedDict):
    event: Literal[EventName.TOWER_DROPPED]
    reason: str                        # fill | battle | revolt
    thrown: dict[str, int]             # by colour name (`sim.state.colour_map`)
    out: dict[str, int]
    inside_after: dict[str, int]
    replay: TowerReplay


class BattleResolved(TypedDict):
    event: Literal[EventName.BATTLE_RESOLVED]
    kind: str                          # attack | neutral | revolt
    province: str
    attacker: int | str                # a seat, or "peasant"
    defender: int | str
    unrest: int
    thrown: dict[str, int]
    out: dict[str, int]
    attacker_count: int
    defender_count: int
    result: str                        # attacker | defender | draw
    survivors: int
    new_owner: int | None
    # the cubes added to the throw, as `sim.state.Battle.extras` names them
    attack_card: NotRequired[int]
    defence_card: NotRequired[int]
    palace_event: NotRequired[int]
    peasants: NotRequired[int]


# ----------------------------------------------------------------------------- winter, the end

class WinterStarted(TypedDict):
    event: Literal[EventName.WINTER_STARTED]
    year: int
    rice_loss: int
    event_card: int


class Shortage(TypedDict):
    event: Literal[EventName.SHORTAGE]
    seat: int
    rice: int
    provinces: int
    shortage: int
    revolts: int
    extra_peasants: int
    drawn: list[str]


class RevoltsOrdered(TypedDict):
    event: Literal[EventName.REVOLTS_ORDERED]
    seat: int
    order: list[str]


class Scored(TypedDict):
    event: Literal[EventName.SCORED]
    seat: int
    provinces: int
    buildings: int
    majority_points: int
    gained: int
    score: int
    regions: dict[str, dict[str, int]]   # region -> building kind -> points


class YearEnded(TypedDict):
    event: Literal[EventName.YEAR_ENDED]
    year: int


class GameEnded(TypedDict):
    event: Literal[EventName.GAME_ENDED]
    scores: dict[str, int]
    money: dict[str, int]
    winners: list[int]


Event = Union[GameStarted, ProvinceClaimed, DraftCardsTurned, DraftCardsRefreshed,
              DraftCardTaken, DraftEnded, YearStarted, RoundStarted, Snapshot, RoundEnded,
              PlanLocked, FieldForfeited, PlanRevealed, EventDrawn, BidsRevealed, TiesBroken,
              TurnOrderSet, ActionStarted, CardTurned, ActionRevealed, ActionDone,
              ActionLapsed, Moved, TowerDropped, BattleResolved, WinterStarted, Shortage,
              RevoltsOrdered, Scored, YearEnded, GameEnded]
Events = list[Event]
