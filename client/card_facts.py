"""The card facts the window shows players (action costs, event texts), from one place.

The only module in the client that reads them, from `sim.cards` (the card data file),
so the window never holds a copy of a card fact.
"""

from __future__ import annotations


def action_costs() -> dict[str, int]:
    """Chests an action costs, by action name; actions not listed are free."""
    from sim.cards import cards
    return {a.name: a.cost for a in cards().actions if a.cost}


def event_texts() -> dict[int, str]:
    """The 12 event cards' effects, by number."""
    from sim.cards import cards
    return {n: e.text for n, e in cards().events.items()}


def event_rice_loss() -> dict[int, int]:
    """Rice each event card takes from everyone in winter when it is the one left over."""
    from sim.cards import cards
    return {n: e.rice_loss for n, e in cards().events.items()}


def chests(n: int) -> str:
    return f"{n} chest" if n == 1 else f"{n} chests"
