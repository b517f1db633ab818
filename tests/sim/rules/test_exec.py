"""Executing actions: R-EXEC-1...12."""

import pytest

from sim.board import board
from sim.commands import ACTIONS, ChooseMove
from sim.game import apply, pending, public_state

from tests.sim.scenario import (answer, at_plan, begin_exec, clean, drop, expect_illegal,
                                of, place, plan)


def row(*first):
    """An action row starting with `first`, the rest in canonical order."""
    return list(first) + [a for a in ACTIONS if a not in first]


def test_R_EXEC_1_action_by_action_each_in_turn_order():
    s = at_plan()
    plans = {0: plan(0, tax="Settsu", rice="Kaga"), 1: plan(1, tax="Shinano", rice="Kozuke")}
    _, events = begin_exec(s, plans, order=[1, 0, 2, 3], actions=row("rice", "tax"))
    done = [(e["action"], e["seat"]) for e in of(events, "ActionDone")]
    assert done == [("rice", 1), ("rice", 0), ("tax", 1), ("tax", 0)]
    started = [e["action"] for e in of(events, "ActionStarted")]
    assert started == row("rice", "tax")


def test_R_EXEC_2_a_planned_action_acts_on_the_board_as_it_is_at_that_turn():
    """The card is turned at its turn, so armies deployed earlier in the round can move."""
    s = at_plan()
    place(s, "Shinano", 0, 2)
    s2, _ = begin_exec(s, {0: plan(0, deploy5="Shinano", battle_a="Shinano")},
                       actions=row("deploy5", "battle_a"))
    d = pending(s2)
    assert d.kind == "move" and d.detail["targets"]["Kozuke"] == 2 + 5 - 1
    assert "plan" not in str(public_state(s2)["players"])


def test_R_EXEC_3_an_action_that_cannot_be_carried_out_fully_lapses_and_costs_nothing():
    s = at_plan()
    s.provinces["Settsu"].buildings = ("temple",)  # Settsu has 1 slot
    s.provinces["Kii"].buildings = ("temple",)
    place(s, "Noto", 0, 1)
    s.players[0].money = 2
    plans = {0: plan(0, palace="Omi", temple="Kii", theatre="Settsu", deploy5="Yamato",
                     battle_a="Noto", deploy3="Tamba")}
    s2, events = begin_exec(s, plans)
    lapsed = {e["action"]: e["reason"] for e in of(events, "ActionLapsed")}
    assert lapsed == {"palace": "cannot pay 3 chests", "temple": "Kii already has a temple",
                      "theatre": "Settsu has no free slot", "deploy5": "cannot pay 3 chests",
                      "battle_a": "Noto needs at least 2 armies"}
    assert all(e["rule"] == "R-EXEC-3" for e in of(events, "ActionLapsed"))
    # only deploy 3 (2 chests) happened
    assert s2.players[0].money == 0 and s2.provinces["Tamba"].armies == 3 + 3
    clean(s2)


def test_R_EXEC_3_not_enough_armies_in_supply_lapses_deploy():
    s = at_plan()
    spare = s.players[0].supply - 4
    s.provinces["Omi"].armies += spare
    s.players[0].supply = 4
    s2, events = begin_exec(s, {0: plan(0, deploy5="Yamato", deploy3="Kii")})
    assert [e["reason"] for e in of(events, "ActionLapsed")] == [
        "only 4 armies in supply, 5 needed"]
    assert s2.players[0].money == 15 - 2 and s2.players[0].supply == 1


def test_R_EXEC_3_no_legal_move_lapses_the_battle():
    s = at_plan()
    place(s, "Izu", 0, 4)
    for n in board().neighbours["sun"]["Izu"]:
        place(s, n, 1, 2, buildings=("temple",))
    s2, events = begin_exec(s, {0: plan(0, battle_a="Izu")}, event=6)
    assert of(events, "ActionLapsed")[0]["reason"] == "Izu has no province it may enter"


def _conquer_kozuke():
    """E-2's battle: seat 0 takes seat 1's Kozuke in slot 1; seat 1 planned tax there."""
    s = at_plan()
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3)
    place(s, "Shimotsuke", 1, 5)
    plans = {0: plan(0, battle_a="Shinano"),
             1: plan(1, tax="Kozuke", battle_b="Shimotsuke")}
    s2, _ = begin_exec(s, plans, actions=row("battle_a", "battle_b", "tax"))
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    s4, events = drop(s3, {0: 3, 1: 1, 5: 1})
    return s4, events


