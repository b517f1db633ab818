"""Winter scoring on the board (issue 13, item 6), under Xvfb: majorities marked on the map
where they were won, points flying to the players panel, and fast-forward never skipping
the last winter's scoring unless the player asks (S)."""

from __future__ import annotations


import arcade

from client.game.winter_show import region_marks
from tests.client.conftest import frame, screenshot
from tests.client.conftest import run_until as _run_until
from client.sessions.local_choice import LocalChoice


def test_fast_forward_stops_for_the_last_winter_until_the_player_skips_it(app, shots):
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=7), fast=True)
    winter = scene.winter
    assert _run_until(app, lambda: winter.visible and winter.last, 240), "no final scoring shown"
    assert winter.shown >= 2                          # the first winter went by in fast-forward
    assert not scene.fast, "fast-forward stops at the final scoring (issue 27, item 10)"
    marks = scene.board_view.marks
    assert marks and all(r in {"brown", "yellow", "red", "purple", "green"} for r in marks)
    assert len(winter.flights) == 4
    for _ in range(40):                               # the scoring stays
        frame(app, dt=1 / 30)
        assert app.scene is scene and winter.visible and winter.holding
    screenshot(app, shots / "winter-final-scoring.png")
    (x0, y0), (x1, y1) = winter.flights[0][2], winter.flights[0][3]
    assert x1 > scene.board_view.right, "points fly to the players panel, right of the map"
    finals = dict(winter.totals)
    assert _run_until(app, lambda: len(winter.arrived) == 4, 20), "the points reach the panel"
    players = scene.players.state["players"]
    assert {s: players[str(s)]["score"] for s in range(4)} == finals
    app.on_key_press(arcade.key.S, 0)                 # the player asks to go on
    assert not winter.visible and not scene.board_view.marks
    assert _run_until(app, lambda: app.scene.name == "end", 30), "the game ends after it"


def test_region_marks_name_the_majorities_per_region():
    scored = [{"seat": 1, "regions": {"brown": {"temple": 2, "palace": 3, "theatre": 0}}},
              {"seat": 0, "regions": {"brown": {"theatre": 1}, "red": {"palace": 2}}}]
    assert region_marks(scored) == {"brown": [(0, "theatre 1"), (1, "castle 3, temple 2")],
                                    "red": [(0, "castle 2")]}
