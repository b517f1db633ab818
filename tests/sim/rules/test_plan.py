"""Round structure, action cards, special cards, planning: R-ROUND, R-ACTCARD, R-SPECIAL,
R-PLAN."""

from sim.board import board
from sim.commands import ACTIONS, ChooseMove, SubmitPlan
from sim.game import apply, pending, public_state, state_hash
from sim.legal import plan_problems
from sim.rules.actions import deploy_count, rice_yield, tax_yield
from sim.state import SPECIALS

from tests.sim.scenario import extras, held  # noqa: F401
from tests.sim.scenario import (answer, at_plan, begin_exec, chance, clean, drive,
                                expect_illegal, full_plan, kind_is, of, place, plan, played,
                                start)


# --- R-ROUND ------------------------------------------------------------------------------

def test_R_ROUND_1_two_years_of_three_action_rounds_and_a_winter():
    _, events = played()
    rounds = [(e["year"], e["season"]) for e in of(events, "RoundStarted")]
    assert rounds == [(y, s) for y in (1, 2) for s in ("spring", "summer", "autumn")]
    assert [e["year"] for e in of(events, "WinterStarted")] == [1, 2]
    assert len(of(events, "GameEnded")) == 1


def test_R_ROUND_2_steps_of_an_action_round_come_in_order():
    _, events = played()
    names = [e["event"] for e in events]
    start = names.index("RoundStarted")
    end = names.index("RoundEnded")
    rnd = names[start:end + 1]
    firsts = [rnd.index(k) for k in ("RoundStarted", "PlanLocked", "EventDrawn",
                                     "BidsRevealed", "TurnOrderSet", "ActionStarted",
                                     "CardTurned", "ActionRevealed", "PlanRevealed",
                                     "RoundEnded")]
    assert firsts == sorted(firsts)
    # every plan is locked before any card is turned (R-PLAN-5), and whole plans go into
    # the record only once the round's last action is done
    assert max(i for i, n in enumerate(rnd) if n == "PlanLocked") < rnd.index("BidsRevealed")
    assert max(i for i, n in enumerate(rnd) if n in ("ActionDone", "ActionLapsed",
                                                      "CardTurned")) < rnd.index("PlanRevealed")


def test_R_ROUND_2_planning_waits_for_every_seat_then_the_event_is_drawn():
    s = at_plan()
    assert pending(s).kind == "plan" and pending(s).seats == (0, 1, 2, 3)
    for seat in (2, 0, 3):  # any order
        s, _ = apply(s, full_plan(s, seat))
    assert pending(s).kind == "plan" and pending(s).seats == (1,)
    s, events = apply(s, full_plan(s, 1))
    assert (pending(s).kind, pending(s).purpose) == ("chance", "event")
    assert [e["seat"] for e in of(events, "PlanLocked")] == [1]
    assert not of(events, "PlanRevealed") and not of(events, "BidsRevealed")


def test_R_ROUND_3_end_of_round_cards_specials_and_event_card_leave():
    states, events = played()
    ends = [i for i, st in enumerate(states) if st.season == 1 and states[i - 1].season == 0]
    before, after = states[ends[0] - 1], states[ends[0]]
    assert len(after.year_events) == 3 and before.current_event not in after.year_events
    assert after.current_event is None
    assert all(p.plan is None and p.special is None for p in after.players)
    assert after.specials_row == [] or pending(after).purpose == "round"


def test_R_ROUND_3_autumn_turn_order_stays_in_force_through_winter():
    _, events = played()
    for w, e in enumerate(events):
        if e["event"] != "WinterStarted":
            continue
        autumn = [x for x in events[:w] if x["event"] == "TurnOrderSet"][-1]["order"]
        later = events[w:]
        until = next(i for i, x in enumerate(later) if x["event"] == "Scored")
        seats = [x["seat"] for x in later[:until] if x["event"] == "Shortage"]
        assert seats == [seat for seat in autumn if seat in seats]


