"""The public view after each event (sim/viewed.py): the same step as `apply` (state,
events, hash), one view per event, and each view already holds the change its event
reports (R-SETUP-3 claims, R-EXEC-3 moves, R-BATTLE-6..8 results)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from sim.commands import Command

from sim.game import GameConfig, apply, state_hash
from sim.local import LocalGame
from sim.snapshot import PublicState, public_state
from sim.state import State
from sim.viewed import apply_viewed

GAMES = [(GameConfig(4, "sun", "beginner"), 7, "normal"),
         (GameConfig(3, "moon", "draft"), 11, "easy")]


def _steps(config: GameConfig, seed: int, bot: str) -> Iterator[tuple[State, Command]]:
    """Every (state before, command) of a whole bot game."""
    game = LocalGame(config, seed, dict.fromkeys(range(config.players), bot))
    while (cmd := game.automatic_command()) is not None:
        before = game.state
        game.submit(cmd)
        yield before, cmd


def _agrees(event: Mapping[str, Any], before: PublicState, view: PublicState) -> None:
    """The view holds the change the event reports (`before`: the view before it; a view
    shared with a later event would fail the move's check)."""
    kind = event["event"]
    if kind == "ProvinceClaimed":                       # R-SETUP-3
        p = view["provinces"][event["province"]]
        assert (p["owner"], p["armies"]) == (event["seat"], event["armies"])
    elif kind == "Moved":                               # R-EXEC-3
        assert view["provinces"][event["from"]]["armies"] == \
            before["provinces"][event["from"]]["armies"] - event["count"]
    elif kind == "BattleResolved":                      # R-BATTLE-6..8
        p = view["provinces"][event["province"]]
        assert p["owner"] == event["new_owner"]
        if event["new_owner"] is None:
            assert (p["armies"], p["buildings"], p["unrest"]) == (0, [], 0)
        elif event["result"] == "attacker":
            assert p["armies"] == event["survivors"]


@pytest.mark.parametrize("config,seed,bot", GAMES)
def test_a_viewed_step_is_the_step_apply_makes_with_a_view_per_event(
        config: GameConfig, seed: int, bot: str) -> None:
    steps = kinds = 0
    for before, cmd in _steps(config, seed, bot):
        after, events = apply(before, cmd)
        viewed, same_events, views = apply_viewed(before, cmd)
        assert state_hash(viewed) == state_hash(after) and same_events == events
        assert len(views) == len(events)
        shown = public_state(before)
        for e, view in zip(events, views):
            _agrees(e, shown, view)
            kinds += e["event"] in ("ProvinceClaimed", "Moved", "BattleResolved")
            shown = view
        steps += 1
    assert steps > 200 and kinds > 20          # a whole game, with moves and battles

