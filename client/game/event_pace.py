"""How long each kind of event holds the table and the colour of its log line: the pace
of a game being shown (`EventPlayer` waits this long at speed 1; fast-forward waits not).

Tests: tests/client/game/test_fast_forward_stops.py, tests/client/scenes/test_window.py.
"""

from __future__ import annotations

from client.core import theme

# seconds an event holds the stage at speed 1
PACE = {"ActionDone": 0.45, "ActionLapsed": 0.35, "Moved": 0.5, "BattleResolved": 2.2,
        "ActionStarted": 0.5, "ActionRevealed": 0.3, "TurnOrderSet": 0.9, "EventDrawn": 0.9, "RoundStarted": 0.8,
        "YearStarted": 1.2, "WinterStarted": 1.5, "Shortage": 1.2, "Scored": 0.9,
        "PlanRevealed": 0.25, "GameEnded": 1.0}


CARD_SECONDS = 6.0    # seconds (at speed 1) a bots-only table shows a battle's result card
CARD_FAST = 3.0       # real seconds the card shows while fast-forwarding (the game runs on)


def log_colour(kind: str) -> tuple[int, int, int]:
    """The log line's colour for an event kind: battles red, the calendar blue."""
    if kind in ("BattleResolved", "Shortage"):
        return (150, 40, 30)
    if kind in ("YearStarted", "RoundStarted", "WinterStarted", "GameEnded"):
        return (30, 70, 140)
    return theme.INK
