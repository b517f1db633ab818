"""Battles and the tower: R-BATTLE-1...10.

Counting is tested on `count_battle` with chosen trays (pure arithmetic); the flow around the
tower with the real, seed-deterministic drop (checking conservation and ownership for
whatever it produced) or, where an exact result is needed, a stand-in drop with a chosen
tray.
"""

import pytest

from sim.rules.battle_count import count_battle
from sim.commands import ChooseMove
from sim.tower import drop as tower
from sim.commands import TowerSettled
from sim.tower.drop import TowerContents
from sim.tower.contents import Cube
from sim.game import apply, pending, state_hash
from sim.state import PEASANT

from tests.sim.scenario import extras, held  # noqa: F401
from tests.sim.scenario import (expect_illegal, answer, at_plan, begin_exec, chance, clean, clear_owner,
                                drop, of, place, plan, tray)

P = PEASANT


# --- counting (pure) ------------------------------------------------------------------------

def test_R_BATTLE_3_peasants_count_for_the_defender_without_unrest():
    o = count_battle("attack", 0, 1, tray(s0=3, s1=1, s2=2, peasant=2), unrest=0)
    assert (o.attacker_count, o.defender_count, o.peasants_counted) == (3, 3, 2)
    assert o.result == "draw"
    assert o.tray_after == (0, 0, 2, 0, 0, 0)  # another player's cubes stay in the tray


def test_R_BATTLE_3_with_unrest_peasants_do_not_count_and_stay_in_the_tray():
    o = count_battle("attack", 0, 1, tray(s0=3, s1=1, s2=2, peasant=2), unrest=1)
    assert (o.attacker_count, o.defender_count, o.peasants_counted) == (3, 1, 0)
    assert o.result == "attacker" and o.tray_after == (0, 0, 2, 0, 0, 2)
    assert o.returned == {P: 0, 0: 1, 1: 1} and o.survivors == 2


def test_R_BATTLE_3_neutral_province_counts_every_peasant_for_the_defender():
    o = count_battle("neutral", 0, None, tray(s0=2, s3=1, peasant=3), unrest=0)
    assert (o.attacker_count, o.defender_count, o.result) == (2, 3, "defender")
    assert o.returned == {P: 3, 0: 2} and o.survivors == 0
    assert o.tray_after == (0, 0, 0, 1, 0, 0)


def test_R_BATTLE_5_more_counted_cubes_win_equal_is_a_draw():
    assert count_battle("attack", 0, 1, tray(s0=3, s1=2), 0).result == "attacker"
    assert count_battle("attack", 0, 1, tray(s0=2, s1=3), 0).result == "defender"
    assert count_battle("attack", 0, 1, tray(s0=2, s1=2), 0).result == "draw"
    assert count_battle("attack", 0, 1, tray(), 0).result == "draw"
    assert count_battle("neutral", 0, None, tray(s0=1, peasant=1), 0).result == "draw"


def test_R_BATTLE_5_ruling_defender_winning_by_peasants_alone_is_a_draw():
    o = count_battle("attack", 0, 1, tray(s0=1, peasant=3), unrest=0)
    assert o.defender_count == 3 and o.result == "draw"
    assert o.returned == {P: 3, 0: 1, 1: 0} and o.survivors == 0
    # with one own army among the counted cubes the defender wins
    assert count_battle("attack", 0, 1, tray(s0=1, s1=1, peasant=3), 0).result == "defender"


def test_R_BATTLE_6_winning_attacker_loses_as_many_as_the_defender_counted():
    o = count_battle("attack", 0, 1, tray(s0=5, s1=1, peasant=1), unrest=0)
    assert o.result == "attacker" and o.survivors == 3
    assert o.returned == {P: 1, 0: 2, 1: 1}


def test_R_BATTLE_6_winning_defender_loses_peasants_first():
    o = count_battle("attack", 0, 1, tray(s0=2, s1=3, peasant=1), unrest=0)
    assert o.result == "defender" and o.defender_count == 4
    # 2 losses: the peasant first, then 1 own army; 2 own armies stay in the province
    assert o.survivors == 2 and o.returned == {P: 1, 0: 2, 1: 1}
    o = count_battle("attack", 0, 1, tray(s0=1, s1=3, peasant=2), unrest=0)
    assert o.survivors == 3 and o.returned == {P: 2, 0: 1, 1: 0}