def test_R_ROUND_4_after_first_winter_new_events_rice_zero_unrest_removed():
    states, events = played()
    i = next(i for i, st in enumerate(states) if st.year == 2)
    s = states[i]
    assert s.year_events == [] and (pending(s).kind, pending(s).purpose) == ("chance", "events")
    assert all(p.rice == 0 for p in s.players)
    assert all(p.unrest == 0 for p in s.provinces.values())
    year1 = of(events, "YearStarted")[0]["events"]
    year2 = of(events, "YearStarted")[1]["events"]
    assert len(year2) == 4 and set(year1).isdisjoint(year2)


# --- R-ACTCARD ----------------------------------------------------------------------------

def test_R_ACTCARD_1_the_ten_actions():
    assert ACTIONS == ("palace", "temple", "theatre", "rice", "tax", "deploy5", "deploy3",
                       "deploy1", "battle_a", "battle_b")


def test_R_ACTCARD_2_five_face_up_five_drawn_when_turned():
    s = at_plan()
    assert all(a in ACTIONS for a in s.action_row[:5]) and s.action_row[5:] == [None] * 5
    assert sorted(s.action_row[:5] + s.hidden_actions) == sorted(ACTIONS)
    assert "hidden_actions" not in public_state(s)
    # once every player has done slot 1, execution waits for chance to turn slot 6
    s2, _ = begin_exec(s, {}, actions=s.action_row)
    d = pending(s2)
    assert (d.kind, d.purpose, d.detail) == ("chance", "action", {"slot": 6})
    a, ev_a = apply(s2, chance("card6"))
    b, _ = apply(s2, chance("card6"))
    assert a.action_row[5] == b.action_row[5] in s.hidden_actions
    assert of(ev_a, "ActionRevealed")[0] == {"event": "ActionRevealed", "slot": 6,
                                             "action": a.action_row[5]}


def test_R_ACTCARD_2_order_is_reshuffled_every_round_and_row_is_deterministic():
    _, events = played()
    rows = [tuple(e["actions"]) for e in of(events, "RoundStarted")]
    assert len(set(rows)) > 1
    assert at_plan().action_row == at_plan().action_row
    assert at_plan(label="x").action_row != at_plan(label="y").action_row


# --- R-SPECIAL ----------------------------------------------------------------------------

def test_R_SPECIAL_1_special_cards_shuffled_into_positions_one_to_five():
    s = at_plan()
    assert sorted(s.specials_row) == sorted(SPECIALS)
    assert public_state(s)["specials"] == s.specials_row
    other = at_plan(label="other-seed")
    assert sorted(other.specials_row) == sorted(SPECIALS)


def test_R_SPECIAL_1_R_ACTCARD_2_row_and_specials_wait_for_the_round_chance():
    s = drive(start(), kind_is("chance", "round"))
    assert s.specials_row == [] and s.action_row == [None] * 10
    a, events = apply(s, chance("round"))
    b, _ = apply(s, chance("round"))
    assert (a.specials_row, a.action_row) == (b.specials_row, b.action_row)
    assert sorted(a.specials_row) == sorted(SPECIALS) and pending(a).kind == "plan"
    assert of(events, "RoundStarted")[0]["specials"] == a.specials_row
    rows = {tuple(apply(s, chance(f"r{i}"))[0].specials_row) for i in range(6)}
    assert len(rows) > 1


def test_R_SPECIAL_1_chest_adds_one_to_tax():
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, tax="Omi")}, specials={0: "chest"})
    assert of(events, "ActionDone")[0]["money_gained"] == board().provinces["Omi"].tax + 1


def test_R_SPECIAL_1_rice_adds_one_to_rice():
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, rice="Omi")}, specials={0: "rice"})
    assert s2.players[0].rice == board().provinces["Omi"].rice + 1


def test_R_SPECIAL_1_six_armies_makes_deploy5_six_for_three_chests():
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, deploy5="Omi", deploy3="Kii")},
                            specials={0: "six_armies"})
    assert s2.provinces["Omi"].armies == 3 + 6 and s2.provinces["Kii"].armies == 2 + 3
    assert s2.players[0].money == 15 - 3 - 2
    clean(s2)


