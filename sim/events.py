"""What the game reports as it moves: one typed record per event kind.

Why typed: events leave `sim` for the game log (JSON lines), the window's narration and
animations, and the network's standings, each reading them by key. A record per kind
names every key and its type, so a misspelt key, name or value is a type error in `sim`
rather than a silent gap in a log. They stay plain dicts at run time (a `TypedDict` is a
dict) and an event's name is a `Literal` string, so logs and saves are the same bytes as
when events were untyped dict literals. Keys are declared in the order the log writes
them.

Why names are `Literal` strings and not an enum like `sim.state.DecisionKind`: every step
appends several events, and under Python 3.11 reading an enum member costs ~5 times a
plain name (`EnumType.__getattr__` routes every class attribute through a slow hook);
a literal costs nothing at run time and mypy checks it just as well.

A reader narrows an `Event` by its name (`if e["event"] == "Moved":`, which mypy checks
against `EventName`); code that reads events back from a log, where nothing is checked
yet, takes `Mapping[str, Any]`.

No `from __future__ import annotations` here: a `TypedDict` learns which keys are
`NotRequired` only from evaluated annotations.

Tests: tests/sim/test_events.py.
"""

from typing import Literal, NotRequired, TypedDict, Union, get_args

from sim.commands import TowerDecider as TowerDecider        # (re-exported: an event's values)
from sim.progress import BattleKind as BattleKind, BattleResult as BattleResult
from sim.snapshot import PublicState
from sim.state import Season as Season

# Every event's `event` value, in the past tense of what happened.
EventName = Literal[
    "GameStarted", "ProvinceClaimed", "DraftCardsTurned", "DraftCardsRefreshed",
    "DraftCardTaken", "DraftEnded", "YearStarted", "RoundStarted",
    "Snapshot",                 # the public state at a round's start, winter and the end
    "PlanLocked", "FieldForfeited", "EventDrawn", "BidsRevealed", "TiesBroken",
    "TurnOrderSet", "ActionStarted", "CardTurned", "ActionRevealed", "ActionDone",
    "ActionLapsed", "Moved", "TowerDropped", "BattleResolved", "PlanRevealed", "RoundEnded",
    "WinterStarted",
    "Shortage",                 # R-WINTER-2: rice short, revolts drawn
    "RevoltsOrdered", "Scored", "YearEnded", "GameEnded"]
EVENT_NAMES: tuple[str, ...] = get_args(EventName)

# the values a few keys take (docs/game-log.md); those the state holds too are declared
# beside it: a battle's kind and result (`sim.progress`), how a drop was settled
# (`sim.commands`), the season (`sim.state`)
DropReason = Literal["fill", "battle", "revolt"]          # why cubes went into the tower
BattleSide = Union[int, Literal["peasant"]]                # a seat, or the peasants


# ----------------------------------------------------------------------------- setup

class GameStarted(TypedDict):
    event: Literal["GameStarted"]
    players: int
    side: str
    setup: str
    money: dict[str, int]              # by seat number as a string (JSON keys)


class ProvinceClaimed(TypedDict):
    event: Literal["ProvinceClaimed"]
    seat: int
    province: str
    armies: int


class DraftCardsTurned(TypedDict):
    event: Literal["DraftCardsTurned"]
    up: list[str | None]


class DraftCardsRefreshed(TypedDict):
    event: Literal["DraftCardsRefreshed"]
    seat: int


# "from" is a Python keyword: these two records are declared with the functional syntax.
DraftCardTaken = TypedDict("DraftCardTaken", {
    "event": Literal["DraftCardTaken"],
    "seat": int,
    "province": str,
    "from": Literal["deck", "face_up"],
})


class DraftEnded(TypedDict):
    event: Literal["DraftEnded"]


# ----------------------------------------------------------------------------- years, rounds

class YearStarted(TypedDict):
    event: Literal["YearStarted"]
    year: int
    events: list[int]                  # the year's four event cards


class RoundStarted(TypedDict):
    event: Literal["RoundStarted"]
    year: int
    season: Season
    specials: list[str]
    actions: list[str | None]          # the face-up slots 1-5


class Snapshot(TypedDict):
    event: Literal["Snapshot"]
    state: PublicState


class RoundEnded(TypedDict):
    event: Literal["RoundEnded"]
    year: int
    season: Season


# ----------------------------------------------------------------------------- plans, bids

class PlanLocked(TypedDict):
    event: Literal["PlanLocked"]
    seat: int


