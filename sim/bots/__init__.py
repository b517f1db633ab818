"""Bots: pure functions of (what a seat may know, a seed) -> command, so every peer can run
a bot seat identically.

A bot sees `sim.view.view(state, seat)` only: other seats' unturned cards are hidden from
it exactly as from a player at the table. Levels (`docs/bots.md`):
- `random`: uniformly random legal choices (a baseline);
- `easy`: sensible moves picked with a shaky hand (`normal.careless_plan`);
- `heuristic`: the first sensible bot, kept as the benchmark's baseline (`heuristic.py`);
- `normal`: the heuristic with a decent player's habits (`normal.py`);
- `hard`: a search bot, flat Monte Carlo over sampled futures to the year's end, the draft
  included (`search.py`, `draft_search.py`);
- `hard_2025`: the hard bot before issue 29, frozen as a baseline (`hard_2025.py`);
- `hard_2026`: the hard bot before issue 40 (the draft by fixed rules), frozen as a
  baseline (`hard_2026.py`).

Tests: tests/sim/bots/test_view.py, tests/sim/bots/test_determinism.py,
tests/cli/test_headless_bots.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.bots.levels import decide
from sim.chance import ChanceStream
from sim.commands import Command
from sim.state import State
from sim.view import view

if TYPE_CHECKING:
    from sim.bots.search import Settings

BOT_NAMES = ("random", "easy", "normal", "hard", "heuristic", "hard_2025", "hard_2026")
LEVELS = ("easy", "normal", "hard")      # what menus offer; the others are baselines
SEARCHING = ("hard", "hard_2025", "hard_2026")


def choose(state: State, seat: int, bot: str, seed: bytes) -> Command:
    """The bot's answer to the decision `seat` faces now."""
    if bot not in BOT_NAMES:
        raise ValueError(f"unknown bot {bot!r}; choose from {', '.join(BOT_NAMES)}")
    d = state.decision
    if seat not in d.seats:
        raise ValueError(f"seat {seat} has no decision to make now ({d.kind})")
    seen = view(state, seat)
    if bot in SEARCHING:
        from sim.bots import search
        return search.choose(seen, seat, seed, _settings(bot))
    return decide(seen, seat, bot, ChanceStream(seed))


def _settings(bot: str) -> Settings:
    from sim.bots import hard_2025, hard_2026, search
    if bot == "hard_2025":
        return hard_2025.SETTINGS
    return hard_2026.SETTINGS if bot == "hard_2026" else search.HARD


def hard_scores(state: State, seat: int, seed: bytes,
                bot: str = "hard") -> list[tuple[Command, int]]:
    """A searching bot's candidates and their search scores, best first, from the view
    (for tests and a window that shows what the bot weighed)."""
    from sim.bots import search
    return search.ranked(view(state, seat), seat, seed, _settings(bot))
