"""The battle's climax on the stage (issue 48): the stage counts the tray as the rules do
(the peasants in the total of the side they count for), so its totals are the result
card's and the log's; every counted cube lies in its own side's tray under its panel;
the stage ends on the decision (the totals, the winner, the banner's words, the sting)
before it closes. Read from the stage's model (`TowerView.totals`, the drop's places, the
verdict), not from pixels."""

from __future__ import annotations

import itertools
from typing import Any, cast

import pytest

from client.sessions.local_choice import LocalChoice
from client.game.battle_results import battle_result_lines, replay_drop
from client.tower.battle_show import battle_context, battle_sides
from client.tower.stage_climax import BattleKind, battle_totals, counted_by, kind_of, verdict
from client.tower.stage_sides import stage_sides
from client.tower.tower_view import TowerView
from client.words.describe import describe
from sim import events as ev
from sim.game import GameConfig
from sim.local import play_bots
from sim.tower import drop as tower


def _battles(count: int) -> list[tuple[ev.TowerDropped, ev.BattleResolved, str | None]]:
    """The first `count` battles (revolts included) of seeded games of heuristic bots."""
    out: list[tuple[ev.TowerDropped, ev.BattleResolved, str | None]] = []
    configs = itertools.cycle([GameConfig(4, "sun", "beginner"), GameConfig(3, "moon", "draft"),
                               GameConfig(5, "sun", "draft")])
    for seed in itertools.count(1):
        config = next(configs)
        _state, events = play_bots(config, seed, ["heuristic"] * config.players)
        for i, e in enumerate(events):
            if e.get("event") == "TowerDropped" and e.get("replay") and e.get("reason") != "fill":
                battle, origin = battle_context(e, events[i + 1:])
                if battle is not None:
                    out.append((cast(ev.TowerDropped, e), battle, origin))
            if len(out) >= count:
                return out
    return out


def _stage_agrees(app: Any, battles: list[tuple[ev.TowerDropped, ev.BattleResolved, str | None]]) -> set[str]:
    kinds = set()
    tv = TowerView(tower.GEOMETRY)
    tv.set_rect(0, 0, 960, 606)                      # the stage at 960x640
    tv.set_big(True)
    for dropped, battle, origin in battles:
        want = (battle["attacker_count"], battle["defender_count"])
        rec = replay_drop(dropped["replay"]).recording
        assert rec is not None
        tv.sides = stage_sides(dropped, battle, origin, {}, {})
        tv.verdict = verdict(battle)
        tv.play(rec, "", battle_sides(battle), handful=0.0)
        tv.skip()                                   # every cube lands: the decision
        where = f"{battle['kind']} in {battle['province']}"
        assert tv.stage == "climax" and tv.landed == tv.out_total, where
        assert tv.totals() == want, f"{where}: the stage counts {tv.totals()}, the events {want}"
        # each counted cube lies in its side's tray, under its panel; the rest stay in the tower's
        d = tv.drop
        assert d is not None
        b = tv.battle_kind
        assert b is not None
        in_tray = [0, 0]
        scale = tv._xf()[0]
        for i in d.order:
            x, y, size = d.place[i]
            px, py = tv.to_screen(x, y)
            for k, (left, bottom, w, h) in enumerate(tv.tray_boxes()):
                if left <= px <= left + w and bottom <= py <= bottom + h:
                    in_tray[k] += 1
                    assert size * scale >= 14, f"{where}: a counted cube of {size * scale:.0f} px at 960x640"
        assert tuple(in_tray) == want, f"{where}: the sides' trays hold {in_tray}"
        # the same numbers on the card and in the log, and in the climax's banner
        card = battle_result_lines(battle)[1]
        log = describe(battle) or ""
        for n in want:
            assert str(n) in card and str(n) in log, (card, log)
        assert tv.verdict.totals.count(str(want[0])) >= 1 and str(want[1]) in tv.verdict.totals
        tv.skip()                                   # the climax: the stage ends
        assert not tv.playing
        kinds.add(str(battle["kind"]))
    return kinds


def test_the_stage_totals_are_the_events_in_forty_battles(app):
    kinds = _stage_agrees(app, _battles(40))
    assert {"attack", "neutral"} <= kinds


@pytest.mark.slow
def test_the_stage_totals_are_the_events_in_two_hundred_battles(app):
    kinds = _stage_agrees(app, _battles(200))
    assert {"attack", "neutral", "revolt"} <= kinds