def _attack_setup(s):
    """Seat 0 in Shinano (6) next to seat 1's Kozuke (3)."""
    place(s, "Shinano", 0, 6)
    place(s, "Kozuke", 1, 3)
    return plan(0, battle_a="Shinano")


def test_R_SPECIAL_1_attack_card_throws_one_extra_attacker_army():
    s = at_plan()
    p = _attack_setup(s)
    s2, _ = begin_exec(s, {0: p}, specials={0: "attack"})
    supply = s2.players[0].supply
    s3, events = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert s3.players[0].supply == supply - 1
    assert held(s3)[0] == 4 + 1 and extras(s3) == {"attack_card": 1}
    s4 = answer(s3)
    battle = of(answer_events(s3), "BattleResolved")[0]
    assert battle["thrown"]["0"] == 5 and battle["attack_card"] == 1
    clean(s4)


def answer_events(s):
    events = []
    answer(s, events=events)
    return events


def test_R_SPECIAL_1_attack_card_needs_an_army_in_supply():
    s = at_plan()
    p = _attack_setup(s)
    # move the whole supply onto the board so the card has nothing to add
    spare = 62 - s.cubes_of(0)["board"] - s.cubes_of(0)["tower"]
    s.provinces["Shinano"].armies += spare
    s.players[0].supply = 0
    clean(s)
    s2, _ = begin_exec(s, {0: p}, specials={0: "attack"})
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert held(s3)[0] == 4 and "attack_card" not in extras(s3)


def test_R_SPECIAL_1_defence_card_throws_one_extra_defender_army():
    s = at_plan()
    p = _attack_setup(s)
    s2, _ = begin_exec(s, {0: p}, specials={1: "defence"})
    s3, _ = apply(s2, ChooseMove(0, "Kozuke", 4))
    assert held(s3) == {0: 4, 1: 3 + 1}
    assert extras(s3) == {"defence_card": 1}


def test_R_SPECIAL_1_defence_card_does_not_help_against_a_revolt():
    s = at_plan()
    s.provinces["Omi"].unrest = 1
    s2, _ = begin_exec(s, {0: plan(0, tax="Omi")}, specials={0: "defence"})
    assert s2.battle.kind == "revolt" and held(s2) == {0: 3, 5: 1}


def test_R_SPECIAL_2_unclaimed_special_cards_have_no_effect():
    s = drive(at_plan(3), kind_is("chance", "action"), label="sp2")
    held = {p.special for p in s.players}
    unclaimed = set(SPECIALS) - held
    assert len(held) == 3 and len(unclaimed) == 2
    assert sorted(p.position for p in s.players) == sorted(set(p.position for p in s.players))
    # with `chest` in the row but claimed by nobody, tax is the printed value
    s = at_plan()
    assert "chest" in s.specials_row
    s2, events = begin_exec(s, {0: plan(0, tax="Omi")}, specials={1: "rice", 2: "attack"})
    assert of(events, "ActionDone")[0]["money_gained"] == board().provinces["Omi"].tax


def test_R_SPECIAL_3_event_first_then_special_card():
    assert tax_yield(7, 7, "chest") == 6           # E-1
    assert tax_yield(3, 8, "chest") == 7           # at least 6, then +1
    assert rice_yield(5, 11, "rice") == 4          # at most 3, then +1
    assert rice_yield(1, 10, "rice") == 5          # at least 4, then +1
    # `6 armies` sets deploy 5 to 6 whatever event 12 says (R-SPECIAL-1/3, R-EXEC-8, E-6)
    assert deploy_count("deploy5", 12, "six_armies") == 6
    assert deploy_count("deploy5", 12, None) == 3
    assert deploy_count("deploy3", 12, "six_armies") == 2


# --- R-PLAN -------------------------------------------------------------------------------

def test_R_PLAN_1_province_card_on_an_action_means_that_action_there():
    s = at_plan()
    assert plan_problems(s, full_plan(s, 0, 0, tax="Settsu")) == []
    bad = full_plan(s, 0, 0, tax="Kozuke")  # seat 1's card
    assert plan_problems(s, bad)[0].rule == "R-PLAN-1" and "Kozuke" in plan_problems(s, bad)[0].text
    expect_illegal(s, bad, "R-PLAN-1")
    expect_illegal(s, SubmitPlan(0, ("Omi",) * 9, 0), "R-PLAN-1")


