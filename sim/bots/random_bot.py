"""The random bot: uniformly random legal choices, a baseline for the others.

Tests: tests/sim/test_properties.py (random legal play), tests/cli/test_headless_bots.py.
"""

from __future__ import annotations

from sim.chance import ChanceStream
from sim.commands import ChooseMove, DraftTake, SubmitPlan
from sim.legal import MONEY_CARDS, DraftTakeChoice, choices
from sim.state import State

def plan(state: State, seat: int, rng: ChanceStream) -> SubmitPlan:
    hand = rng.shuffle(state.cards_of(seat))
    money = state.players[seat].money
    bids: list[int | str] = [v for v in range(5) if v <= money]
    if hand:
        bids.append(hand[0])
    bid = rng.choice(bids)
    usable = [c for c in hand if c != bid]
    money_left = MONEY_CARDS - (1 if isinstance(bid, int) else 0)
    least = min(10 - money_left, len(usable))
    count = least + rng.below(min(10, len(usable)) - least + 1)
    fields = rng.sample(list(range(10)), count)
    actions: list[str | None] = [None] * 10
    for field, card in zip(fields, usable):
        actions[field] = card
    return SubmitPlan(seat, tuple(actions), bid)


def draft_take(state: State, seat: int, rng: ChanceStream) -> DraftTake:
    choice = choices(state, seat)
    assert isinstance(choice, DraftTakeChoice)   # asked only at a draft_take decision
    return DraftTake(seat, rng.choice(choice.options))


def move(state: State, seat: int, rng: ChanceStream) -> ChooseMove:
    d = state.decision.detail
    targets = sorted(d["targets"])
    if d["optional"] and rng.below(2) == 0:
        return ChooseMove(seat, None, 0)
    target = rng.choice(targets)
    return ChooseMove(seat, target, 1 + rng.below(d["targets"][target]))
