"""The hard bot's draft search (issue 40, R-SETUP-5): every take and army-group size is a
candidate, the rule's choice first; futures deal the unseen deck in a sampled order; the
rule is kept unless an alternative is clearly better; a seed fixes the answer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim import bots
from sim.bots import draft_search, search
from sim.chance import ChanceStream
from sim.commands import DraftPlace, DraftTake
from sim.legal import check
from sim.state import DecisionKind, State
from sim.view import view
from tests.sim.bots.bot_states import decision_states, draft_states

# a small budget keeps the tests quick; the search is the same
SMALL = replace(search.HARD, draft_budget=12, draft_more=12, min_worlds=2)
RNG_SEED = b"\x07" * 32


@pytest.fixture(scope="module")
def takes() -> list[tuple[State, int]]:
    found = draft_states(5, 3, ("draft_take",)) + draft_states(6, 2, ("draft_take",), skip=12)
    assert len(found) == 5
    return found


@pytest.fixture(scope="module")
def places() -> list[tuple[State, int]]:
    found = draft_states(5, 3, ("draft_place",))
    assert len(found) == 3
    return found


def test_take_candidates_are_the_rule_first_then_every_legal_take(takes):
    for state, seat in takes:
        seen = view(state, seat)
        cands = draft_search.candidates(seen, seat, ChanceStream(RNG_SEED))
        assert cands[0] == draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
        assert len(cands) == len(set(cands)) >= 3          # two face-up cards and the deck
        assert all(isinstance(c, DraftTake) for c in cands)
        options = {"up0", "up1", "deck"} | ({"refresh"} if state.decision.detail["can_refresh"]
                                           else set())
        assert {c.choice for c in cands if isinstance(c, DraftTake)} == options
        for c in cands:
            check(state, c)                                 # every candidate is legal


def test_place_candidates_are_the_rule_first_then_every_group_size(places):
    for state, seat in places:
        seen = view(state, seat)
        cands = draft_search.candidates(seen, seat, ChanceStream(RNG_SEED))
        assert cands[0] == DraftPlace(seat, bots.normal.draft_place(seen, seat))
        sizes = set(state.decision.detail["groups"])
        assert {c.armies for c in cands if isinstance(c, DraftPlace)} == sizes
        assert len(cands) == len(sizes)


def test_a_zero_budget_plays_the_rule(takes, places):
    off = replace(search.HARD, draft_budget=0)
    for state, seat in takes + places:
        seen = view(state, seat)
        rule = draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
        assert search.ranked(seen, seat, b"z", off) == [(rule, 0)]


def test_the_budget_is_the_draft_budget_and_shared_by_the_candidates(takes):
    state, seat = takes[0]
    seen = view(state, seat)
    assert search.budget_for(seen, search.HARD) == search.HARD.draft_budget > 0
    n = len(draft_search.candidates(seen, seat, ChanceStream(RNG_SEED)))
    assert search.rollouts(n, search.HARD.draft_budget, search.HARD) <= search.HARD.draft_budget


def test_the_search_is_the_same_for_the_same_seed(takes, places):
    for state, seat in (takes[0], places[0]):
        first = search.ranked(view(state, seat), seat, b"s", SMALL)
        assert search.ranked(view(state, seat), seat, b"s", SMALL) == first
        assert len(first) >= 3 and any(score != 0 for _, score in first)


def test_the_rule_stays_unless_another_is_clearly_better(takes, places):
    """The paired test of the plans: a candidate replaces the rule only when `clearly_better`
    says so over the futures both played (t^2 above `prefer_t2`)."""
    never = replace(SMALL, prefer_t2=10**9)
    for state, seat in takes + places:
        seen = view(state, seat)
        rule = draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
        assert search.choose(seen, seat, b"p", never) == rule


def test_the_search_leaves_the_rule_somewhere():
    """Not a dead search: over a draft, the full-budget hard takes or places differently
    from the rule at least once (it did in 42 of 128 decisions of two drafts)."""
    differs = 0
    for state, seat in draft_states(9, 6):
        seen = view(state, seat)
        differs += search.choose(seen, seat, b"d", search.HARD) != \
            draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
    assert differs >= 1


def test_dealing_the_deck_keeps_its_cards_and_what_lies_under_it(takes):
    for state, _ in takes:
        d = state.draft
        assert d is not None
        dealt = draft_search.deal_deck(d, ChanceStream(RNG_SEED))
        assert dealt.unknown == ()
        assert sorted(dealt.bottom[:len(d.unknown)]) == sorted(d.unknown)
        assert dealt.bottom[len(d.unknown):] == d.bottom
        assert (dealt.up, dealt.pick, dealt.faced, dealt.need) == (d.up, d.pick, d.faced, d.need)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_only_what_the_seat_can_see_moves_the_draft_search(takes, data):
    """The unseen deck is resampled in every future: a player knows which provinces are still
    unseen, not the order the engine stores them in, so reordering them (or changing the
    game's own coming draws, which no state holds) must leave every score alone."""
    state, seat = takes[data.draw(st.integers(0, len(takes) - 1))]
    d = state.draft
    assert d is not None and state.decision.kind == DecisionKind.DRAFT_TAKE
    order = data.draw(st.permutations(d.unknown))
    shuffled = state.copy()
    shuffled.draft = replace(d, unknown=tuple(order))
    assert search.ranked(view(shuffled, seat), seat, b"v", SMALL) == \
        search.ranked(view(state, seat), seat, b"v", SMALL)


def test_draft_futures_stop_at_the_drafts_end_and_the_others_at_the_year_end(takes, places):
    """`HARD` plays a draft decision's futures to the draft's end (judged by `draft_value`),
    a plan's to the end of the year."""
    state, seat = takes[0]
    assert search.horizon_for(view(state, seat), search.HARD) == "draft"
    assert search.horizon_for(view(places[0][0], places[0][1]), search.HARD) == "draft"
    plan_state, plan_seat = decision_states(11, ("plan",), 1, "draft")[0]
    assert search.horizon_for(view(plan_state, plan_seat), search.HARD) == "year"
    assert search.HARD.horizon == "year"


def test_a_draft_future_ends_when_summer_begins(takes):
    """The round horizon from a draft decision: the rollout plays the rest of the draft, the
    tower fill and spring; a longer horizon scores another state (year 1's winter)."""
    state, seat = takes[0]
    seen = view(state, seat)
    first = draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
    base = search.determinize(seen, seat, ChanceStream(RNG_SEED))
    spring = search.rollout(base, seat, first, RNG_SEED, None,
                            replace(SMALL, draft_horizon="round"))
    year = search.rollout(base, seat, first, RNG_SEED, None, replace(SMALL, draft_horizon="year"))
    assert spring != year


@pytest.mark.parametrize("diffs, near", [
    ([0] * 8, False),                                  # no difference at all
    ([-5, -3, -8, -1, -6, -2, -4, -7], False),         # the default ahead
    ([40, 42, 39, 41, 40, 38, 43, 41], False),         # clearly better (t^2 far above 3)
    ([30, -20, 25, -10, 15, -25, 20, -5], True),       # ahead, t^2 about 0.25: near the line
    ([60, -50, 55, -45, 50, -40, 45, -55], False),     # ahead by a hair (t^2 below 0.2)
    ([5], False),                                      # one future tells nothing
])
def test_undecided_is_the_paired_test_near_its_line(diffs, near):
    default = [100 + i for i in range(len(diffs))]
    mine = [d + b for d, b in zip(diffs, default)]
    assert search.undecided(mine, default, prefer_t2=1) is near


def test_a_second_look_plays_more_futures_only_when_undecided(takes):
    """The extra futures are shared by every candidate (common random numbers kept), added
    to the totals, and not played when the first look decided."""
    state, seat = takes[0]
    seen = view(state, seat)
    cands = draft_search.candidates(seen, seat, ChanceStream(RNG_SEED))
    n = len(cands)
    close = [[100, 130, 80, 125, 90, 115, 70, 120]] + \
        [[100, 100, 100, 100, 100, 100, 100, 100]] * (n - 1)
    close[1] = [130, 110, 105, 115, 120, 95, 110, 105]     # ahead of the rule, t^2 about 0.67
    assert search.undecided(close[1], close[0], SMALL.prefer_t2)
    per_world = [list(w) for w in close]
    totals = [sum(w) for w in per_world]
    search.draft_second_look(seen, seat, cands, b"x", totals, per_world, SMALL)
    more = max(SMALL.min_worlds, SMALL.draft_more // n)
    assert [len(w) for w in per_world] == [8 + more] * n
    assert totals == [sum(w) for w in per_world]
    decided = [[100] * 8] + [[50] * 8] * (n - 1)
    per_world = [list(w) for w in decided]
    totals = [sum(w) for w in per_world]
    search.draft_second_look(seen, seat, cands, b"x", totals, per_world, SMALL)
    assert [len(w) for w in per_world] == [8] * n
    off = replace(SMALL, draft_more=0)
    per_world = [list(w) for w in close]
    search.draft_second_look(seen, seat, cands, b"x", [sum(w) for w in per_world], per_world, off)
    assert [len(w) for w in per_world] == [8] * n
