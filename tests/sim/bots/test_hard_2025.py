"""The frozen baseline `hard_2025` (issue 29, item 3) decides exactly as the hard bot did
before issue 29: its candidates' scores on seeded states hash to the digest recorded from
that code (commit c1ea774's `hard`). The states come from `heuristic` bots, the other
frozen level, so a change to the normal bot does not move them."""

from __future__ import annotations

import hashlib

from sim import bots
from tests.sim.bots.bot_states import heuristic_states

RECORDED = "ec62afbe90453da6c3834c9913a9b98db90d01ef9c075e42abab61d85dcd8f48"


def test_hard_2025_scores_match_the_recorded_old_hard():
    found = heuristic_states(21, ("plan",), 3) + heuristic_states(22, ("special", "move"), 5)
    digest = hashlib.sha256()
    for i, (state, seat) in enumerate(found):
        digest.update(repr(bots.hard_scores(state, seat, b"golden/%d" % i, "hard_2025")).encode())
    assert len(found) == 8
    assert digest.hexdigest() == RECORDED


def test_hard_2025_is_a_level_and_plays_a_decision():
    assert "hard_2025" in bots.BOT_NAMES and "hard_2025" not in bots.LEVELS
    state, seat = heuristic_states(21, ("plan",), 1)[0]
    assert bots.choose(state, seat, "hard_2025", b"x" * 32) == \
        bots.hard_scores(state, seat, b"x" * 32, "hard_2025")[0][0]
