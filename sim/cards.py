"""The game's cards as data: action, event and special cards, buildings, money cards.

Why a data file: every card fact (a cost, an event's bound, a winter rice loss, the text a
player reads) must exist once. The rules, the bots, the narration and the window all read
them here, from `assets/cards.json`, which is validated on first use like the board: a
damaged file stops the program with a sentence naming the fault rather than producing a
subtly different game on one peer.

Tests: tests/sim/test_cards.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NoReturn

CARDS_PATH = Path(__file__).resolve().parent.parent / "assets" / "cards.json"

ACTION_KINDS = ("build", "collect", "deploy", "battle")
EVENT_EFFECTS = ("theatre_calms", "neutral_peasants", "palace_defence", "temple_shield",
                 "tax_at_most", "tax_at_least", "rice_at_most", "rice_at_least",
                 "fewer_deployed")


class CardDataError(ValueError):
    """The card file is missing, unreadable or inconsistent."""


@dataclass(frozen=True)
class ActionCard:
    name: str          # log name: palace, temple, ..., battle_b
    label: str         # what a player reads
    short: str         # the label where space is tight (the action track)
    kind: str          # build | collect | deploy | battle
    cost: int          # chests
    armies: int        # armies a deploy puts on the board (0 for other kinds)
    effect: str        # one sentence for the help screen and tooltips


@dataclass(frozen=True)
class EventCard:
    number: int        # 1-12, as in R-EVENT-1
    effect: str        # one of EVENT_EFFECTS
    bound: int         # the number the effect uses (a bound, or peasants/armies added)
    rice_loss: int     # winter rice loss when this is the year's leftover event
    text: str
    short: str         # the text where space is tight (the events panel)


@dataclass(frozen=True)
class SpecialCard:
    name: str          # chest, rice, six_armies, attack, defence
    label: str
    text: str


@dataclass(frozen=True)
class BuildingKind:
    name: str          # palace, temple, theatre
    label: str
    stock: int         # how many exist in the box (R-COMP-4)
    majority_points: int   # R-WINTER-4


@dataclass(frozen=True)
class Cards:
    actions: tuple[ActionCard, ...]               # in canonical action order
    action: Mapping[str, ActionCard]
    events: Mapping[int, EventCard]
    reduced_deploys: Mapping[str, int]            # event 12's counts
    specials: tuple[SpecialCard, ...]
    special: Mapping[str, SpecialCard]
    buildings: tuple[BuildingKind, ...]
    building: Mapping[str, BuildingKind]
    money_cards: tuple[int, ...]

    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.actions)

    def event(self, number: int | None) -> EventCard | None:
        """The event card with this number; None while no event is drawn."""
        return None if number is None else self.events.get(number)


def _need(cond: bool, why: str) -> None:
    if not cond:
        _fail(why)


def _fail(why: str) -> NoReturn:
    raise CardDataError(f"card file: {why}")


def _str(row: dict[str, Any], key: str, where: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or value == "":
        _fail(f"{where} needs a text field '{key}'")
    return value


def _int(row: dict[str, Any], key: str, where: str) -> int:
    value = row.get(key)
    if type(value) is not int or value < 0:
        _fail(f"{where} needs a whole number '{key}'")
    return value


def parse_cards(raw: object) -> Cards:
    """Check the card file's content and build the typed records."""
    if not isinstance(raw, dict):
        _fail("the top level must be an object")
    actions = []
    for i, row in enumerate(raw.get("actions") or []):
        where = f"action card {i + 1}"
        _need(isinstance(row, dict), f"{where} must be an object")
        card = ActionCard(_str(row, "name", where), _str(row, "label", where),
                          _str(row, "short", where), _str(row, "kind", where), _int(row, "cost", where),
                          _int(row, "armies", where), _str(row, "effect", where))
        _need(card.kind in ACTION_KINDS, f"{where} has an unknown kind {card.kind!r}")
        actions.append(card)
    _need(len(actions) == 10, f"there must be 10 action cards, not {len(actions)}")
    events: dict[int, EventCard] = {}
    for i, row in enumerate(raw.get("events") or []):
        where = f"event card {i + 1}"
        _need(isinstance(row, dict), f"{where} must be an object")
        event = EventCard(_int(row, "number", where), _str(row, "effect", where),
                         _int(row, "bound", where), _int(row, "rice_loss", where),
                         _str(row, "text", where), _str(row, "short", where))
        _need(event.effect in EVENT_EFFECTS, f"{where} has an unknown effect {event.effect!r}")
        events[event.number] = event
    _need(sorted(events) == list(range(1, 13)), "the event cards must be numbered 1 to 12")
    reduced = raw.get("reduced_deploys")
    if not isinstance(reduced, dict) or not all(type(v) is int for v in reduced.values()):
        _fail("'reduced_deploys' must map deploy actions to army counts")
    specials = []
    for i, row in enumerate(raw.get("specials") or []):
        where = f"special card {i + 1}"
        specials.append(SpecialCard(_str(row, "name", where), _str(row, "label", where),
                                    _str(row, "text", where)))
    _need(len(specials) == 5, "there must be 5 special cards")
    buildings = []
    for i, row in enumerate(raw.get("buildings") or []):
        where = f"building kind {i + 1}"
        buildings.append(BuildingKind(_str(row, "name", where), _str(row, "label", where),
                                      _int(row, "stock", where),
                                      _int(row, "majority_points", where)))
    _need([b.name for b in buildings] == ["palace", "temple", "theatre"],
          "the building kinds must be palace, temple, theatre in that order")
    money = raw.get("money_cards")
    if money != [0, 1, 2, 3, 4]:
        _fail("the money cards must be 0, 1, 2, 3, 4")
    return Cards(tuple(actions), MappingProxyType({a.name: a for a in actions}),
                 MappingProxyType(events), MappingProxyType(dict(reduced)), tuple(specials),
                 MappingProxyType({s.name: s for s in specials}), tuple(buildings),
                 MappingProxyType({b.name: b for b in buildings}), tuple(money))


def load_cards(path: Path | str = CARDS_PATH) -> Cards:
    from sim.board import read_json
    return parse_cards(read_json(path, "card file", CardDataError))


_CARDS: Cards | None = None


def cards() -> Cards:
    """The project's cards, loaded and validated once per process."""
    global _CARDS
    if _CARDS is None:
        _CARDS = load_cards()
    return _CARDS