def test_R_BATTLE_7_draw_returns_every_counted_cube():
    o = count_battle("attack", 0, 1, tray(s0=2, s1=1, peasant=1, s4=1), unrest=0)
    assert o.result == "draw" and o.survivors == 0
    assert o.returned == {P: 1, 0: 2, 1: 1} and o.tray_after == (0, 0, 0, 0, 1, 0)


def test_R_BATTLE_8_revolt_owner_wins_losing_one_army_per_peasant():
    o = count_battle("revolt", P, 2, tray(s2=4, peasant=2, s0=1), unrest=2)
    assert (o.attacker_count, o.defender_count, o.result) == (2, 4, "defender")
    assert o.survivors == 2 and o.returned == {P: 2, 2: 2}
    assert o.tray_after == (1, 0, 0, 0, 0, 0)


@pytest.mark.parametrize("own, peasants, result", [(2, 2, "draw"), (1, 3, "attacker")])
def test_R_BATTLE_8_revolt_peasants_win_or_draw(own, peasants, result):
    o = count_battle("revolt", P, 2, tray(s2=own, peasant=peasants), unrest=1)
    assert o.result == result and o.survivors == 0
    assert o.returned == {P: peasants, 2: own}


# --- the flow around the tower ---------------------------------------------------------------

def _attack(s, count=4, **kw):
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3, **kw)
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")})
    return apply(s2, ChooseMove(0, "Kozuke", count))[0]


def test_R_BATTLE_1_tray_cubes_join_the_drop_and_the_tower_keeps_cubes():
    s = at_plan()
    s.players[2].supply -= 2
    s.peasant_supply -= 1
    s.tray = tray(s2=2, peasant=1)
    s2 = _attack(s)
    assert held(s2) == {0: 4, 1: 3, 2: 2, P: 1} and s2.tray == [0] * 6
    events = []
    s3 = answer(s2, events=events, until=lambda st: not st.battle)
    drop = of(events, "TowerDropped")[0]
    assert drop["thrown"] == {"0": 4, "1": 3, "2": 2, "peasant": 1}
    battle = of(events, "BattleResolved")[0]
    out = battle["out"]
    # what stays in the tray: colours that did not count (seat 2 here) from this drop's out
    assert s3.tray[2] == out.get("2", 0) and s3.tray[0] == s3.tray[1] == 0
    assert len(s3.tower) > 0
    clean(s3)


def test_R_BATTLE_1_the_drop_waits_for_chance_and_is_deterministic_from_the_seed():
    s2 = _attack(at_plan())
    assert (pending(s2).kind, pending(s2).purpose) == ("chance", "tower")
    a, ev_a = apply(s2, chance("drop"))
    b, ev_b = apply(s2, chance("drop"))
    assert state_hash(a) == state_hash(b) and ev_a == ev_b
    # then the game waits for the drop's outcome, which the physics computes the same way
    assert pending(a).kind == "tower"
    settled_a, settled_b = tower.settle(pending(a)), tower.settle(pending(b))
    assert settled_a == settled_b
    a, ev_a = apply(a, settled_a)
    assert of(ev_a, "BattleResolved")
    clean(a)


def test_R_BATTLE_1_a_tower_outcome_that_loses_or_invents_cubes_is_refused():
    """R-COMP-6 through the tower: every cube thrown in is inside or out, no more, no less."""
    s2 = _attack(at_plan())
    seeded, _ = apply(s2, chance("drop"))
    honest = tower.settle(pending(seeded))
    inside = honest.contents.cubes
    lost_one = TowerSettled(honest.out, TowerContents(inside[1:]))
    invented = TowerSettled(tuple(sorted({**dict(honest.out), 4: 1}.items())), honest.contents)
    for bad in (lost_one, invented):
        expect_illegal(seeded, bad, "R-COMP-6")
    expect_illegal(s2, honest, "R-ROUND-2")     # the game waits for the seed, not an outcome
    apply(seeded, honest)


