"""`heuristic.neighbours_in_play`, cached per board side and player count (issue 40: the
bots ask for it at every step of every rollout), answers what the board says: a
province's neighbours that are in play (R-SETUP-2), for 3, 4 and 5 players on both
sides, and for a state with other provinces than its config's, uncached."""

from __future__ import annotations

import pytest

from sim.board import board
from sim.bots.heuristic import neighbours_in_play
from sim.game import GameConfig, new_game


def expected(state, name):
    return tuple(n for n in board().neighbours[state.config.side][name] if n in state.provinces)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("side", ["sun", "moon"])
def test_neighbours_in_play_are_the_boards(players, side):
    state, _ = new_game(GameConfig(players, side, "draft"))
    for _ in range(2):                                   # computed, then from the cache
        for name in state.provinces:
            assert neighbours_in_play(state, name) == expected(state, name)


def test_a_state_with_other_provinces_is_answered_from_them():
    state, _ = new_game(GameConfig(4, "sun", "draft"))
    neighbours_in_play(state, next(iter(state.provinces)))      # the cache holds 4 players
    name = next(n for n in state.provinces if len(expected(state, n)) > 1)
    gone = expected(state, name)[0]
    del state.provinces[gone]
    assert neighbours_in_play(state, name) == expected(state, name)
    assert gone not in neighbours_in_play(state, name)
