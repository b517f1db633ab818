"""The card facts the window shows players (action costs, event texts), from one place.

The only module in the client that reads them from the rules engine: when the engine
moves its card facts (to `sim/cards.py`), only these imports change.
"""

from __future__ import annotations


def action_costs() -> dict[str, int]:
    """Chests an action costs, by action name; actions not listed are free."""
    from sim.rules import BUILD_COST, DEPLOY_COST
    return {**BUILD_COST, **DEPLOY_COST}


def event_texts() -> dict[int, str]:
    """The 12 event cards' effects, by number."""
    from sim.rules import EVENT_TEXT
    return dict(EVENT_TEXT)


def event_rice_loss() -> dict[int, int]:
    """Rice each event card takes from everyone in winter when it is the one left over."""
    from sim.rules import EVENT_RICE_LOSS
    return dict(EVENT_RICE_LOSS)


def chests(n: int) -> str:
    return f"{n} chest" if n == 1 else f"{n} chests"
