"""Events and turn order: R-EVENT-1...3, R-BID-1...3."""

import pytest

from sim.board import board
from sim.commands import ChooseMove, PickSpecial
from sim.rules.bidding import bid_rank
from sim.game import apply, pending
from sim.rules.actions import rice_yield, tax_yield
from sim.cards import cards

EVENT_RICE_LOSS = {n: e.rice_loss for n, e in cards().events.items()}

from tests.sim.scenario import extras, held  # noqa: F401
from tests.sim.scenario import (at_plan, begin_exec, begin_winter, chance, clean,
                                expect_illegal, full_plan, of, place, plan, played)

SPEC_RICE_LOSS = {1: 5, 2: 7, 3: 3, 4: 2, 5: 6, 6: 3, 7: 0, 8: 2, 9: 4, 10: 3, 11: 4, 12: 1}


def tax(name):
    return board().provinces[name].tax


def rice(name):
    return board().provinces[name].rice


# --- R-EVENT-1: each card's effect ---------------------------------------------------------

@pytest.mark.parametrize("event", [1, 2])
def test_R_EVENT_1_events_1_2_theatre_removes_an_unrest_marker(event):
    s = at_plan()
    s.provinces["Omi"].unrest = 2
    s2, events = begin_exec(s, {0: plan(0, theatre="Omi")}, event=event)
    assert s2.provinces["Omi"].unrest == 1 and "theatre" in s2.provinces["Omi"].buildings
    assert of(events, "ActionDone")[0]["unrest_removed"] == 1
    s3, _ = begin_exec(s, {0: plan(0, theatre="Omi")}, event=3)
    assert s3.provinces["Omi"].unrest == 2


def _neutral_attack(event):
    s = at_plan()
    place(s, "Shinano", 0, 6)
    assert s.provinces["Echigo"].owner is None
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")}, event=event)
    s3, _ = apply(s2, ChooseMove(0, "Echigo", 3))
    return s2, s3


def test_R_EVENT_1_event_3_neutral_province_throws_two_peasants():
    s2, s3 = _neutral_attack(3)
    assert held(s3) == {0: 3, 5: 2} and s3.peasant_supply == s2.peasant_supply - 2
    _, s3 = _neutral_attack(7)
    assert held(s3) == {0: 3, 5: 1}


@pytest.mark.parametrize("event", [4, 5])
def test_R_EVENT_1_events_4_5_palace_province_defender_adds_an_army(event):
    s = at_plan()
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3, buildings=("palace",))
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")}, event=event)
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert held(s3) == {0: 4, 1: 4} and extras(s3) == {"palace_event": 1}
    assert s3.players[1].supply == s2.players[1].supply - 1
    place(s, "Kozuke", 1, 3)  # no palace: no extra
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")}, event=event)
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert held(s3) == {0: 4, 1: 3}


@pytest.mark.parametrize("event", [6, 9])
def test_R_EVENT_1_events_6_9_temple_provinces_may_not_be_attacked(event):
    s = at_plan()
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3, buildings=("temple",))
    place(s, "Mikawa", 0, 1, buildings=("temple",))
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")}, event=event)
    targets = pending(s2).detail["targets"]
    assert "Kozuke" not in targets and "Mikawa" in targets  # own temple province: a move
    expect_illegal(s2, ChooseMove(0, "Kozuke", 2), "R-EXEC-10")
    s2, _ = begin_exec(s, {0: plan(0, battle_a="Shinano")}, event=4)
    assert "Kozuke" in pending(s2).detail["targets"]


@pytest.mark.parametrize("event, name, expected", [
    (7, "Settsu", 5), (7, "Omi", None), (8, "Omi", 6), (8, "Settsu", 7)])
def test_R_EVENT_1_events_7_8_tax_bounds(event, name, expected):
    expected = tax(name) if expected is None else expected
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, tax=name)}, event=event)
    assert of(events, "ActionDone")[0]["money_gained"] == expected
    assert s2.players[0].money == 15 + expected


