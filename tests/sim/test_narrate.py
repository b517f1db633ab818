"""Narration is for players: sentences without rule ids, Python reprs or "1 armies"."""

from __future__ import annotations

import re

import pytest

from sim.game import GameConfig
from sim.local import play_bots
from sim.narrate import describe

BAD = [(re.compile(r"\bR-[A-Z]+-\d+"), "a rule id"),
       (re.compile(r"\b1 (armies|chests|points|provinces|peasants)\b"), "a wrong plural"),
       (re.compile(r"\bNone\b|[{}\[\]]|'\w+':"), "a Python repr")]


@pytest.mark.parametrize("config, seed", [(GameConfig(4, "sun", "beginner"), 11),
                                          (GameConfig(3, "moon", "draft"), 12),
                                          (GameConfig(5, "sun", "draft"), 13)])
def test_narration_speaks_the_players_language(config, seed):
    _, events = play_bots(config, seed, ["heuristic", "random"] * 3)
    lines = [line for e in events for line in (describe(e) or "").splitlines()]
    assert len(lines) > 200
    for line in lines:
        for pattern, what in BAD:
            assert not pattern.search(line), f"{what} in: {line}"


def test_each_narrator_is_for_an_event_the_engine_declares():
    """A narrator keyed by a misspelt name would never speak; sim.events lists the names."""
    from sim.events import EVENT_NAMES
    from sim.narrate import NARRATORS
    assert set(NARRATORS) <= set(EVENT_NAMES)
    assert {"BattleResolved", "TowerDropped", "GameEnded"} <= set(NARRATORS)
