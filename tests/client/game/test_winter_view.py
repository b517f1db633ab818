"""Winter scoring on the board (issue 13, item 6), under Xvfb: majorities marked on the map
where they were won, points flying to the players panel, and fast-forward never skipping
the last winter's scoring unless the player asks (S)."""

from __future__ import annotations


import arcade
import pytest

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


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_the_scoring_title_keeps_clear_of_the_legend(app, home, lang):
    """Issue 49 (round three, the first-hour screenshots): at 1920x1080 and 2560x1440
    the "Winter scoring" title at the top of the map lay over the legend's right end
    ("Unrest"). Measured on the legend's box and the title's, drawn, at four sizes; the
    title stays on the map."""
    from lang.i18n import use
    from tests.client.conftest import frame, to_my_plan
    use(lang)
    scene = to_my_plan(app)
    try:
        for w, h in ((960, 640), (1280, 800), (1920, 1080), (2560, 1440)):
            app.set_size(w, h)
            app.on_resize(w, h)
            frame(app, 2)
            bv, winter = scene.board_view, scene.winter
            for last in (False, True):
                winter.last = last
                title = winter.title_rect()
                legend = bv.legend_box()
                assert not _meets(title, legend), (f"{w}x{h} {lang}", title, legend)
                assert bv.left <= title[0] and title[0] + title[2] <= bv.right, (w, h, title)
    finally:
        use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def _meets(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
