"""`sim.fast` applies commands exactly as `sim.game.apply` does (the look-ahead must play
the same rules the game plays)."""

from __future__ import annotations

from sim.fast import advance_apply, advance_in_place
from sim.game import GameConfig, apply, state_hash
from sim.local import LocalGame


def test_fast_apply_reaches_the_same_states_as_apply():
    game = LocalGame(GameConfig(4, "sun", "draft"), 21, dict.fromkeys(range(4), "normal"))
    for _ in game.run():
        pass
    state = LocalGame(game.config, game.game_seed, {}).state
    in_place = state.copy()
    for cmd in game.commands:
        expected, _ = apply(state, cmd)
        before = state_hash(state)
        fast = advance_apply(state, cmd)
        assert state_hash(state) == before                 # the input is untouched
        advance_in_place(in_place, cmd)
        assert state_hash(fast) == state_hash(expected) == state_hash(in_place)
        state = expected
    assert state.decision.kind == "over"