def test_peasants_count_as_the_rules_count_them():
    """R-BATTLE-3/4: for the defender without unrest, for no one with it, for the
    peasants in a revolt; a neutral province's peasants defend it."""
    tray = {0: 3, 1: 2, 5: 2, 3: 1}
    assert battle_totals(BattleKind("attack", 0, 1, 0), tray) == (3, 4)
    assert battle_totals(BattleKind("attack", 0, 1, 1), tray) == (3, 2)
    assert battle_totals(BattleKind("neutral", 0, 5, 1), tray) == (3, 2)
    assert battle_totals(BattleKind("revolt", 5, 1, 2), tray) == (2, 2)
    assert counted_by(BattleKind("attack", 0, 1, 1), 5) == "" and counted_by(BattleKind("attack", 0, 1, 0), 5) == "d"
    assert counted_by(BattleKind("attack", 0, 1, 0), 3) == "", "another player's cube counts for no one"


def _battle(**kw: Any) -> dict[str, Any]:
    base = {"event": "BattleResolved", "kind": "attack", "province": "Suruga", "attacker": 3,
            "defender": 0, "unrest": 0, "attacker_count": 4, "defender_count": 3,
            "result": "attacker", "survivors": 1, "new_owner": 3}
    return {**base, **kw}


@pytest.mark.parametrize("battle, head, detail, winner", [
    (_battle(), "White takes Suruga", "1 army survives", "a"),
    (_battle(attacker_count=2, result="defender", survivors=2, new_owner=0),
     "Blue holds Suruga", "2 armies survive", "d"),
    (_battle(attacker_count=3, result="draw", survivors=0, new_owner=None),
     "A draw in Suruga", "Both sides lose their counted cubes; Suruga becomes neutral", ""),
    (_battle(attacker_count=2, defender_count=3, result="draw", survivors=0, new_owner=None),
     "A draw in Suruga", "Only peasants counted for Blue: a draw by the rules; Suruga becomes neutral", ""),
    (_battle(kind="neutral", defender=None, attacker_count=1, defender_count=2, result="defender",
             survivors=0, new_owner=None),
     "The peasants hold Suruga", "White's attack fails; Suruga stays neutral", "d"),
    (_battle(kind="revolt", attacker="peasant", attacker_count=3, defender_count=1, new_owner=None,
             survivors=0), "The peasants win the revolt in Suruga",
     "Suruga loses its armies and buildings and becomes neutral", "a"),
    (_battle(kind="revolt", attacker="peasant", attacker_count=1, defender_count=4,
             result="defender", survivors=3, new_owner=0),
     "Blue puts down the revolt in Suruga", "3 armies survive", "d"),
])
def test_the_banner_says_the_decision_as_the_rules_have_it(battle, head, detail, winner):
    v = verdict(battle)
    assert (v.headline, v.detail, v.winner) == (head, detail, winner)
    b = kind_of(battle)
    a_name = "Peasants" if b.attacker == 5 else "White"
    d_name = "Peasants" if b.defender == 5 else "Blue"
    assert v.totals == f"{a_name} {battle['attacker_count']} : {battle['defender_count']} {d_name}"


@pytest.mark.parametrize("lang", ["nl", "ro"])
def test_the_banner_speaks_the_players_language(lang):
    from lang.i18n import use
    use(lang)
    try:
        v = verdict(_battle())
        assert "Suruga" in v.headline and v.headline != "White takes Suruga"
        assert v.detail != "1 army survives"
    finally:
        use("en")


def test_the_stage_ends_on_the_decision_with_a_sting_and_a_hold(app):
    """After the tally the stage holds the climax (the winner lit, the banner, the sting)
    for about two seconds at x1 before it closes; the sting is not played again with the
    result card."""
    from client.core.sound import Sounds
    from client.tower.battle_show import BattleShow
    from client.tower.drop_clock import CLIMAX

    class Board:
        left = bottom = 0.0
        right, top = 1280.0, 766.0
        picture = None
        open_sea = None

        def set_arrow(self, *a: Any) -> None: ...

        def rebuild_if_dirty(self) -> None: ...

        def province_centre(self, name: str) -> tuple[float, float]:
            return (300.0, 300.0)

        def legend_box(self) -> tuple[float, float, float, float]:
            return (4.0, 700.0, 80.0, 60.0)

    played: list[str] = []

    class Quiet(Sounds):
        def play(self, cue: str, gain: float = 1.0) -> None:
            played.append(cue)

    tv = TowerView(tower.GEOMETRY)
    tv.set_rect(0, 0, 1280, 766)
    show = BattleShow(tv, cast(Any, Board()), Quiet(), lambda: False)
    rec = tower.drop(tower.EMPTY, {3: 5, 0: 3}, b"climax".ljust(32, b"."), record=True).recording
    assert rec is not None
    dropped = cast(ev.TowerDropped, {"event": "TowerDropped", "reason": "battle", "thrown": {"3": 5, "0": 3}})
    show.start(dropped, [_battle()], {})
    tv.play(rec, "", show.sides, show.handful_seconds())
    stages = []
    frames = 0
    while tv.playing and frames < 3000:
        tv.on_update(1 / 60)
        frames += 1
        if not stages or stages[-1][0] != tv.stage:
            stages.append((tv.stage, frames))
    names = [s for s, _f in stages]
    assert names[-2:] == ["tally", "climax"] or names[-3:-1] == ["tally", "climax"], names
    start = dict(stages)["climax"]
    assert CLIMAX * 60 - 3 <= frames - start <= CLIMAX * 60 + 3, "the climax holds before the stage closes"
    assert played.count("sting") == 1 and show.stung


