"""Illegal commands, for every decision kind: a wrong command type, a wrong seat and an
illegal value each raise IllegalCommand naming the rule, and leave the state unchanged.

The state must be unchanged because peers apply every command they receive: a refused
command from one peer must not make the others' states drift apart.
"""

from dataclasses import replace

import pytest

from sim.commands import (Chance, ChooseMove, DraftPlace, DraftTake, OrderRevolts,
                          PickSpecial, SubmitPlan)
from sim.game import apply, pending, state_hash

from tests.sim.scenario import (at_plan, begin_exec, begin_winter, chance, drive,
                                expect_illegal, feed_chance, full_plan, kind_is, place, plan,
                                seed, start)

PLAN = SubmitPlan(0, (None,) * 10, 0)


@pytest.fixture(scope="module")
def states():
    """One state per decision kind."""
    out = {"chance": start()}
    out["plan"] = at_plan()
    draft = feed_chance(start(4, "sun", "draft"))
    out["draft_take"] = draft
    out["draft_place"] = apply(draft, DraftTake(0, "up0"))[0]
    s = at_plan()
    for seat, bid in enumerate((4, 3, 2, 1)):
        s, _ = apply(s, full_plan(s, seat, bid))
    out["special"] = apply(s, chance("ev"))[0]
    s = at_plan()
    place(s, "Shinano", 0, 5)
    out["move"] = begin_exec(s, {0: plan(0, battle_a="Shinano")})[0]
    w, _ = begin_winter(at_plan(), 7, rice={0: 45, 1: 5, 2: 45, 3: 45})
    out["revolt_order"] = apply(w, chance("rv"))[0]
    out["over"] = begin_winter(at_plan(), 7, rice={i: 45 for i in range(4)})[0]
    for kind, st in out.items():
        assert pending(st).kind == kind, kind
    return out


# (kind, the rule a type/seat error names, a command of the wrong type, one of a wrong seat)
WRONG = [
    ("chance", "R-ROUND-2", PLAN, PickSpecial(0, 1)),
    ("plan", "R-PLAN-5", ChooseMove(0, None, 0), SubmitPlan(4, (None,) * 10, 0)),
    ("draft_take", "R-SETUP-5", DraftPlace(0, 5), DraftTake(1, "up0")),
    ("draft_place", "R-SETUP-5", DraftTake(0, "up1"), DraftPlace(1, 5)),
    ("special", "R-BID-3", ChooseMove(0, None, 0), PickSpecial(1, 1)),
    ("move", "R-EXEC-1", PickSpecial(0, 1), ChooseMove(1, "Kozuke", 1)),
    ("revolt_order", "R-WINTER-3", chance("x"), OrderRevolts(0, ())),
    ("over", "R-END-1", chance("x"), PickSpecial(0, 1)),
]


@pytest.mark.parametrize("kind, rule, wrong_type, wrong_seat", WRONG, ids=[w[0] for w in WRONG])
def test_R_ROUND_2_R_END_1_wrong_command_type_or_seat_is_refused(states, kind, rule,
                                                                  wrong_type, wrong_seat):
    """Type and seat errors name the rule of the decision being waited for."""
    s = states[kind]
    err = expect_illegal(s, wrong_type, rule)
    assert "waiting for" in err.reason or kind == "over"
    err = expect_illegal(s, wrong_seat, rule)
    if kind not in ("chance", "over"):
        assert f"not seat {wrong_seat.seat}'s turn" in err.reason


def test_R_ROUND_2_chance_with_a_bad_seed_is_refused(states):
    expect_illegal(states["chance"], Chance(b"short"), "R-ROUND-2")
    expect_illegal(states["chance"], Chance(seed("a") + b"!"), "R-ROUND-2")


@pytest.mark.parametrize("command, rule", [
    (SubmitPlan(0, ("Kozuke",) + (None,) * 9, 0), "R-PLAN-1"),
    (SubmitPlan(0, (None,) * 9, 0), "R-PLAN-1"),
    (SubmitPlan(0, ("Omi", "Omi") + (None,) * 8, 0), "R-PLAN-2"),
    (SubmitPlan(0, ("Omi",) + (None,) * 9, 0), "R-PLAN-3"),
    (SubmitPlan(0, ("Omi", "Kii", "Kaga", "Noto", "Tamba", "Yamato") + (None,) * 4, None),
     "R-PLAN-4"),
    (SubmitPlan(0, ("Omi", "Kii", "Kaga", "Noto", "Tamba", "Yamato") + (None,) * 4, 16),
     "R-PLAN-4"),
])
def test_R_PLAN_1_to_4_illegal_plan_values(states, command, rule):
    expect_illegal(states["plan"], command, rule)


