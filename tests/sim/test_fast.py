"""`sim.fast` applies commands exactly as `sim.game.apply` does (the look-ahead must play
the same rules the game plays)."""

from __future__ import annotations

from sim.events import Unrecorded
from sim.fast import advance_apply, advance_in_place
from sim.game import GameConfig, apply, play, state_hash
from sim.local import LocalGame

LEFT_OUT = {"Snapshot", "TowerDropped", "BattleResolved"}


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


def test_a_look_ahead_leaves_out_only_the_costly_records_the_game_keeps():
    """Issue 40: `Unrecorded` events spare the rules the snapshots and the cube counts of
    drops and battles; `apply` (the real game) still records every one of them."""
    game = LocalGame(GameConfig(4, "sun", "draft"), 22, dict.fromkeys(range(4), "normal"))
    for _ in game.run():
        pass
    state = LocalGame(game.config, game.game_seed, {}).state
    kept: set[str] = set()
    for cmd in game.commands:
        quiet = Unrecorded()
        play(state.copy(), cmd, quiet)
        assert not {e["event"] for e in quiet} & LEFT_OUT
        state, events = apply(state, cmd)
        kept |= {e["event"] for e in events}
    assert LEFT_OUT <= kept
