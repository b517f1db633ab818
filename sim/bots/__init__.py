"""Bots: pure functions of (what a seat may know, a seed) -> command, so every peer can run
a bot seat identically.

A bot sees `sim.view.view(state, seat)` only: other seats' unturned cards are hidden from
it exactly as from a player at the table. `random` makes uniformly random legal choices (a
baseline); `heuristic` plays like a sensible person (`heuristic.py`).
"""

from __future__ import annotations

from sim.bots import heuristic, random_bot
from sim.chance import ChanceStream
from sim.commands import Command, DraftPlace, OrderRevolts, PickSpecial
from sim.state import State
from sim.view import view

BOT_NAMES = ("random", "heuristic")


def choose(state: State, seat: int, bot: str, seed: bytes) -> Command:
    """The bot's answer to the decision `seat` faces now."""
    if bot not in BOT_NAMES:
        raise ValueError(f"unknown bot {bot!r}; choose from {', '.join(BOT_NAMES)}")
    rng = ChanceStream(seed)
    d = state.decision
    if seat not in d.seats:
        raise ValueError(f"seat {seat} has no decision to make now ({d.kind})")
    seen = view(state, seat)
    smart = bot == "heuristic"
    if d.kind == "plan":
        return (heuristic.plan if smart else random_bot.plan)(seen, seat, rng)
    if d.kind == "draft_take":
        return (heuristic.draft_take if smart else random_bot.draft_take)(seen, seat, rng)
    if d.kind == "draft_place":
        groups = d.detail["groups"]
        return DraftPlace(seat, groups[0] if smart else rng.choice(groups))
    if d.kind == "special":
        positions = d.detail["positions"]
        if not smart:
            return PickSpecial(seat, rng.choice(positions))
        return PickSpecial(seat, heuristic.special(seen, seat, positions))
    if d.kind == "move":
        return (heuristic.move if smart else random_bot.move)(seen, seat, rng)
    if d.kind == "revolt_order":
        provinces = list(d.detail["provinces"])
        if smart:  # strongest garrison first: its win keeps the tray small for the next
            provinces.sort(key=lambda n: (-seen.provinces[n].armies, n))
            return OrderRevolts(seat, tuple(provinces))
        return OrderRevolts(seat, tuple(rng.shuffle(provinces)))
    raise ValueError(f"bots do not answer {d.kind} decisions")
