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



# the first year's scoring in the tutorial (issue 49, round three: its step 10 at
# 1920x1080 and 2560x1440 had chips over Iyo and Omi)
TUTORIAL_SCORED = [
    {"seat": 0, "regions": {"purple": {"palace": 3, "theatre": 1},
                            "yellow": {"palace": 3, "temple": 2}}},
    {"seat": 1, "regions": {"red": {"theatre": 1}, "brown": {"palace": 3}}},
    {"seat": 2, "regions": {"green": {"palace": 2, "temple": 2, "theatre": 1},
                            "yellow": {"temple": 2}}},
    {"seat": 3, "regions": {"green": {"palace": 2}, "yellow": {"theatre": 1}}}]


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_each_regions_chips_cover_no_other_regions_names_or_tokens(app, home, shots, lang):
    """Issue 49 (round three, item 3's chips): at 1920x1080 and 2560x1440 the winter
    scoring chips lay over Iyo and Omi, provinces of another region than the chip's.
    Measured at four sizes on the names as drawn, the army tokens' squares and the
    provinces' outlines (a grid of points over each chip): each chip lies on its own
    region's provinces or on the sea, covers no name at all, no token of another
    region's province, and no other chip."""
    from lang.i18n import use
    from sim.board import board as the_board
    from tests.client.conftest import to_my_plan
    use(lang)
    scene = to_my_plan(app)
    bv = scene.board_view
    region_of = {n: p.region[bv.side] for n, p in the_board().provinces.items()}
    marks = region_marks(TUTORIAL_SCORED)
    bad = []
    try:
        for w, h in ((960, 640), (1280, 800), (1920, 1080), (2560, 1440)):
            app.set_size(w, h)
            app.on_resize(w, h)
            bv.set_marks(marks)
            frame(app, 2)
            s = bv.token_scale()
            names = {key[1]: (t.left, t.bottom, t.right - t.left, t.top - t.bottom)
                     for key, t in bv.texts.labels.items() if key[0] == "n" and t.visible}
            assert len(names) == len(region_of), sorted(names)
            owners = [region for region, rows in sorted(marks.items()) for _ in rows]
            assert len(bv.mark_boxes) == len(owners) == 8
            chips = [(region, (l, b, r - l, t - b))
                     for region, (l, b, r, t) in zip(owners, bv.mark_boxes)]
            where = f"{w}x{h} {lang}"
            for k, (region, chip) in enumerate(chips):
                for n, box in names.items():
                    cx, cy = bv.province_centre(n)
                    token = (cx - 10.5 * s, cy - 10.5 * s, 21 * s, 21 * s)
                    if _meets(chip, box):
                        bad.append(f"{where}: the {region} chip {k} over {n}'s name")
                    elif region_of[n] != region and _meets(chip, token):
                        bad.append(f"{where}: the {region} chip {k} over {n}'s army")
                l, b, cw, ch = chip
                under = {bv.province_at(l + cw * i / 10, b + ch * j / 4)
                         for i in range(11) for j in range(5)} - {None}
                bad += [f"{where}: the {region} chip {k} over {n}" for n in sorted(under)
                        if region_of[n] != region]
                bad += [f"{where}: chips {j} and {k} meet" for j in range(k)
                        if _meets(chips[j][1], chip)]
            screenshot(app, shots / f"winter-chips-{where.replace(' ', '-')}.png")
        assert not bad, "; ".join(bad)
    finally:
        use("en")
        bv.set_marks(None)
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