@pytest.mark.parametrize("event, name, expected", [
    (10, "Settsu", 4), (10, "Kaga", None), (11, "Kaga", 3), (11, "Omi", None)])
def test_R_EVENT_1_events_10_11_rice_bounds(event, name, expected):
    expected = rice(name) if expected is None else expected
    if event == 10:
        assert expected == max(rice(name), 4)
    else:
        assert expected == min(rice(name), 3)
    s2, _ = begin_exec(at_plan(), {0: plan(0, rice=name)}, event=event)
    assert s2.players[0].rice == expected


def test_R_EVENT_1_event_12_deploys_fewer_at_the_same_cost():
    s2, events = begin_exec(at_plan(), {0: plan(0, deploy5="Omi", deploy3="Kii")}, event=12)
    got = {e["action"]: (e["paid"], e["armies_placed"]) for e in of(events, "ActionDone")}
    assert got == {"deploy5": (3, 3), "deploy3": (2, 2)}
    clean(s2)


def test_R_EVENT_1_winter_rice_loss_table():
    assert EVENT_RICE_LOSS == SPEC_RICE_LOSS


@pytest.mark.parametrize("event", range(1, 13))
def test_R_EVENT_1_leftover_event_winter_rice_loss(event):
    s = at_plan()
    s2, events = begin_winter(s, event, rice={0: 20, 1: 20, 2: 20, 3: 4})
    started = of(events, "WinterStarted")[0]
    assert (started["event_card"], started["rice_loss"]) == (event, SPEC_RICE_LOSS[event])
    assert s2.players[0].rice == 20 - SPEC_RICE_LOSS[event]
    assert s2.players[3].rice == max(0, 4 - SPEC_RICE_LOSS[event])  # R-WINTER-1: not below 0


# --- R-EVENT-2/3 ---------------------------------------------------------------------------

def _all_planned(s, bids=(0, 0, 0, 0)):
    for seat, bid in enumerate(bids):
        s, _ = apply(s, full_plan(s, seat, bid))
    return s


def test_R_EVENT_2_event_is_drawn_by_chance_after_all_plans_are_locked():
    s = _all_planned(at_plan(), bids=(1, 2, 3, 4))
    d = pending(s)
    assert (d.kind, d.purpose) == ("chance", "event") and s.current_event is None
    a, ev = apply(s, chance("event"))
    b, _ = apply(s, chance("event"))
    assert a.current_event == b.current_event and a.current_event in s.year_events
    assert of(ev, "EventDrawn")[0] == {"event": "EventDrawn", "event_card": a.current_event,
                                       "rice_loss": SPEC_RICE_LOSS[a.current_event]}
    drawn = {apply(s, chance(f"e{i}"))[0].current_event for i in range(12)}
    assert drawn <= set(s.year_events) and len(drawn) > 1


def test_R_EVENT_2_leftover_event_gives_only_its_winter_rice_loss():
    _, events = played()
    year = of(events, "YearStarted")[0]["events"]
    cut = events.index(of(events, "WinterStarted")[0])
    drawn = [e["event_card"] for e in of(events[:cut], "EventDrawn")]
    assert len(drawn) == 3 and set(drawn) < set(year)
    leftover = (set(year) - set(drawn)).pop()
    assert of(events, "WinterStarted")[0]["event_card"] == leftover


def test_R_EVENT_2_the_round_event_applies_to_every_player():
    s = at_plan()
    plans = {0: plan(0, tax="Settsu"), 1: plan(1, tax="Shinano"), 3: plan(3, tax="Mikawa")}
    _, events = begin_exec(s, plans, event=7)
    assert {e["seat"]: e["money_gained"] for e in of(events, "ActionDone")} == {0: 5, 1: 5,
                                                                                 3: 5}


