"""Regret matching over plan finalists (issue 40, "while there"; off in `search.HARD`):
RM+ finds the equilibrium of small known games, draws follow the shares, the search
is a function of its seed, and the normal plan is kept without clear evidence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.bots import plan_equilibrium, search
from sim.bots.plan_equilibrium import RegretMatching, draw, mix, update
from sim.chance import ChanceStream
from sim.view import view
from tests.sim.bots.bot_states import decision_states


@pytest.mark.parametrize("regrets, shares", [
    ([0.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]),    # nothing learnt: even shares
    ([3.0, 1.0], [0.75, 0.25]),                          # in proportion to the regrets
    ([-5.0, 2.0, 0.0], [0.0, 1.0, 0.0]),                 # negative regrets count as none
])
def test_the_mix_is_in_proportion_to_the_positive_regrets(regrets, shares):
    assert mix(regrets) == pytest.approx(shares)


def test_rm_plus_cuts_regrets_at_zero():
    regrets = [0.0, 0.0]
    update(regrets, [10, 0], [0.5, 0.5])       # the mix is worth 5
    assert regrets == [5.0, 0.0]               # the loser's -5 is cut at 0


def test_a_draw_never_picks_a_candidate_without_a_share():
    rng = ChanceStream(b"\x01" * 32)
    picks = [draw([0.0, 0.3, 0.0, 0.7], rng) for _ in range(400)]
    assert set(picks) == {1, 3}
    assert 220 < picks.count(3) < 340          # about 70%


def _self_play(payoff: list[list[int]], iterations: int) -> tuple[list[float], list[float]]:
    """RM+ for a two-player zero-sum matrix game, both with exact values: the row
    player's and the column player's average mixes (weighted as in `choose`)."""
    rows, cols = [0.0] * len(payoff), [0.0] * len(payoff[0])
    avg_r, avg_c = [0.0] * len(rows), [0.0] * len(cols)
    for it in range(iterations):
        sr, sc = mix(rows), mix(cols)
        row_values = [round(1000 * sum(p * s for p, s in zip(line, sc))) for line in payoff]
        col_values = [round(-1000 * sum(payoff[i][j] * sr[i] for i in range(len(sr))))
                      for j in range(len(sc))]
        update(rows, row_values, sr)
        update(cols, col_values, sc)
        avg_r = [a + (it + 1) * s for a, s in zip(avg_r, sr)]
        avg_c = [a + (it + 1) * s for a, s in zip(avg_c, sc)]
    return [a / sum(avg_r) for a in avg_r], [a / sum(avg_c) for a in avg_c]


def test_matching_pennies_ends_in_even_shares():
    rows, cols = _self_play([[1, -1], [-1, 1]], 400)
    assert rows == pytest.approx([0.5, 0.5], abs=0.03)
    assert cols == pytest.approx([0.5, 0.5], abs=0.03)


def test_a_dominated_choice_loses_its_share():
    # row 1 is worse than row 0 against every column; the column player then picks column 1
    rows, cols = _self_play([[2, 1], [1, 0]], 200)
    assert rows[0] > 0.95
    assert cols[1] > 0.95


@pytest.fixture(scope="module")
def plan_state():
    state, seat = decision_states(11, ("plan",), 1, "draft")[0]
    return view(state, seat), seat


SMALL = replace(search.HARD, budget=24, min_worlds=2)


def test_the_search_is_a_function_of_its_seed(plan_state):
    seen, seat = plan_state
    st = replace(SMALL, plan_chooser=RegretMatching(3))
    first = search.ranked(seen, seat, b"seed", st)
    assert search.ranked(seen, seat, b"seed", st) == first
    flat = search.ranked(seen, seat, b"seed", replace(st, plan_chooser=None))
    assert sorted(map(repr, first)) == sorted(map(repr, flat))   # the same candidates


def test_the_normal_plan_is_kept_without_clear_evidence(plan_state):
    seen, seat = plan_state
    st = replace(SMALL, plan_chooser=RegretMatching(2))
    ranked = search.ranked(seen, seat, b"seed", replace(st, plan_chooser=None))
    cands = [c for c, _ in ranked[:3]]
    # two iterations and no earlier futures: too little for the paired test to pass
    pick, average = plan_equilibrium.choose(seen, seat, cands, b"seed", st, 2)
    assert pick == 0
    assert sum(average) == pytest.approx(1.0)
    assert len(average) == 3
