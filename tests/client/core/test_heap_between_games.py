"""A game frees the last one's memory: each game started in the window freezes the heap it
starts with (`gc.freeze`, so the collector need not walk it while the game runs), and the
last game's frozen objects must be thawed and collected first. Before, every game played
in one window stayed in memory for good: a frozen cycle is never collected."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace

from client.sessions.local_choice import LocalChoice

OPTIONS = LocalChoice.one_level("heuristic", humans=())


def test_the_last_games_scene_is_freed_when_the_next_game_starts(app):
    first = weakref.ref(app.start_local(replace(OPTIONS, seed=3), fast=True))
    app.start_local(replace(OPTIONS, seed=4), fast=True)
    gc.collect()
    assert first() is None, "the first game's scene is still in memory"