def test_R_BATTLE_1_a_tower_outcome_with_two_cubes_in_one_place_is_refused():
    """Issue 25: kept cubes on top of each other pass the count, but no drop leaves them so
    (the next drop's physics would throw them out of the tower)."""
    s2 = _attack(at_plan(), count=3)
    seeded, _ = apply(s2, chance("drop"))
    honest = tower.settle(pending(seeded))
    went_in = {**honest.contents.counts()}
    for colour, n in honest.out:
        went_in[colour] = went_in.get(colour, 0) + n
    colour = min(went_in)
    cube = Cube(colour, 9000, 14500, 0)
    stacked = TowerContents((cube, Cube(colour, 9050, 14520, 100)))
    out = {**went_in, colour: went_in[colour] - 2}
    bad = TowerSettled(tuple((c, n) for c, n in sorted(out.items()) if n), stacked)
    expect_illegal(seeded, bad, "R-BATTLE-1")
    apart = TowerContents((cube, Cube(colour, 9000 + 1000, 14500, 0)))
    apply(seeded, TowerSettled(bad.out, apart))


def test_R_BATTLE_2_cubes_thrown_in_a_player_battle_and_a_neutral_one():
    s2 = _attack(at_plan(), count=2)
    assert held(s2) == {0: 2, 1: 3}
    s = at_plan()
    place(s, "Shinano", 0, 6)
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")})
    s3, _ = apply(s2, ChooseMove(0, "Echigo", 5))
    assert held(s3) == {0: 5, P: 1} and s3.peasant_supply == s2.peasant_supply - 1


def test_R_BATTLE_4_revolt_throws_owner_armies_a_peasant_per_marker_and_the_tray():
    s = at_plan()
    s.provinces["Kaga"].unrest = 3
    s.players[1].supply -= 1
    s.tray = tray(s1=1)
    s2, _ = begin_exec(s, {0: plan(0, tax="Kaga")})
    assert s2.battle.kind == "revolt"
    assert held(s2) == {0: 4, 1: 1, P: 3} and s2.provinces["Kaga"].armies == 0


def test_R_BATTLE_6_end_to_end_defender_keeps_the_province():
    s2 = _attack(at_plan())
    s3, events = drop(s2, {0: 1, 1: 2, P: 1}, "b")
    k = s3.provinces["Kozuke"]
    assert of(events, "BattleResolved")[0]["result"] == "defender"
    # defender counted 3 (2 + peasant), attacker 1: the peasant is lost first
    assert (k.owner, k.armies) == (1, 2)
    clean(s3)


def test_R_BATTLE_7_end_to_end_draw_makes_the_province_neutral():
    s2 = _attack(at_plan(), buildings=("palace", "temple"))
    s2.provinces["Kozuke"].unrest = 1
    supply = [p.supply for p in s2.players]
    s3, events = drop(s2, {0: 2, 1: 2}, "b")
    assert of(events, "BattleResolved")[0]["result"] == "draw"
    k = s3.provinces["Kozuke"]
    assert (k.owner, k.armies, k.buildings, k.unrest) == (None, 0, (), 0)
    assert "Kozuke" not in s3.cards_of(1)
    assert s3.players[0].supply == supply[0] + 2 and s3.players[1].supply == supply[1] + 2
    clean(s3)


def test_R_BATTLE_9_defending_province_is_empty_during_the_drop():
    s2 = _attack(at_plan())
    assert s2.provinces["Kozuke"].armies == 0 and s2.provinces["Kozuke"].owner == 1
    assert (pending(s2).kind, pending(s2).purpose) == ("chance", "tower")
    events = []
    s3 = answer(s2, events=events, until=lambda st: not st.battle)
    b = of(events, "BattleResolved")[0]
    k = s3.provinces["Kozuke"]
    if b["result"] == "defender":
        # only cubes that came out and survived are back; those left in the tower are not
        assert k.armies == b["survivors"] <= b["out"].get("1", 0) + 0
    clean(s3)


def test_R_BATTLE_10_a_player_without_provinces_stays_in_the_game():
    s = at_plan()
    clear_owner(s, 3, keep=["Mikawa"])
    place(s, "Shinano", 0, 6)
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")})
    s3, _ = apply(s2, ChooseMove(0, "Mikawa", 5))
    s4, _ = drop(s3, {0: 4}, "b")
    assert s4.cards_of(3) == [] and s4.provinces["Mikawa"].owner == 0
    s5 = answer(s4)
    assert pending(s5).kind == "plan" and 3 in pending(s5).seats
    s6, _ = apply(s5, plan(3, 0))  # no province cards to plan with: money only
    assert s6.players[3].plan is not None
    clean(s6)