def test_R_EXEC_4_card_changes_hands_old_owner_action_lapses():
    s, events = _conquer_kozuke()
    assert s.provinces["Kozuke"].owner == 0 and "Kozuke" in s.cards_of(0)
    assert "Kozuke" not in s.cards_of(1)
    # seat 1 recaptures with battle B; its planned tax in Kozuke still lapses
    assert pending(s).kind == "move" and pending(s).seats == (1,)
    s, _ = apply(s, ChooseMove(1, "Kozuke", 4))
    money = s.players[1].money
    events = []
    s = answer(s, events=events, until=lambda st: st.round is None or st.round.slot >= 3, tower_out={1: 2})
    assert s.provinces["Kozuke"].owner == 1
    lapse = [e for e in of(events, "ActionLapsed") if e["action"] == "tax"]
    assert lapse and lapse[0]["rule"] == "R-EXEC-4" and lapse[0]["seat"] == 1
    assert s.players[1].money == money
    clean(s)


def test_R_EXEC_5_build_costs_and_placement():
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, palace="Kaga", temple="Kaga", theatre="Kaga")})
    assert s2.provinces["Kaga"].buildings == ("palace", "temple", "theatre")
    assert [e["paid"] for e in of(events, "ActionDone")] == [3, 2, 1]
    assert s2.players[0].money == 15 - 6
    assert s2.buildings_left("palace") == 27


@pytest.mark.parametrize("action", ["rice", "tax"])
def test_R_EXEC_6_R_EXEC_7_collect_without_unrest_gains_and_places_a_marker(action):
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, **{action: "Kaga"})})
    p = board().provinces["Kaga"]
    if action == "rice":
        assert s2.players[0].rice == p.rice
    else:
        assert s2.players[0].money == 15 + p.tax
    assert s2.provinces["Kaga"].unrest == 1 and of(events, "ActionDone")[0]["unrest_placed"] == 1


@pytest.mark.parametrize("action", ["rice", "tax"])
def test_R_EXEC_6_R_EXEC_7_revolt_first_owner_wins_then_collects(action):
    s = at_plan()
    s.provinces["Kaga"].unrest = 1
    s2, _ = begin_exec(s, {0: plan(0, **{action: "Kaga"})})
    d = pending(s2)
    assert (d.kind, d.purpose, d.detail["reason"]) == ("chance", "tower", "revolt")
    s3, events = drop(s2, {0: 3, 5: 1})
    assert of(events, "BattleResolved")[0]["result"] == "defender"
    assert s3.provinces["Kaga"].owner == 0 and s3.provinces["Kaga"].armies == 2
    assert s3.provinces["Kaga"].unrest == 2
    p = board().provinces["Kaga"]
    if action == "rice":
        assert s3.players[0].rice == p.rice
    else:
        assert s3.players[0].money == 15 + p.tax
    clean(s3)


@pytest.mark.parametrize("action", ["rice", "tax"])
def test_R_EXEC_6_R_EXEC_7_revolt_lost_no_income(action):
    s = at_plan()
    s.provinces["Kaga"].unrest = 1
    s.provinces["Kaga"].buildings = ("temple",)
    s2, _ = begin_exec(s, {0: plan(0, **{action: "Kaga"})})
    s3, events = drop(s2, {0: 1, 5: 2})
    assert of(events, "BattleResolved")[0]["result"] == "attacker"
    assert of(events, "ActionDone")[0]["revolt_lost"] is True
    k = s3.provinces["Kaga"]
    assert (k.owner, k.armies, k.buildings, k.unrest) == (None, 0, (), 0)
    assert s3.players[0].money == 15 and s3.players[0].rice == 0
    clean(s3)


def test_R_EXEC_8_deploy_5_and_3():
    s = at_plan()
    supply = s.players[0].supply
    s2, events = begin_exec(s, {0: plan(0, deploy5="Omi", deploy3="Kii")})
    assert s2.provinces["Omi"].armies == 3 + 5 and s2.provinces["Kii"].armies == 2 + 3
    assert s2.players[0].money == 15 - 3 - 2 and s2.players[0].supply == supply - 8