def test_R_EVENT_3_bounds_replace_the_printed_value_then_special_adds():
    assert tax_yield(7, 7, "chest") == 6 and tax_yield(2, 8, "chest") == 7
    assert tax_yield(7, 8, None) == 7 and tax_yield(2, 7, None) == 2
    assert rice_yield(6, 11, "rice") == 4 and rice_yield(1, 10, "rice") == 5
    _, events = begin_exec(at_plan(), {0: plan(0, tax="Omi")}, event=8, specials={0: "chest"})
    assert of(events, "ActionDone")[0]["money_gained"] == max(tax("Omi"), 6) + 1


# --- R-BID ---------------------------------------------------------------------------------

def test_R_BID_1_money_bids_are_paid_province_bids_are_free():
    s = at_plan()
    bids = (3, "Shinano", 0, 4)
    for seat, bid in enumerate(bids):
        s, _ = apply(s, full_plan(s, seat, bid))
    before = [p.money for p in s.players]
    assert before == [15] * 4  # nothing paid while plans are secret
    s, events = apply(s, chance("ev"))
    assert [p.money for p in s.players] == [12, 15, 15, 11]
    assert of(events, "BidsRevealed")[0]["bids"] == {"0": 3, "1": "province", "2": 0, "3": 4}


def test_R_BID_2_ranking_4_3_2_1_province_0_without_ties_needs_no_chance():
    s = at_plan()
    for seat, bid in enumerate((1, "Shinano", 0, 4)):
        s, _ = apply(s, full_plan(s, seat, bid))
    s, _ = apply(s, chance("ev"))
    assert s.ranking == [3, 0, 1, 2]
    assert pending(s).kind == "special" and pending(s).seats == (3,)
    ranks = [bid_rank(b) for b in (4, 3, 2, 1, "X", 0, None)]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7


def test_R_BID_2_equal_bids_are_ordered_by_chance():
    s = at_plan()
    for seat, bid in enumerate((2, 0, 2, 0)):
        s, _ = apply(s, full_plan(s, seat, bid))
    s, _ = apply(s, chance("ev"))
    d = pending(s)
    assert (d.kind, d.purpose, d.detail["groups"]) == ("chance", "ties", [[0, 2], [1, 3]])
    orders = {tuple(apply(s, chance(f"t{i}"))[0].ranking) for i in range(16)}
    for order in orders:
        assert set(order[:2]) == {0, 2} and set(order[2:]) == {1, 3}
    assert len(orders) > 1
    assert apply(s, chance("t0"))[0].ranking == apply(s, chance("t0"))[0].ranking


def test_R_BID_3_players_take_special_cards_in_ranking_order_position_is_turn_order():
    s = at_plan()
    for seat, bid in enumerate((1, "Shinano", 0, 4)):
        s, _ = apply(s, full_plan(s, seat, bid))
    s, _ = apply(s, chance("ev"))
    row = list(s.specials_row)
    expect_illegal(s, PickSpecial(0, 1), "R-BID-3")  # seat 3 ranks first
    s, _ = apply(s, PickSpecial(3, 5))
    assert pending(s).seats == (0,) and pending(s).detail["positions"] == [1, 2, 3, 4]
    expect_illegal(s, PickSpecial(0, 5), "R-BID-3")  # already taken
    s, _ = apply(s, PickSpecial(0, 3))
    s, _ = apply(s, PickSpecial(1, 1))
    s, events = apply(s, PickSpecial(2, 4))
    # empty position 2 is skipped
    assert s.turn_order == [1, 0, 2, 3]
    assert [s.players[i].special for i in range(4)] == [row[2], row[0], row[3], row[4]]
    assert of(events, "TurnOrderSet")[0]["order"] == [1, 0, 2, 3]


def test_R_BID_3_last_player_takes_the_only_card_left_without_a_decision():
    s = at_plan(5)
    for seat in range(5):
        s, _ = apply(s, full_plan(s, seat, 4 - seat))
    s, _ = apply(s, chance("ev"))
    for seat in range(4):
        assert pending(s).seats == (seat,)
        s, _ = apply(s, PickSpecial(seat, seat + 2 if seat < 4 else 1))
    assert s.players[4].position == 1 and s.turn_order[0] == 4
