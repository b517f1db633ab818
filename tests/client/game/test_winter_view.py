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




def _tutorials_first_scoring():
    """The tutorial's game (its fixed seed, the script's answers) played headless to its
    first winter scoring, about 0.3 s: (the board as scored, the Scored events)."""
    from client.tutorial.scripted_game import new_session, scripted_choice
    from sim.snapshot import public_state
    s = new_session()
    try:
        for _ in range(2000):
            while s.queue:
                scored = [e for e in s.queue.popleft().events if e.get("event") == "Scored"]
                if scored:
                    return public_state(s.state), scored
            if s.waiting_for_me():
                s.submit(scripted_choice(s.state))
            else:
                s.pump()
        raise AssertionError("the tutorial's game never scored a winter")
    finally:
        s.close()


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_each_regions_chips_cover_no_other_regions_names_or_tokens(app, home, shots, lang):
    """Issue 49 (round three, item 3's chips): in the tutorial's first winter scoring
    (step 10) at 1920x1080 and 2560x1440 the chips lay over Iyo and Omi, provinces of
    another region than the chip's; the red region's over Kai, in the yellow one.
    Measured at four sizes on the names as drawn, the army tokens' squares and the
    provinces' outlines (a grid of points over each chip): each chip lies on its own
    region's provinces or on the sea, covers no name at all, no token of another
    region's province, no other chip, nor the legend or the scoring's title (on the sea
    at 960x640 a chip found the legend)."""
    from lang.i18n import use
    from sim.board import board as the_board
    from tests.client.conftest import to_my_plan
    use(lang)
    board, scored = _tutorials_first_scoring()
    scene = to_my_plan(app)                 # a table to show it on
    bv = scene.board_view
    region_of = {n: p.region[bv.side] for n, p in the_board().provinces.items()}
    marks = region_marks(scored)
    bad = []
    try:
        for w, h in ((960, 640), (1280, 800), (1920, 1080), (2560, 1440)):
            app.set_size(w, h)
            app.on_resize(w, h)
            bv.set_state(board)
            bv.set_marks(marks)
            frame(app, 2)
            assert bv.state is board
            s = bv.token_scale()
            names = {key[1]: (t.left, t.bottom, t.right - t.left, t.top - t.bottom)
                     for key, t in bv.texts.labels.items() if key[0] == "n" and t.visible}
            assert len(names) == len(region_of), sorted(names)
            owners = [region for region, rows in sorted(marks.items()) for _ in rows]
            assert len(bv.mark_boxes) == len(owners) == 8, marks
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
                bad += [f"{where}: the {region} chip {k} over the {what}" for what, box in
                        (("legend", bv.legend_box()), ("title", scene.winter.title_rect()))
                        if _meets(chip, box)]
                bad += [f"{where}: chips {j} and {k} meet" for j in range(k)
                        if _meets(chips[j][1], chip)]
            screenshot(app, shots / f"winter-chips-{where.replace(' ', '-')}.png")
        assert not bad, "; ".join(bad)
    finally:
        use("en")
        bv.set_marks(None)
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
