"""Winter: R-WINTER-1...5."""

from sim.board import board
from sim.commands import OrderRevolts
from sim.game import apply, pending

from tests.sim.scenario import extras, held  # noqa: F401
from tests.sim.scenario import (answer, at_plan, begin_winter, chance, clean, clear_owner,
                                drive, expect_illegal, of, place, start)

NO_LOSS = 7  # event 7 loses no rice in winter


def test_R_WINTER_1_rice_drops_by_the_leftover_loss_not_below_zero():
    s2, events = begin_winter(at_plan(), 2, rice={0: 30, 1: 7, 2: 3, 3: 0})
    assert [p.rice for p in s2.players] == [23, 0, 0, 0]


def test_R_WINTER_2_shortage_uses_the_revolt_table():
    s2, events = begin_winter(at_plan(), NO_LOSS, rice={0: 20, 1: 5, 2: 20, 3: 20})
    d = pending(s2)
    assert (d.kind, d.purpose, d.detail) == ("chance", "revolts", {"seat": 1, "count": 2})
    s3, events = apply(s2, chance("rv"))
    short = of(events, "Shortage")[0]
    assert (short["provinces"], short["rice"], short["shortage"]) == (8, 5, 3)
    assert (short["revolts"], short["extra_peasants"]) == board().revolts_for(3) == (2, 2)


def test_R_WINTER_2_no_shortage_no_revolt():
    s2, events = begin_winter(at_plan(), NO_LOSS, rice={0: 8, 1: 9, 2: 8, 3: 8})
    assert not of(events, "Shortage") and pending(s2).kind == "over"


def test_R_WINTER_3_revolts_drawn_by_chance_from_the_players_cards_then_ordered():
    s2, _ = begin_winter(at_plan(), NO_LOSS, rice={0: 20, 1: 5, 2: 20, 3: 20})
    a, _ = apply(s2, chance("rv"))
    b, _ = apply(s2, chance("rv"))
    drawn = a.winter.revolts
    assert drawn == b.winter.revolts and len(set(drawn)) == 2
    assert set(drawn) <= set(s2.cards_of(1))
    d = pending(a)
    assert d.kind == "revolt_order" and d.seats == (1,)
    assert sorted(d.detail["provinces"]) == sorted(drawn)
    expect_illegal(a, OrderRevolts(1, (drawn[0],)), "R-WINTER-3")
    expect_illegal(a, OrderRevolts(1, (drawn[0], "Settsu")), "R-WINTER-3")
    chosen = (drawn[1], drawn[0])
    a2, events = apply(a, OrderRevolts(1, chosen))
    assert of(events, "RevoltsOrdered")[0]["order"] == list(chosen)
    assert pending(a2).detail == {"reason": "revolt", "province": chosen[0]}
    assert held(a2)[5] == 2 + a2.battle.unrest
    done = []
    a3 = answer(a2, events=done, until=lambda st: st.stage != "winter")
    assert [e["province"] for e in of(done, "BattleResolved")] == list(chosen)
    clean(a3)


def test_R_WINTER_3_a_single_revolt_needs_no_order():
    s2, _ = begin_winter(at_plan(), NO_LOSS, rice={0: 20, 1: 7, 2: 20, 3: 20})
    s3, _ = apply(s2, chance("one"))
    assert (pending(s3).kind, pending(s3).purpose) == ("chance", "tower")


def test_R_WINTER_3_players_are_handled_in_autumn_turn_order():
    s2, _ = begin_winter(at_plan(), NO_LOSS, order=[2, 0, 3, 1],
                         rice={0: 7, 1: 7, 2: 7, 3: 20})
    events = []
    answer(s2, events=events, until=lambda st: st.stage != "winter")
    assert [e["seat"] for e in of(events, "Shortage")] == [2, 0, 1]


def _scoring_scenario(state, side):
    b = board()
    for seat in range(len(state.players)):
        clear_owner(state, seat)
    brown = [n for n in b.names if b.region_of(n, "sun") == "brown" and n in state.provinces]
    return b, brown


