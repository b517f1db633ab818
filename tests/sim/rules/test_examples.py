"""The rulebook's worked examples E-1...E-5 as known-answer tests."""

from sim.rules.battle_count import count_battle
from sim.board import board
from sim.commands import ChooseMove, OrderRevolts
from sim.game import apply, pending
from sim.rules.actions import tax_yield
from sim.state import PEASANT

from tests.sim.scenario import extras, held  # noqa: F401
from tests.sim.scenario import (at_plan, begin_exec, begin_winter, chance, clean, clear_owner,
                                drop, of, place, plan, tray)

BLUE, YELLOW = 0, 1


def test_E_1_R_SPECIAL_3_tax_in_settsu_under_event_7_with_chest_gives_6():
    assert board().provinces["Settsu"].tax == 7
    assert tax_yield(7, 7, "chest") == 6
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, tax="Settsu")}, event=7, specials={0: "chest"})
    assert of(events, "ActionDone")[0]["money_gained"] == 6
    assert s2.players[0].money == 15 + 6


def test_E_2_R_BATTLE_6_count_blue_beats_yellow_in_kozuke():
    o = count_battle("attack", BLUE, YELLOW, tray(s0=3, s1=1, peasant=1), unrest=0)
    assert (o.attacker_count, o.defender_count, o.result) == (3, 2, "attacker")
    # yellow's and the green cube go back, blue returns 2, 1 blue army is placed
    assert o.returned == {YELLOW: 1, PEASANT: 1, BLUE: 2} and o.survivors == 1
    assert o.tray_after == (0,) * 6


def test_E_2_R_BATTLE_6_end_to_end_blue_takes_kozuke():
    s = at_plan()
    place(s, "Shinano", BLUE, 6)
    place(s, "Kozuke", YELLOW, 3)
    s2, _ = begin_exec(s, {BLUE: plan(BLUE, battle_a="Shinano")})
    s3, _ = apply(s2, ChooseMove(BLUE, "Kozuke", 4))
    assert held(s3) == {BLUE: 4, YELLOW: 3}
    supply = [p.supply for p in s3.players]
    peasants = s3.peasant_supply
    s4, events = drop(s3, {BLUE: 3, YELLOW: 1, PEASANT: 1}, "e2")
    b = of(events, "BattleResolved")[0]
    assert (b["attacker_count"], b["defender_count"], b["result"]) == (3, 2, "attacker")
    k = s4.provinces["Kozuke"]
    assert (k.owner, k.armies) == (BLUE, 1)
    assert "Kozuke" in s4.cards_of(BLUE) and "Kozuke" not in s4.cards_of(YELLOW)
    assert s4.players[BLUE].supply == supply[BLUE] + 2
    assert s4.players[YELLOW].supply == supply[YELLOW] + 1
    assert s4.peasant_supply == peasants + 1
    assert s4.tray == [0] * 6 and s4.provinces["Shinano"].armies == 2
    clean(s4)


def test_E_3_R_WINTER_2_nine_provinces_six_rice_two_revolts_with_two_extra_peasants():
    assert board().revolts_for(9 - 6) == (2, 2)
    s = at_plan()
    place(s, "Echigo", 1, 1)
    assert len(s.cards_of(1)) == 9
    for name in s.cards_of(1):
        s.provinces[name].unrest = 1 if name in ("Kozuke", "Hida") else 0
    s2, _ = begin_winter(s, 7, rice={0: 45, 1: 6, 2: 45, 3: 45})
    s3, events = apply(s2, chance("e3"))
    short = of(events, "Shortage")[0]
    assert (short["shortage"], short["revolts"], short["extra_peasants"]) == (3, 2, 2)
    drawn = s3.winter.revolts
    s4, _ = apply(s3, OrderRevolts(1, tuple(drawn)))
    # each revolt: 2 extra peasants + 1 per unrest marker there
    assert held(s4)[PEASANT] == 2 + s.provinces[drawn[0]].unrest


def test_E_4_R_BATTLE_4_kai_with_one_unrest_marker_revolts_with_three_peasants():
    assert board().revolts_for(2) == (1, 2)
    s = at_plan()
    clear_owner(s, 3, keep=["Kai", "Mikawa"])
    s.provinces["Kai"].unrest = 1
    for label in range(40):  # the draw is chance: find the seed that draws Kai
        s2, _ = begin_winter(s, 7, rice={0: 45, 1: 45, 2: 45, 3: 0})
        s3, events = apply(s2, chance(f"e4/{label}"))
        if s3.battle.province == "Kai":
            break
    assert s3.battle.province == "Kai"
    assert of(events, "Shortage")[0]["shortage"] == 2
    assert held(s3) == {3: 5, PEASANT: 2 + 1}


def test_E_5_R_EXEC_7_R_BATTLE_8_tax_in_mikawa_with_two_unrest_owner_wins():
    s = at_plan()
    owner = s.provinces["Mikawa"].owner
    place(s, "Mikawa", owner, 4, unrest=2)
    s.players[2].supply -= 1
    s.tray = tray(s2=1)  # whatever lies in the tray goes in too
    s2, _ = begin_exec(s, {owner: plan(owner, tax="Mikawa")})
    d = pending(s2)
    assert (d.kind, d.purpose, d.detail["province"]) == ("chance", "tower", "Mikawa")
    assert held(s2) == {owner: 4, PEASANT: 2, 2: 1}
    money = s2.players[owner].money
    s3, events = drop(s2, {owner: 4, PEASANT: 2}, "e5")
    b = of(events, "BattleResolved")[0]
    assert (b["kind"], b["result"], b["attacker_count"], b["defender_count"]) == (
        "revolt", "defender", 2, 4)
    m = s3.provinces["Mikawa"]
    # the owner keeps Mikawa (losing one army per peasant), collects, a third marker is placed
    assert (m.owner, m.armies, m.unrest) == (owner, 2, 3)
    assert s3.players[owner].money == money + board().provinces["Mikawa"].tax
    clean(s3)


def test_E_6_R_SPECIAL_3_R_EXEC_8_six_armies_under_event_12():
    """Event 12 is this round's event; the holder of `6 armies` deploys 6 for 3 chests,
    another player's deploy 5 puts 3."""
    s = at_plan()
    mine, theirs = s.cards_of(0)[0], s.cards_of(1)[0]
    before = {seat: (s.players[seat].money, s.players[seat].supply) for seat in (0, 1)}
    armies = {mine: s.provinces[mine].armies, theirs: s.provinces[theirs].armies}
    s2, events = begin_exec(s, {0: plan(0, deploy5=mine), 1: plan(1, deploy5=theirs)},
                            event=12, specials={0: "six_armies"})
    done = {e["seat"]: e for e in of(events, "ActionDone")}
    assert (done[0]["armies_placed"], done[0]["paid"]) == (6, 3)
    assert (done[1]["armies_placed"], done[1]["paid"]) == (3, 3)
    assert s2.provinces[mine].armies == armies[mine] + 6
    assert s2.provinces[theirs].armies == armies[theirs] + 3
    assert s2.players[0].money == before[0][0] - 3 and s2.players[0].supply == before[0][1] - 6
    clean(s2)