def test_no_cube_shows_around_the_climax_banner():
    """Issue 48 item 3: a cube resting in the tower where the climax's banner lies poked
    out at the banner's edge (drawn under it, half covered); the cubes the banner
    touches, their shadows included, are not drawn while it is shown."""
    touched = 0
    tv = TowerView(tower.GEOMETRY)
    for size in ((960, 606), (1280, 766)):
        tv.set_rect(0, 0, *size)
        tv.set_big(True)
        for dropped, battle, origin in _battles(12):
            rec = replay_drop(dropped["replay"]).recording
            assert rec is not None
            tv.sides = stage_sides(dropped, battle, origin, {}, {})
            tv.verdict = verdict(battle)
            tv.play(rec, "", battle_sides(battle), handful=0.0)
            tv.skip()
            tv.on_update(1 / 60)                        # a frame of the climax
            assert tv.stage == "climax"
            banner = tv.banner_rect()
            assert banner is not None
            bl, bb, bw, bh = banner
            d = tv.drop
            assert d is not None
            xf = tv._xf()
            for q in d.poses(tv._clock.t, in_hand=True):          # where every cube lies
                px, py = tv.to_screen(q.x, q.y)
                r = 0.9 * q.size * xf[0] + 2
                touched += bl < px + r and px - r < bl + bw and bb < py + r and py - r < bb + bh
            for p in tv.cubes.shown:
                r = 0.9 * p.size + 2
                assert not (bl < p.x + r and p.x - r < bl + bw and bb < p.y + r and p.y - r < bb + bh), \
                    f"a cube at ({p.x:.0f}, {p.y:.0f}) shows at the banner {banner}"
    assert touched, "no battle here had a cube under the banner: the test shows nothing"


def test_the_result_card_keeps_clear_of_the_map_legend(app):
    """Issue 48 item 3: at 960x640 the result card of a battle in the map's north-west
    (Echigo) covered the legend. For every province, the card (its size as
    `show_battle_card` gives it) lies on the map, off the province and off the legend."""
    covered = []
    try:
        for size in ((960, 640), (1280, 800)):
            app.set_size(*size)
            app.on_resize(*size)
            scene = app.start_local(LocalChoice.one_level("heuristic", players=4, humans=(), seed=3),
                                    fast=True)
            app.on_draw()
            bv = scene.board_view
            ll, lb, lw, lh = bv.legend_box()
            w = min(460.0, bv.width * 0.6)
            for name in sorted(bv.shapes["provinces"]):
                scene.battle.province = name
                l, b, cw, ch = scene.battle.card_rect(w, 150.0)
                x, y = bv.province_centre(name)
                assert not (l < x < l + cw and b < y < b + ch), f"the card covers {name}"
                if l < ll + lw and ll < l + cw and b < lb + lh and lb < b + ch:
                    # covered only where no place of the map, every 8 px, is clear of both
                    room = [(gl, gb) for gl in range(int(bv.left) + 6, int(bv.right - cw - 5), 8)
                            for gb in range(int(bv.bottom) + 6, int(bv.top - ch - 5), 8)
                            if not (gl < ll + lw and ll < gl + cw and gb < lb + lh and lb < gb + ch)
                            and not (gl - 12 < x < gl + cw + 12 and gb - 12 < y < gb + ch + 12)]
                    if room:
                        covered.append(f"{name} at {size}")
            scene.battle.province = None
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
        app.show_menu()
    assert not covered, f"the card covers the legend for battles in {covered}"
