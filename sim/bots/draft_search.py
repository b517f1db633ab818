"""The hard bot's draft (issue 40): which card to take and which army group goes where,
searched as its plans are.

Why: the draft decides where a player's armies stand for the whole game, and the fixed
rules (`heuristic.draft_take`, `normal.draft_place`) ignore what the rest of the draft and
year 1 make of a choice. An outside bot that tried each draft choice in sampled futures
played to the end of year 1 won 43.8% of draft games against three hard bots, and 28%
with that search switched off.

The candidates are few: every legal take (face-up card 0 or 1, the deck, a refresh) or
every distinct army-group size, the rule's choice first, so `search.ranked` keeps it
unless another is clearly better (the paired test the plans use). The futures
(`deal_deck`): the deck's unseen cards in an order drawn from the world's stream, put
where the engine looks for cards it already knows (`DraftProgress.bottom`, after the
cards put under); every candidate then meets the same deck (common random numbers), and
what lies in it is only what a player can count: the provinces not yet seen. The stored
order of `unknown` (sorted by the engine) is not used: it is sorted again first.

Tests: tests/sim/bots/test_draft_search.py, tests/sim/bots/test_determinism.py.
"""

from __future__ import annotations

from dataclasses import replace

from sim.bots import heuristic, normal
from sim.chance import ChanceStream
from sim.commands import Command, DraftPlace, DraftTake
from sim.legal import DraftTakeChoice, choices
from sim.progress import DraftProgress
from sim.state import DecisionKind, State

DRAFT_KINDS = (DecisionKind.DRAFT_TAKE, DecisionKind.DRAFT_PLACE)


def rule_choice(seen: State, seat: int, rng: ChanceStream) -> Command:
    """The fixed rule's answer (what the normal bot, and so hard before issue 40, plays)."""
    if seen.decision.kind == DecisionKind.DRAFT_TAKE:
        return heuristic.draft_take(seen, seat, rng)
    return DraftPlace(seat, normal.draft_place(seen, seat))


def candidates(seen: State, seat: int, rng: ChanceStream) -> list[Command]:
    """The rule's choice first, then every other legal take or group size."""
    first = rule_choice(seen, seat, rng)
    out: list[Command] = [first]
    d = seen.decision
    if d.kind == DecisionKind.DRAFT_TAKE:
        choice = choices(seen, seat)
        assert isinstance(choice, DraftTakeChoice)
        others: list[Command] = [DraftTake(seat, c) for c in choice.options]
    else:
        others = [DraftPlace(seat, g) for g in sorted(set(d.detail["groups"]), reverse=True)]
    out.extend(c for c in others if c != first)
    return out


def deal_deck(draft: DraftProgress, rng: ChanceStream) -> DraftProgress:
    """The draft with its unseen deck dealt in a sampled order: the shuffled unseen cards
    come first, the cards put under the deck (known order) after them, as in the game."""
    dealt = rng.shuffle(sorted(draft.unknown))
    return replace(draft, unknown=(), bottom=tuple(dealt) + draft.bottom)


__all__ = ["DRAFT_KINDS", "candidates", "deal_deck", "rule_choice"]
