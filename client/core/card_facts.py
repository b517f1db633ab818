"""The card facts the window shows players (action costs, event texts), from one place.

Their words are translated here (the card data file's texts are in the catalogue through
`lang/extract_cards.py`); tables kept by other modules answer in the current language.

The only module in the client that reads them, from `sim.cards` (the card data file),
so the window never holds a copy of a card fact.

Tests: tests/client/words/test_i18n.py, tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

from lang.i18n import Translated, _, ngettext
from sim.cards import cards


def action_costs() -> dict[str, int]:
    """Chests an action costs, by action name; actions not listed are free."""
    return {a.name: a.cost for a in cards().actions if a.cost}


def event_texts() -> dict[int, str]:
    """The 12 event cards' effects, by number."""
    return {n: _(e.text) for n, e in cards().events.items()}


def event_rice_loss() -> dict[int, int]:
    """Rice each event card takes from everyone in winter when it is the one left over."""
    return {n: e.rice_loss for n, e in cards().events.items()}


def action_short() -> Translated:
    """Action names where space is tight (the action track, the planning fields)."""
    return Translated({a.name: a.short for a in cards().actions})


def special_labels() -> Translated:
    return Translated({s.name: s.label for s in cards().specials})


def event_short() -> Translated:
    """The 12 event cards' effects in a few words (the events panel)."""
    return Translated({n: e.short for n, e in cards().events.items()})


def chests(n: int) -> str:
    return ngettext("{n} chest", "{n} chests", n).format(n=n)


def event_effects() -> dict[int, str]:
    """What kind of rule each event card changes (`theatre_calms`, `tax_at_least`, …), by
    number: the window marks where it acts (client/board/event_marks.py)."""
    return {n: e.effect for n, e in cards().events.items()}


def special_texts() -> dict[str, str]:
    """What each special card does, by name (tooltips)."""
    return {s.name: _(s.text) for s in cards().specials}
