"""The frozen baseline `hard_2026` (issue 40) decides exactly as the hard bot did before
issue 40: on plans, turn-order picks and moves its candidates' scores hash to the digest
recorded from that code (commit c9992b5's `hard`), and its draft is the fixed rule. The
new `hard` differs only in the draft, so in beginner games (no draft) the two play alike."""

from __future__ import annotations

import hashlib

import pytest

from sim import bots
from sim.bots import draft_search
from sim.chance import ChanceStream
from sim.view import view
from tests.sim.bots.bot_states import draft_states, heuristic_states

RECORDED = "c51f0be31b755193d29aca70c05c6903bebfb496d19ee2e69bd7689a4a292248"


def _digest(bot: str) -> str:
    found = heuristic_states(21, ("plan",), 3) + heuristic_states(22, ("special", "move"), 5)
    assert len(found) == 8
    digest = hashlib.sha256()
    for i, (state, seat) in enumerate(found):
        digest.update(repr(bots.hard_scores(state, seat, b"golden/%d" % i, bot)).encode())
    return digest.hexdigest()


def test_hard_2026_scores_match_the_recorded_hard_before_issue_40():
    assert _digest("hard_2026") == RECORDED


def test_the_new_hard_searches_plans_picks_and_moves_as_before():
    """Issue 40 changed the draft only: the other decisions score as the old hard's."""
    assert _digest("hard") == RECORDED


@pytest.mark.slow
def test_in_a_beginner_game_hard_and_hard_2026_decide_alike():
    for state, seat in heuristic_states(23, ("plan", "special", "move"), 3, setup="beginner"):
        assert bots.hard_scores(state, seat, b"b", "hard") == \
            bots.hard_scores(state, seat, b"b", "hard_2026")


def test_hard_2026_drafts_by_the_fixed_rule():
    assert "hard_2026" in bots.BOT_NAMES and "hard_2026" not in bots.LEVELS
    for state, seat in draft_states(5, 4):
        rule = draft_search.rule_choice(view(state, seat), seat, ChanceStream(b"r" * 32))
        assert bots.hard_scores(state, seat, b"x" * 32, "hard_2026") == [(rule, 0)]
        assert bots.choose(state, seat, "hard_2026", b"x" * 32) == rule