class FieldForfeited(TypedDict):
    event: Literal["FieldForfeited"]
    seat: int
    field: str


class PlanRevealed(TypedDict):
    event: Literal["PlanRevealed"]
    seat: int
    actions: dict[str, str | None]
    bid: int | str | None              # a money card, "province", or no card


class EventDrawn(TypedDict):
    event: Literal["EventDrawn"]
    event_card: int
    rice_loss: int


class BidsRevealed(TypedDict):
    event: Literal["BidsRevealed"]
    bids: dict[str, int | str | None]
    paid: dict[str, int]


class TiesBroken(TypedDict):
    event: Literal["TiesBroken"]
    ranking: list[int]


class TurnOrderSet(TypedDict):
    event: Literal["TurnOrderSet"]
    order: list[int]
    specials: dict[str, str | None]
    paid: dict[str, int]
    pick_order: list[int]


# ----------------------------------------------------------------------------- actions

class ActionStarted(TypedDict):
    event: Literal["ActionStarted"]
    slot: int                          # 1-10
    action: str


class CardTurned(TypedDict):
    event: Literal["CardTurned"]
    seat: int
    action: str
    province: str | None               # None: a money card


class ActionRevealed(TypedDict):
    event: Literal["ActionRevealed"]
    slot: int
    action: str


class ActionOutcome(TypedDict, total=False):
    """What some actions add to `ActionDone` (the keys `ActionDone` declares last)."""
    unrest_removed: int                # a theatre under events 1/2
    unrest_placed: int                 # rice and tax
    moved_to: str
    revolt_lost: bool
    attacked: str
    result: BattleResult               # with `attacked`


class _ActionDoneKeys(TypedDict):
    event: Literal["ActionDone"]
    seat: int
    action: str
    province: str
    paid: int
    money_gained: int
    rice_gained: int
    armies_placed: int


class ActionDone(_ActionDoneKeys, ActionOutcome):
    """An action carried out; the keys of its outcome, where it has them, come last."""


class ActionLapsed(TypedDict):
    event: Literal["ActionLapsed"]
    seat: int
    action: str
    province: str
    rule: str
    reason: str                        # English; `sim.narrate.lapse_reason` translates


Moved = TypedDict("Moved", {
    "event": Literal["Moved"],
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
    event: Literal["TowerDropped"]
    reason: DropReason
    thrown: dict[str, int]             # by colour name (`sim.state.colour_map`)
    out: dict[str, int]
    inside_after: dict[str, int]
    decided_by: TowerDecider           # docs/game-log.md
    replay: TowerReplay


class BattleResolved(TypedDict):
    event: Literal["BattleResolved"]
    kind: BattleKind
    province: str
    attacker: BattleSide
    defender: BattleSide
    unrest: int
    thrown: dict[str, int]
    out: dict[str, int]
    attacker_count: int
    defender_count: int
    result: BattleResult
    survivors: int
    new_owner: int | None
    # the cubes added to the throw, as `sim.state.Battle.extras` names them
    attack_card: NotRequired[int]
    defence_card: NotRequired[int]
    palace_event: NotRequired[int]
    peasants: NotRequired[int]


# ----------------------------------------------------------------------------- winter, the end

class WinterStarted(TypedDict):
    event: Literal["WinterStarted"]
    year: int
    rice_loss: int
    event_card: int


class Shortage(TypedDict):
    event: Literal["Shortage"]
    seat: int
    rice: int
    provinces: int
    shortage: int
    revolts: int
    extra_peasants: int
    drawn: list[str]


class RevoltsOrdered(TypedDict):
    event: Literal["RevoltsOrdered"]
    seat: int
    order: list[str]


class Scored(TypedDict):
    event: Literal["Scored"]
    seat: int
    provinces: int
    buildings: int
    majority_points: int
    gained: int
    score: int
    regions: dict[str, dict[str, int]]   # region -> building kind -> points


class YearEnded(TypedDict):
    event: Literal["YearEnded"]
    year: int


class GameEnded(TypedDict):
    event: Literal["GameEnded"]
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


class Unrecorded(list[Event]):
    """The events of a look-ahead's step (`sim.fast`), which nobody reads. The rules leave
    their costliest records out of it (`recorded`): the state snapshots and the tower's
    and a battle's cube counts were an eighth of the rules' time in the hard bot's
    rollouts (issue 40). The state the rules leave is the same either way."""


def recorded(events: Events) -> bool:
    """Does anyone read these events (not a look-ahead's `Unrecorded`)?"""
    return type(events) is not Unrecorded
