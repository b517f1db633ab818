"""The hard bot's search machinery (issues 15, 29): the plan candidates, the two-stage budget and
the paired test that keeps the normal bot's choice unless another is clearly better."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.bots import candidates, hard_2025, normal, search
from sim.chance import ChanceStream
from sim.commands import ACTIONS
from sim.view import view
from tests.sim.bots.bot_states import decision_states

SEED = b"\x05" * 32


@pytest.fixture(scope="module")
def plan_states():
    found = decision_states(3, ("plan",), 2)
    assert found
    return found


def test_forbidding_a_pair_takes_it_out_of_the_plan(plan_states):
    state, seat = plan_states[0]
    seen = view(state, seat)
    base = normal.plan(seen, seat, ChanceStream(SEED))
    scored = [(a, c) for a, c in zip(ACTIONS, base.actions) if c is not None][:3]
    for pair in scored:
        other = normal.plan(seen, seat, ChanceStream(SEED), forbid=frozenset({pair}))
        assert other != base


def test_plan_candidates_start_with_the_normal_plan_and_are_distinct(plan_states):
    for state, seat in plan_states:
        seen = view(state, seat)
        cands = candidates.plan_candidates(seen, seat, ChanceStream(SEED), search.HARD)
        assert cands[0] == normal.plan(seen, seat, ChanceStream(SEED), off=frozenset())
        assert len(cands) == len(set(cands)) <= search.HARD.plan_candidates
        assert len(cands) > 6      # more than the old one-stage search's six


def test_plan_candidates_try_every_bid_from_0_to_3(plan_states):
    """Issue 29: hard tried only bids 1 and 2 besides the default plan's."""
    for state, seat in plan_states:
        seen = view(state, seat)
        money = seen.players[seat].money
        bids = {c.bid for c in candidates.plan_candidates(seen, seat, ChanceStream(SEED), search.HARD)
                if isinstance(c.bid, int)}
        assert bids >= {b for b in (0, 1, 2, 3) if b <= money}


@pytest.mark.parametrize("settings", [search.HARD, hard_2025.SETTINGS])
def test_the_budget_is_spent_and_never_exceeded(settings):
    budget = settings.budget
    for n in range(2, settings.plan_candidates + 1):
        used = search.rollouts(n, budget, settings)
        assert used <= budget or search.worlds(n, budget, settings) == settings.min_worlds
        assert used >= budget - n - settings.finalists


def test_the_year_horizon_spreads_the_budget_over_the_rounds_left(plan_states):
    state, seat = plan_states[0]
    seen = view(state, seat)
    per_round = search.HARD.budget
    assert search.budget_for(seen, search.HARD) == per_round // (4 - seen.season)
    assert search.budget_for(seen, hard_2025.SETTINGS) == hard_2025.SETTINGS.budget


def test_a_plan_budget_replaces_the_budget_for_plans_alone(plan_states):
    state, seat = plan_states[0]
    seen = view(state, seat)
    tripled = replace(search.HARD, plan_budget=3 * search.HARD.budget)
    assert search.budget_for(seen, tripled) == 3 * search.budget_for(seen, search.HARD)
    move, mover = decision_states(11, ("move",), 1, "draft")[0]
    seen = view(move, mover)
    assert search.budget_for(seen, tripled) == search.budget_for(seen, search.HARD)


def test_the_default_stays_unless_clearly_better():
    default = [10, -30, 50, 0, 20, -5, 40, 7]
    lucky = [d + g for d, g in zip(default, [40, -35, 30, -30, 25, -20, 10, -15])]  # noisy +5
    steady = [d + g for d, g in zip(default, [6, 4, 5, 7, 3, 6, 5, 4])]             # steady +5
    assert sum(lucky) > sum(default) and sum(steady) > sum(default)
    assert not search.clearly_better(lucky, default, 2)
    assert search.clearly_better(steady, default, 2)
    assert not search.clearly_better(default, default, 2)
    assert search.clearly_better(lucky, default, 0)    # switched off: the best total wins
    # t > 1 (the new hard) leaves the default on a smaller edge than t^2 > 2 (the old)
    middling = [d + g for d, g in zip(default, [20, -10, 15, -5, 12, -8, 18, -2])]
    assert search.clearly_better(middling, default, 1)
    assert not search.clearly_better(middling, default, 2)
