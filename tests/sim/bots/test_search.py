"""The hard bot's search machinery (issue 15): the plan candidates, the two-stage budget and
the paired test that keeps the normal bot's choice unless another is clearly better."""

from __future__ import annotations

import pytest

from sim.bots import normal, search
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
        cands = search.plan_candidates(seen, seat, ChanceStream(SEED))
        assert cands[0] == normal.plan(seen, seat, ChanceStream(SEED), off=frozenset())
        assert len(cands) == len(set(cands)) <= search.PLAN_CANDIDATES
        assert len(cands) > 6      # more than the old one-stage search's six


def test_the_budget_is_spent_and_never_exceeded():
    for n in range(2, search.PLAN_CANDIDATES + 1):
        used = search.rollouts(n)
        assert used <= search.BUDGET or search.worlds(n) == search.MIN_WORLDS
        assert used >= search.BUDGET - n - search.FINALISTS


def test_the_default_stays_unless_clearly_better(monkeypatch):
    monkeypatch.setattr(search, "PREFER_T2", 2)
    default = [10, -30, 50, 0, 20, -5, 40, 7]
    lucky = [d + g for d, g in zip(default, [40, -35, 30, -30, 25, -20, 10, -15])]  # noisy +5
    steady = [d + g for d, g in zip(default, [6, 4, 5, 7, 3, 6, 5, 4])]             # steady +5
    assert sum(lucky) > sum(default) and sum(steady) > sum(default)
    assert not search.clearly_better(lucky, default)
    assert search.clearly_better(steady, default)
    assert not search.clearly_better(default, default)
    monkeypatch.setattr(search, "PREFER_T2", 0)      # switched off: the best total wins
    assert search.clearly_better(lucky, default)