def test_R_WINTER_4_points_for_provinces_buildings_and_region_majorities():
    s = at_plan()
    b, brown = _scoring_scenario(s, "sun")
    a, c, d, e, f = brown[:5]
    place(s, a, 0, 1, ("palace",))
    place(s, c, 0, 1, ("palace", "temple") if b.provinces[c].slots > 1 else ("palace",))
    place(s, d, 0, 1, ("temple",))
    place(s, e, 1, 1, ("palace", "temple") if b.provinces[e].slots > 1 else ("palace",))
    place(s, f, 1, 1, ("temple",))
    place(s, "Settsu", 2, 1)
    t0 = sum("temple" in s.provinces[n].buildings for n in (a, c, d))
    t1 = sum("temple" in s.provinces[n].buildings for n in (e, f))
    s2, events = begin_winter(s, NO_LOSS, rice={i: 45 for i in range(4)})
    scored = {ev["seat"]: ev for ev in of(events, "Scored")}
    temple0 = 2 if t0 > t1 else (1 if t0 == t1 else 0)
    temple1 = 2 if t1 > t0 else (1 if t0 == t1 else 0)
    assert scored[0]["majority_points"] == 3 + temple0       # 2 palaces beat 1
    assert scored[1]["majority_points"] == temple1
    assert scored[0]["gained"] == 3 + (2 + t0) + 3 + temple0
    assert scored[1]["gained"] == 2 + (1 + t1) + temple1
    assert scored[2]["gained"] == 1                           # a province, no buildings
    assert scored[3]["gained"] == 0
    assert [p.score for p in s2.players] == [scored[i]["score"] for i in range(4)]


def test_R_WINTER_4_tied_leaders_each_score_one_less():
    s = at_plan()
    b, brown = _scoring_scenario(s, "sun")
    place(s, brown[0], 0, 1, ("theatre",))
    place(s, brown[1], 1, 1, ("theatre",))
    place(s, brown[2], 2, 1, ("palace",))
    place(s, brown[3], 3, 1, ("palace",))
    _, events = begin_winter(s, NO_LOSS, rice={i: 45 for i in range(4)})
    scored = {ev["seat"]: ev["majority_points"] for ev in of(events, "Scored")}
    assert scored == {0: 0, 1: 0, 2: 2, 3: 2}  # theatre tie: 1 - 1 = 0; palace tie: 3 - 1


def test_R_WINTER_4_regions_follow_the_board_side():
    """Shinano is brown on the sun side but red on the moon side."""
    b = board()
    assert b.region_of("Shinano", "sun") == "brown" == b.region_of("Kozuke", "moon")
    assert b.region_of("Shinano", "moon") == "red"
    results = {}
    for side in ("sun", "moon"):
        s = drive(start(4, side, "draft"), lambda st: st.stage == "round", label="side")
        for seat in range(4):
            clear_owner(s, seat)
        place(s, "Shinano", 0, 1, ("palace",))
        place(s, "Kozuke", 1, 1, ("palace",))
        _, events = begin_winter(s, NO_LOSS, rice={i: 45 for i in range(4)})
        results[side] = {ev["seat"]: ev["majority_points"] for ev in of(events, "Scored")}
    assert results["sun"] == {0: 2, 1: 2, 2: 0, 3: 0}
    assert results["moon"] == {0: 3, 1: 3, 2: 0, 3: 0}


def test_R_WINTER_5_first_winter_leads_to_year_two_second_to_the_end():
    s1, events = begin_winter(at_plan(), NO_LOSS, year=1, rice={i: 45 for i in range(4)})
    assert s1.year == 2 and s1.season == 0
    assert (pending(s1).kind, pending(s1).purpose) == ("chance", "events")
    assert of(events, "YearEnded") and not of(events, "GameEnded")
    s2, events = begin_winter(at_plan(), NO_LOSS, year=2, rice={i: 45 for i in range(4)})
    assert pending(s2).kind == "over" and of(events, "GameEnded")
