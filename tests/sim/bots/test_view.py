"""The bots cannot peek (issue 15, item 2): a decision depends on `view(state, seat)` only,
so changing the other seats' unturned cards in the full state changes nothing."""

from __future__ import annotations

import pytest

from sim import bots
from sim.game import state_hash
from tests.sim.bots.bot_states import decision_states, swap_unturned

SEED = b"\x07" * 32


@pytest.fixture(scope="module")
def states():
    found = decision_states(3, ("plan",), 2) + decision_states(3, ("move", "special"), 4)
    assert len(found) >= 5
    return found


@pytest.mark.parametrize("bot", ["random", "easy", "normal", "heuristic"])
def test_quick_bots_ignore_the_others_unturned_cards(states, bot):
    for state, seat in states:
        changed = swap_unturned(state, seat)
        assert state_hash(changed) != state_hash(state)     # the full states differ
        assert bots.choose(changed, seat, bot, SEED) == bots.choose(state, seat, bot, SEED)


@pytest.mark.parametrize("bot", ["hard", "hard_2025"])
def test_hard_bot_ignores_the_others_unturned_cards(states, bot):
    """The search samples the hidden plans; with the real ones it would decide otherwise
    (checked by making `choose` pass the full state: this test then fails)."""
    for state, seat in states[:4]:
        changed = swap_unturned(state, seat)
        assert state_hash(changed) != state_hash(state)
        assert bots.choose(changed, seat, bot, SEED) == bots.choose(state, seat, bot, SEED)
        # not only the choice: every candidate's score is the same
        assert bots.hard_scores(changed, seat, SEED, bot) == bots.hard_scores(state, seat, SEED, bot)
