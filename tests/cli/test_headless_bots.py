"""`headless --bot`: the level names, one per seat or once for all."""

from __future__ import annotations

import pytest

from cli.headless import seat_bots


def test_levels_once_for_all_or_per_seat():
    assert seat_bots(["hard"], 4) == ["hard"] * 4
    assert seat_bots(["hard", "normal", "easy", "random"], 4) == ["hard", "normal", "easy",
                                                                  "random"]
    assert seat_bots(["heuristic"], 3) == ["heuristic"] * 3


def test_unknown_level_is_named():
    with pytest.raises(ValueError, match="unknown bot 'expert'; choose from random, easy, "
                                         "normal, hard, heuristic"):
        seat_bots(["expert"], 4)
