"""The battle as a stage (issue 36 items 1-3), under Xvfb: the tower takes the middle of
the window with the attacker's panel left of it and the defender's right of it; every
stage can be skipped with S (the pour to the tally, the tally to the result); the result
card stands beside the province and stays until the player goes on (Enter); in a replay
the battle can be watched again (R); in fast-forward the card shows for about 3 s while
the game runs on. A battle takes 6-10 s at speed x1."""

from __future__ import annotations

import arcade
import pytest

from client.tower.battle_show import battle_context
from client.tower.stage_sides import stage_sides
from client.tower.tower_view import TowerView
from sim.tower import drop as tower
from tests.client.conftest import frame, run_until
from client.sessions.local_choice import LocalChoice


def frames_until(app, cond, most: int) -> bool:
    """Draw frames (1/60 s of the game's clock each) until `cond()` holds, at most `most`:
    bounded by frames, not by wall time, so a loaded machine only makes it slower."""
    for _ in range(most):
        if cond():
            return True
        frame(app)
    return cond()


@pytest.fixture(scope="module")
def save(tmp_path_factory):
    import main
    path = tmp_path_factory.mktemp("stage") / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "6", "--quiet", "--save", str(path)]) == 0
    return path


def _my_battle(app, save):
    """A replay watched as Blue's player, fast-forwarded: it stops at Blue's first battle,
    which then plays on the stage at x1."""
    from client.sessions.replay import ReplaySession
    session = ReplaySession(str(save))
    session.my_seats = (0,)
    scene = app.play(session, {0: "Blue", 1: "Orange", 2: "Black"}, fast=True)
    assert run_until(app, lambda: not scene.fast and scene.tower.playing, 600), "no battle of mine"
    e = scene.player.playing_event or {}
    battle, _origin = battle_context(e, scene.player.batch)
    assert battle is not None
    return scene, battle


def _to_the_card(app, scene) -> None:
    assert frames_until(app, lambda: (scene.player.playing_event or {}).get("event") == "BattleResolved"
                        and scene.banner.visible, 1200)


def test_the_stage_takes_the_middle_with_a_panel_per_side(app, save):
    scene, battle = _my_battle(app, save)
    tv = scene.tower
    assert tv.big and tv.left == 0 and tv.width == app.width, "the stage: the window under the top bar"
    left, right = tv.panel_rects()
    s, ox, _oy = tv._xf()
    assert left[0] + left[2] < ox < right[0], "the tower between the two panels"
    assert abs((left[0] + right[0] + right[2]) / 2 - app.width / 2) < 0.1 * app.width
    assert tv.sides is not None
    a, d = tv.sides
    assert (a.code, d.code) == (battle["attacker"] if battle["attacker"] != "peasant" else 5,
                                5 if battle["kind"] == "neutral" else
                                battle["defender"] if battle["defender"] != "peasant" else 5)
    assert s * tower.GEOMETRY["cube"] >= 20, "cubes of 20 px at least at 1280x800"
    texts = [t.text for t in tv.texts.labels.values()]
    assert a.name in texts and d.name in texts, "each panel names its side"


def test_every_stage_can_be_skipped_and_the_card_waits_for_the_player(app, save):
    scene, battle = _my_battle(app, save)
    tv = scene.tower
    app.on_key_press(arcade.key.S, 0)          # the handful or the pour: to the decision
    assert tv.playing and tv.stage == "climax" and tv.landed == tv.out_total
    app.on_key_press(arcade.key.S, 0)          # the climax: to the result
    assert not tv.playing
    _to_the_card(app, scene)
    where = battle["province"]
    assert where in scene.banner.lines[0]
    x, y = scene.board_view.province_centre(where)
    assert not scene.banner.contains(x, y), "the card is beside the province"
    assert scene.board_view.contains(scene.banner.left + 1, scene.banner.bottom + 1), "on the map"
    assert not tv.big, "the stage has closed: the board is seen"
    frame(app, 600)                            # ten seconds: the card is still there
    assert scene.banner.visible and scene.player.wait > 0
    assert (scene.player.playing_event or {}).get("event") == "BattleResolved", "the table waits"
    app.on_key_press(arcade.key.ENTER, 0)      # the player goes on
    assert not scene.banner.visible and scene.player.wait == 0


