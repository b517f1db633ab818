"""The bot levels that answer without a search (random, easy, normal, heuristic): one
function, `decide`, from a seat's view. The hard bots' look-ahead plays their futures
with it (`sim.bots.search`), so it lives apart from `sim.bots.choose`, which picks a
search or this: the search imports it, and `sim.bots` imports the search, one way.

Tests: tests/sim/bots/ (test_bots.py, the recorded digests).
"""

from __future__ import annotations

from sim.bots import heuristic, normal, random_bot
from sim.chance import ChanceStream
from sim.commands import Command, DraftPlace, OrderRevolts, PickSpecial
from sim.state import DecisionKind, State


def decide(seen: State, seat: int, bot: str, rng: ChanceStream) -> Command:
    """A non-searching bot's answer from a view (the hard bots' look-ahead uses it too;
    `normal_2025`, the normal bot without issue 29's habits, plays the frozen
    `hard_2025`'s futures)."""
    d = seen.decision
    smart = bot != "random"
    if d.kind == DecisionKind.PLAN:
        if bot == "normal":
            return normal.plan(seen, seat, rng)
        if bot == "normal_2025":
            return normal.plan(seen, seat, rng, off=normal.NEW_HABITS | normal.OFF)
        if bot == "easy":
            return normal.careless_plan(seen, seat, rng)
        return (heuristic.plan if smart else random_bot.plan)(seen, seat, rng)
    if d.kind == DecisionKind.DRAFT_TAKE:
        return (heuristic.draft_take if smart else random_bot.draft_take)(seen, seat, rng)
    if d.kind == DecisionKind.DRAFT_PLACE:
        groups = d.detail["groups"]
        if bot in ("normal", "normal_2025", "hard", "hard_2025", "hard_2026"):
            return DraftPlace(seat, normal.draft_place(seen, seat))
        return DraftPlace(seat, groups[0] if smart else rng.choice(groups))
    if d.kind == DecisionKind.SPECIAL:
        positions = d.detail["positions"]
        if bot in ("random", "easy"):
            return PickSpecial(seat, rng.choice(positions))
        return PickSpecial(seat, heuristic.special(seen, seat, positions))
    if d.kind == DecisionKind.MOVE:
        if bot == "easy" and rng.below(3) != 0:
            return random_bot.move(seen, seat, rng)
        return (heuristic.move if smart else random_bot.move)(seen, seat, rng)
    if d.kind == DecisionKind.REVOLT_ORDER:
        provinces = list(d.detail["provinces"])
        if smart:  # strongest garrison first: its win keeps the tray small for the next
            provinces.sort(key=lambda n: (-seen.provinces[n].armies, n))
            return OrderRevolts(seat, tuple(provinces))
        return OrderRevolts(seat, tuple(rng.shuffle(provinces)))
    raise ValueError(f"bots do not answer {d.kind} decisions")