def test_R_PLAN_4_bid_above_money_refused(states):
    s = states["plan"].copy()
    s.players[0].money = 1
    expect_illegal(s, full_plan(s, 0, 2), "R-PLAN-4")


def test_R_PLAN_5_a_locked_plan_cannot_be_replaced(states):
    s, _ = apply(states["plan"], full_plan(states["plan"], 0, 0))
    err = expect_illegal(s, full_plan(s, 0, 1), "R-PLAN-5")
    assert "not seat 0's turn" in err.reason


@pytest.mark.parametrize("choice", ["refresh", "bogus", "up2"])
def test_R_SETUP_5_illegal_draft_take(states, choice):
    expect_illegal(states["draft_take"], DraftTake(0, choice), "R-SETUP-5")


@pytest.mark.parametrize("armies", [1, 6, 0])
def test_R_SETUP_5_illegal_draft_place(states, armies):
    err = expect_illegal(states["draft_place"], DraftPlace(0, armies), "R-SETUP-5")
    assert f"no army group of {armies} left" in err.reason


def test_R_SETUP_5_draft_take_from_an_empty_deck_is_refused():
    s = drive(start(3, "sun", "draft"), kind_is("draft_take"), label="x")
    s = s.copy()
    s.draft = replace(s.draft, unknown=(), bottom=())
    s.decision = replace(s.decision, detail={**s.decision.detail, "deck": 0})
    expect_illegal(s, DraftTake(pending(s).seats[0], "deck"), "R-SETUP-5")


@pytest.mark.parametrize("position", [0, 6, -1])
def test_R_BID_3_illegal_special_position(states, position):
    expect_illegal(states["special"], PickSpecial(0, position), "R-BID-3")


def test_R_BID_3_taken_special_position_refused(states):
    s, _ = apply(states["special"], PickSpecial(0, 2))
    expect_illegal(s, PickSpecial(1, 2), "R-BID-3")


@pytest.mark.parametrize("target, count", [
    ("Kozuke", 5), ("Kozuke", 0), ("Settsu", 1), ("Atlantis", 1), (None, 0)])
def test_R_EXEC_10_illegal_move_values(states, target, count):
    expect_illegal(states["move"], ChooseMove(0, target, count), "R-EXEC-10")


def test_R_EXEC_9_illegal_deploy1_move_values():
    s = at_plan()
    place(s, "Shinano", 0, 3)
    place(s, "Mikawa", 0, 1)
    s2, _ = begin_exec(s, {0: plan(0, deploy1="Shinano")})
    for target, count in (("Kozuke", 1), ("Mikawa", 4), ("Mikawa", 0)):
        expect_illegal(s2, ChooseMove(0, target, count), "R-EXEC-9")


def test_R_WINTER_3_illegal_revolt_orders(states):
    s = states["revolt_order"]
    drawn = list(pending(s).detail["provinces"])
    for order in ((), (drawn[0],), (drawn[0], drawn[0]), tuple(drawn) + ("Settsu",)):
        expect_illegal(s, OrderRevolts(1, order), "R-WINTER-3")


def test_R_END_1_no_command_after_the_game_ended(states):
    s = states["over"]
    for cmd in (chance("late"), PLAN, OrderRevolts(0, ())):
        expect_illegal(s, cmd, "R-END-1")


def test_R_ROUND_2_refused_commands_leave_the_input_object_untouched(states):
    """apply works on a copy: even deep handler checks must not leak partial changes."""
    s = states["move"]
    encoded = state_hash(s)
    provinces = {n: (p.owner, p.armies) for n, p in s.provinces.items()}
    tray, supply = list(s.tray), [p.supply for p in s.players]
    for cmd in (ChooseMove(0, "Kozuke", 99), ChooseMove(0, "Settsu", 1)):
        with pytest.raises(Exception):
            apply(s, cmd)
    assert state_hash(s) == encoded
    assert {n: (p.owner, p.armies) for n, p in s.provinces.items()} == provinces
    assert s.tray == tray and [p.supply for p in s.players] == supply
    # and a legal command after refused ones works as usual
    s2, _ = apply(s, ChooseMove(0, "Kozuke", 2))
    assert s2.battle and state_hash(s) == encoded