def test_a_battle_can_be_watched_again_in_a_replay(app, save):
    scene, _battle = _my_battle(app, save)
    tv = scene.tower
    out = tv.out_total
    app.on_key_press(arcade.key.S, 0)
    app.on_key_press(arcade.key.S, 0)
    _to_the_card(app, scene)
    lines = list(scene.banner.lines)
    step = scene.session.step_key()
    app.on_key_press(arcade.key.R, 0)          # once more: the same drop on the stage
    assert tv.playing and tv.big and tv.out_total == out and not scene.banner.visible
    assert frames_until(app, lambda: tv.landed > 0, 1200)
    app.on_key_press(arcade.key.S, 0)
    app.on_key_press(arcade.key.S, 0)
    assert frames_until(app, lambda: scene.banner.visible, 600)
    assert scene.banner.lines == lines and scene.session.step_key() == step, "nothing in the game moved"
    app.on_key_press(arcade.key.ENTER, 0)
    assert not scene.banner.visible


def test_in_fast_forward_the_card_shows_for_about_three_seconds_and_the_game_runs_on(app):
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=5), fast=True)
    seen: list[tuple[bool, float, bool, str]] = []

    def hook(tag):
        if tag == "battle" and not seen:
            b = scene.banner
            seen.append((b.visible, b.timer, b.sticky, str(scene.player.playing_event.get("province"))))
    scene.moment_reached.connect(hook)
    assert run_until(app, lambda: bool(seen), 600), "no battle"
    visible, timer, sticky, _where = seen[0]
    assert visible and timer == pytest.approx(3.0) and not sticky, seen
    frame(app)
    assert scene.player.wait == 0, "fast-forward does not wait for the card"


def _typical_drop(seed: bytes):
    return tower.drop(tower.EMPTY, {0: 6, 1: 5, 5: 1}, seed.ljust(32, b"."), record=True).recording


def test_a_battle_takes_six_to_ten_seconds_at_speed_one():
    """From the stage's opening to the end of the tally, a typical drop at x1 (the result
    card then waits for the player)."""
    for seed in (b"a", b"b", b"c"):
        rec = _typical_drop(seed)
        tv = TowerView(tower.GEOMETRY)
        tv.set_rect(0, 0, 1280, 766)
        tv.set_big(True)
        tv.play(rec, "", (0, 1), handful=0.9)
        tv.open_from((300.0, 300.0))
        frames = 0
        while tv.playing and frames < 2000:
            tv.on_update(1 / 60)
            frames += 1
        assert 6.0 <= frames / 60 <= 10.0, (seed, frames / 60)


def test_the_side_panels_add_up_to_the_handful():
    dropped = {"event": "TowerDropped", "reason": "battle", "thrown": {"0": 8, "3": 4, "peasant": 1}}
    battle = {"event": "BattleResolved", "kind": "attack", "province": "Mikawa", "attacker": 0,
              "defender": 3, "attack_card": 1, "defence_card": 1, "unrest": 0}
    sides = stage_sides(dropped, battle, "Totomi", {"peasant": 1, "3": 1}, {0: "Anna (Blue)"})
    assert sides is not None
    a, d = sides
    assert (a.name, a.where, a.committed, a.thrown) == ("Anna (Blue)", "from Totomi", 7, 8)
    assert a.adds == ("+1 from the attack card",)
    assert (d.code, d.committed, d.thrown) == (3, 2, 4)
    assert d.adds == ("+1 from the defence card", "+1 cube from the tray",
                      "1 peasant from the tray counts for the defender")
    neutral = {**battle, "kind": "neutral", "defender": None, "attack_card": 0, "defence_card": 0}
    a, d = stage_sides({**dropped, "thrown": {"0": 5, "peasant": 1}}, neutral, "Kai", {}) or (None, None)
    assert a is not None and d is not None
    assert (d.name, d.committed, a.committed) == ("Peasants", 1, 5)
    assert stage_sides({"reason": "fill", "thrown": {"0": 7}}, None, None, {}) is None


def test_the_tray_word_keeps_off_the_trays_edge_at_11_px(app):
    """Issue 37: the small tower's 'tray' was 8 pt across the tray's edge."""
    from client.core import theme
    for w, h in ((150, 416), (210, 546), (210, 826)):
        tv = TowerView(tower.GEOMETRY)
        tv.set_rect(0, 0, w, h)
        tv.rebuild()
        label = tv.texts.labels["tray"]
        assert label.font_size >= theme.SMALLEST_TYPE
        _x, foot = tv.to_screen(0, -6)
        assert label.top <= foot + 0.5, "under the tray's box, not across it"
        assert label.bottom >= tv.bottom - 0.5 and label.right <= tv.right + 0.5