def test_R_PLAN_1_money_card_on_an_action_field_means_no_action():
    s = at_plan()
    s2, events = begin_exec(s, {0: plan(0, tax="Settsu")})
    assert [e["action"] for e in of(events, "ActionDone") if e["seat"] == 0] == ["tax"]
    assert not of(events, "ActionLapsed")


def test_R_PLAN_2_each_card_used_at_most_once():
    s = at_plan()
    twice = plan(0, 0, palace="Omi", temple="Omi", theatre="Kii", rice="Kaga", tax="Noto",
                 deploy5="Tamba", deploy3="Yamato")
    expect_illegal(s, twice, "R-PLAN-2")
    bid_and_action = full_plan(s, 0, "Omi", tax="Omi")
    expect_illegal(s, bid_and_action, "R-PLAN-2")


def test_R_PLAN_3_every_field_holds_a_card_while_cards_remain():
    s = at_plan()  # seat 0 has 8 province cards
    cards = s.cards_of(0)
    five = SubmitPlan(0, tuple(cards[:5]) + (None,) * 5, 0)
    six = SubmitPlan(0, tuple(cards[:6]) + (None,) * 4, 0)
    assert plan_problems(s, six) == []
    expect_illegal(s, five, "R-PLAN-3")
    # with a province bid only 5 action fields need province cards
    five_prov = SubmitPlan(0, tuple(cards[:5]) + (None,) * 5, cards[7])
    four_prov = SubmitPlan(0, tuple(cards[:4]) + (None,) * 6, cards[7])
    assert plan_problems(s, five_prov) == []
    expect_illegal(s, four_prov, "R-PLAN-3")


def test_R_PLAN_3_fields_left_empty_when_out_of_cards_behave_like_money():
    s = at_plan()
    for name in s.cards_of(0)[2:]:
        place(s, name, None)
    two = s.cards_of(0)
    assert plan_problems(s, plan(0, 1, tax=two[0], rice=two[1])) == []
    assert plan_problems(s, plan(0, 1, tax=two[0]))[0].rule == "R-PLAN-3"
    for name in two:
        place(s, name, None)
    assert plan_problems(s, plan(0, 1)) == []  # no province left: money only


def test_R_PLAN_4_bid_field_rules():
    s = at_plan()
    expect_illegal(s, full_plan(s, 0, None), "R-PLAN-4")
    expect_illegal(s, full_plan(s, 0, "Kozuke"), "R-PLAN-4")
    s.players[0].money = 2
    err = expect_illegal(s, full_plan(s, 0, 3), "R-PLAN-4")
    assert "more than your" in err.reason
    expect_illegal(s, full_plan(s, 0, 7), "R-PLAN-4")
    assert plan_problems(s, full_plan(s, 0, 2)) == []
    assert plan_problems(s, full_plan(s, 0, "Omi")) == []


def test_R_PLAN_5_plans_stay_secret_until_every_plan_is_locked():
    s = at_plan()
    s1, events = apply(s, full_plan(s, 0, 3, tax="Settsu"))
    assert events == [{"event": "PlanLocked", "seat": 0}]
    assert "plan" not in str(public_state(s1)["players"])
    assert public_state(s1)["players"]["0"]["money"] == 15  # the bid is not paid yet
    expect_illegal(s1, full_plan(s1, 0, 0), "R-PLAN-5")  # locked: no second plan
    for seat in (1, 2, 3):
        s1, events = apply(s1, full_plan(s1, seat))
        assert not of(events, "PlanRevealed") and not of(events, "BidsRevealed")
    # after the last lock only the bids are turned together; the plans stay face down
    s2, events = apply(s1, chance("event"))
    assert of(events, "BidsRevealed") and not of(events, "PlanRevealed")
    assert state_hash(s1) == state_hash(s1.copy())