def test_R_EXEC_9_deploy1_then_an_optional_move_to_one_own_neighbour():
    s = at_plan()
    place(s, "Shinano", 0, 3)
    place(s, "Mikawa", 0, 1)
    s2, _ = begin_exec(s, {0: plan(0, deploy1="Shinano")})
    d = pending(s2)
    assert d.kind == "move" and d.detail["optional"] is True
    assert d.detail["targets"] == {"Mikawa": 3}  # own neighbours only; one army stays
    assert s2.provinces["Shinano"].armies == 4 and s2.players[0].money == 14
    expect_illegal(s2, ChooseMove(0, "Kozuke", 1), "R-EXEC-9")  # seat 1's: no battle
    expect_illegal(s2, ChooseMove(0, "Mikawa", 4), "R-EXEC-9")
    s3, events = apply(s2, ChooseMove(0, "Mikawa", 3))
    assert (s3.provinces["Shinano"].armies, s3.provinces["Mikawa"].armies) == (1, 4)
    assert not of(events, "BattleResolved")
    s4, events = apply(s2, ChooseMove(0, None, 0))  # staying put is allowed
    assert s4.provinces["Shinano"].armies == 4 and of(events, "ActionDone")[0]["paid"] == 1


def test_R_EXEC_9_deploy1_without_own_neighbour_needs_no_decision():
    s = at_plan()
    place(s, "Izu", 0, 2)
    assert all(s.provinces[n].owner != 0 for n in board().neighbours["sun"]["Izu"])
    s2, events = begin_exec(s, {0: plan(0, deploy1="Izu")})
    assert of(events, "ActionDone")[0]["armies_placed"] == 1
    assert s2.provinces["Izu"].armies == 3 and pending(s2).kind != "move"


def test_R_EXEC_10_battle_move_to_own_is_a_move_to_others_a_battle():
    s = at_plan()
    place(s, "Shinano", 0, 5)
    place(s, "Mikawa", 0, 1)
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")})
    d = pending(s2)
    assert d.detail["optional"] is False and d.detail["targets"]["Kozuke"] == 4
    assert set(d.detail["targets"]) == set(board().neighbours["sun"]["Shinano"])
    expect_illegal(s2, ChooseMove(0, None, 0), "R-EXEC-10")   # must move if it can
    expect_illegal(s2, ChooseMove(0, "Kozuke", 5), "R-EXEC-10")  # leave at least 1
    expect_illegal(s2, ChooseMove(0, "Kozuke", 0), "R-EXEC-10")  # at least 1
    expect_illegal(s2, ChooseMove(0, "Settsu", 1), "R-EXEC-10")  # not adjacent
    moved, events = apply(s2, ChooseMove(0, "Mikawa", 4))
    assert of(events, "Moved") and moved.provinces["Mikawa"].armies == 5
    battle, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert (pending(battle).kind, pending(battle).purpose) == ("chance", "tower")
    neutral, _ = apply(s2, ChooseMove(0, "Echigo", 2))
    assert neutral.battle.kind == "neutral"


def test_R_EXEC_10_excluded_provinces_cannot_be_targeted():
    s = at_plan(3)
    place(s, "Izu", 0, 5)
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Izu")})
    assert "Awa-Boso" in board().neighbours["sun"]["Izu"]
    assert "Awa-Boso" not in pending(s2).detail["targets"]
    err = expect_illegal(s2, ChooseMove(0, "Awa-Boso", 1), "R-EXEC-10")
    assert "not in play" in err.reason


def test_R_EXEC_11_sea_routes_count_as_borders():
    s = at_plan()
    assert s.provinces["Tajima"].owner == 2 and s.provinces["Kaga"].owner == 0
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Kaga")})
    assert "Tajima" in pending(s2).detail["targets"]
    s3, _ = apply(s2, ChooseMove(0, "Tajima", 1))
    assert s3.battle.province == "Tajima"


def test_R_EXEC_12_no_limit_to_armies_in_a_province():
    s = at_plan()
    extra = s.players[0].supply - 6
    s.provinces["Omi"].armies += extra
    s.players[0].supply = 6
    s2, _ = begin_exec(s, {0: plan(0, deploy5="Omi")}, specials={0: "six_armies"})
    assert s2.provinces["Omi"].armies == 3 + extra + 6 and s2.players[0].supply == 0
    clean(s2)


def test_R_EXEC_4_R_BATTLE_7_a_province_lost_to_a_draw_lapses_its_planned_action():
    s = at_plan()
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3)
    plans = {0: plan(0, battle_a="Shinano"), 1: plan(1, deploy5="Kozuke")}
    s2, _ = begin_exec(s, plans, actions=row("battle_a", "deploy5"))
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 2))
    events = []
    s4 = answer(s3, events=events, until=lambda st: st.round is None or st.round.slot >= 2, tower_out={0: 1, 1: 1})
    assert s4.provinces["Kozuke"].owner is None
    lapse = of(events, "ActionLapsed")
    assert [(e["seat"], e["action"], e["rule"]) for e in lapse] == [(1, "deploy5", "R-EXEC-4")]
    assert s4.players[1].money == s3.players[1].money
    clean(s4)
