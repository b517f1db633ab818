"""Components and setup: R-COMP-1...7, R-SETUP-1...8."""

import pytest

from sim.board import board
from sim.commands import ACTIONS, DraftPlace, DraftTake, IllegalCommand
from sim.tower import drop as tower
from sim.game import GameConfig, apply, new_game, pending, public_state, state_hash
from sim.invariants import violations
from sim.cards import cards

EVENT_RICE_LOSS = {n: e.rice_loss for n, e in cards().events.items()}
from sim.state import PEASANT, SPECIALS

from tests.sim.scenario import (at_plan, begin_exec, chance, clean, drive, expect_illegal,
                                feed_chance, kind_is, of, place, plan, played, start)


# --- R-COMP -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 6])
def test_R_COMP_1_only_3_to_5_players(players):
    with pytest.raises(IllegalCommand) as refused:
        new_game(GameConfig(players))
    assert refused.value.rule == "R-COMP-1" and "R-" not in str(refused.value)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R_COMP_1_each_player_has_62_armies(players):
    s = start(players)
    assert len(s.players) == players
    for seat in range(players):
        assert sum(s.cubes_of(seat).values()) == 62
    assert s.tray[PEASANT] == 0


def test_R_COMP_1_province_cards_are_the_provinces_owned():
    s = start(4)
    for seat, claims in enumerate(board().beginner_setups_sun[4]):
        assert s.cards_of(seat) == sorted(claims)
        assert public_state(s)["players"][str(seat)]["cards"] == sorted(claims)


def test_R_COMP_2_twenty_peasants_in_one_general_supply():
    s = start(4)
    assert sum(s.cubes_of(PEASANT).values()) == 20
    assert sum(start(3).cubes_of(PEASANT).values()) == 20


def test_R_COMP_3_money_is_public_and_never_negative_when_a_payment_cannot_be_made():
    s = at_plan()
    s.players[0].money = 2
    s2, events = begin_exec(s, {0: plan(0, palace="Settsu", deploy5="Omi", temple="Kii")},
                            actions=list(ACTIONS))
    lapsed = {e["action"]: e["rule"] for e in of(events, "ActionLapsed")}
    assert lapsed == {"palace": "R-EXEC-3", "deploy5": "R-EXEC-3"}
    assert s2.players[0].money == 0  # the temple (2) was paid, nothing went below 0
    assert public_state(s2)["players"]["0"]["money"] == 0


def test_R_COMP_4_building_stock_runs_out():
    s = at_plan()
    # put all 28 palaces on the board (owned provinces of seat 1-3 with a free slot)
    placed = 0
    for name, p in sorted(s.provinces.items()):
        if placed == 28:
            break
        if p.owner is None:
            place(s, name, 1, 1, buildings=("palace",))
            placed += 1
        elif p.owner != 0:
            p.buildings = ("palace",)
            placed += 1
    assert s.buildings_left("palace") == 0
    s2, events = begin_exec(s, {0: plan(0, palace="Omi")})
    assert of(events, "ActionLapsed")[0]["rule"] == "R-COMP-4"
    assert "palace" not in s2.provinces["Omi"].buildings
    assert s2.players[0].money == s.players[0].money


def test_R_COMP_4_at_most_one_building_of_each_kind():
    s = at_plan()
    s.provinces["Yamato"].buildings = ("temple",)
    s2, events = begin_exec(s, {0: plan(0, temple="Yamato")})
    assert of(events, "ActionLapsed")[0]["reason"] == "Yamato already has a temple"
    assert s2.provinces["Yamato"].buildings == ("temple",)


def test_R_COMP_5_no_marker_is_placed_when_all_42_are_used():
    s = at_plan()
    others = [n for n in sorted(s.provinces) if s.provinces[n].owner in (1, 2, 3)]
    left = 42
    for name in others:
        k = min(left, 3)
        s.provinces[name].unrest = k
        left -= k
    assert left == 0 and s.unrest_left() == 0
    s2, events = begin_exec(s, {0: plan(0, tax="Settsu")})
    done = of(events, "ActionDone")[0]
    assert done["money_gained"] == 7 and done["unrest_placed"] == 0
    assert s2.provinces["Settsu"].unrest == 0
    clean(s2)


@pytest.mark.parametrize("players, setup", [(4, "beginner"), (3, "draft")])
def test_R_COMP_6_every_cube_is_somewhere_at_every_step(players, setup):
    """Checked on every state of a whole bot game, battles and revolts included."""
    states, events = played(players, "sun" if setup == "beginner" else "moon", setup)
    assert of(events, "BattleResolved")
    for s in states:
        assert violations(s) == []


def test_R_COMP_7_ten_actions_five_specials_twelve_events():
    assert len(ACTIONS) == len(set(ACTIONS)) == 10
    assert sorted(SPECIALS) == sorted(["chest", "rice", "six_armies", "attack", "defence"])
    assert sorted(EVENT_RICE_LOSS) == list(range(1, 13))
    assert start().event_deck == list(range(1, 13))


# --- R-SETUP ------------------------------------------------------------------------------

def test_R_SETUP_1_board_side_must_be_sun_or_moon_and_is_kept():
    with pytest.raises(IllegalCommand) as refused:
        new_game(GameConfig(4, "mars", "draft"))
    assert refused.value.rule == "R-SETUP-1" and "R-" not in str(refused.value)
    s = start(4, "moon", "draft")
    assert public_state(s)["side"] == "moon"
    assert len(s.provinces) == 45


def test_R_SETUP_2_three_players_excluded_provinces_are_out_of_play():
    s = start(3)
    excluded = set(board().excluded_3p["sun"])
    assert excluded.isdisjoint(s.provinces)
    assert len(s.provinces) == 37
    assert public_state(s)["provinces"]["Mutsu"]["excluded"] is True
    # no card: the draft deck holds only provinces in play
    d = start(3, "sun", "draft")
    assert excluded.isdisjoint(d.draft.unknown)


@pytest.mark.parametrize("players, money", [(3, 18), (4, 15), (5, 12)])
def test_R_SETUP_3_starting_money(players, money):
    assert [p.money for p in start(players).players] == [money] * players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R_SETUP_4_beginner_setup_seat_i_gets_setup_i(players):
    s, events = new_game(GameConfig(players))
    for seat, claims in enumerate(board().beginner_setups_sun[players]):
        for name, armies in claims.items():
            assert (s.provinces[name].owner, s.provinces[name].armies) == (seat, armies)
        assert sum(s.provinces[n].armies for n in s.cards_of(seat)) == sum(claims.values())
    owned = {n for claims in board().beginner_setups_sun[players] for n in claims}
    assert all(p.owner is None and p.armies == 0 for n, p in s.provinces.items() if n not in owned)


def test_R_SETUP_4_beginner_setup_exists_for_the_sun_side_only():
    with pytest.raises(IllegalCommand) as refused:
        new_game(GameConfig(4, "moon", "beginner"))
    assert refused.value.rule == "R-SETUP-4" and "R-" not in str(refused.value)
    with pytest.raises(IllegalCommand) as refused:
        new_game(GameConfig(4, "sun", "auction"))
    assert refused.value.rule == "R-SETUP-4" and "R-" not in str(refused.value)


def test_R_SETUP_5_draft_turns_up_two_cards_by_chance_then_seat_0_takes_and_places():
    s = start(4, "sun", "draft")
    assert (pending(s).kind, pending(s).purpose) == ("chance", "draft")
    a, _ = apply(s, chance("draft-a"))
    b, _ = apply(s, chance("draft-a"))
    assert a.draft.up == b.draft.up and None not in a.draft.up  # deterministic
    d = pending(a)
    assert d.kind == "draft_take" and d.seats == (0,) and d.detail["can_refresh"] is False
    first = a.draft.up[1]
    a, _ = apply(a, DraftTake(0, "up1"))
    assert pending(a).kind == "draft_place" and pending(a).detail["province"] == first
    a, events = apply(a, DraftPlace(0, 5))
    assert (a.provinces[first].owner, a.provinces[first].armies) == (0, 5)
    assert a.players[0].groups == (4, 4, 3, 3, 2, 2, 2)
    # the taken face-up card is replaced from the deck (a chance draw), then seat 1 picks
    assert (pending(a).kind, pending(a).purpose) == ("chance", "draft")
    a, _ = apply(a, chance("draft-b"))
    assert None not in a.draft.up and first not in a.draft.up
    assert pending(a).kind == "draft_take" and pending(a).seats == (1,)


def test_R_SETUP_5_top_card_of_the_deck_is_a_chance_draw():
    s = feed_chance(start(4, "sun", "draft"))
    up = s.draft.up
    s, _ = apply(s, DraftTake(0, "deck"))
    assert (pending(s).kind, pending(s).purpose) == ("chance", "draft")
    s1, _ = apply(s, chance("deck"))
    s2, _ = apply(s, chance("deck"))
    assert s1.draft.taken == s2.draft.taken not in up
    assert s1.draft.up == up  # face-up cards stay
    assert pending(s1).kind == "draft_place"


def test_R_SETUP_5_refresh_only_facing_the_same_two_cards_as_on_the_previous_pick():
    s = feed_chance(start(4, "sun", "draft"))
    expect_illegal(s, DraftTake(0, "refresh"), "R-SETUP-5")
    # everybody takes from the deck, so seat 0 faces the same two cards again
    for n in range(4):
        seat = pending(s).seats[0]
        s, _ = apply(s, DraftTake(seat, "deck"))
        s = feed_chance(s, f"r{n}")
        s, _ = apply(s, DraftPlace(seat, 5))
        s = feed_chance(s, f"r{n}")
    assert pending(s).seats == (0,) and pending(s).detail["can_refresh"] is True
    old = s.draft.up
    s, events = apply(s, DraftTake(0, "refresh"))
    assert of(events, "DraftCardsRefreshed") and s.draft.bottom[-2:] == old
    s = feed_chance(s, "new")
    assert set(s.draft.up).isdisjoint(old)
    assert pending(s).kind == "draft_take" and pending(s).detail["can_refresh"] is False


@pytest.mark.parametrize("players", [3, 5])
def test_R_SETUP_5_draft_ends_when_every_group_is_placed(players):
    s = drive(start(players, "moon", "draft"), lambda st: st.stage != "draft", label="dr")
    groups = board().draft_army_groups[players]
    for seat in range(players):
        owned = s.cards_of(seat)
        assert sorted((s.provinces[n].armies for n in owned), reverse=True) == sorted(
            groups, reverse=True)
    taken = sum(len(s.cards_of(seat)) for seat in range(players))
    neutral = [p for p in s.provinces.values() if p.owner is None]
    assert len(neutral) == len(s.provinces) - taken
    assert all(p.armies == 0 for p in neutral)
    assert (pending(s).kind, pending(s).purpose) == ("chance", "tower")


def test_R_SETUP_6_tower_fill_drops_7_armies_each_and_10_peasants():
    s = start(4)
    assert (pending(s).kind, pending(s).purpose) == ("chance", "tower")
    seeded, events = apply(s, chance("fill"))
    assert pending(seeded).kind == "tower" and not of(events, "TowerDropped")
    s2, events = apply(seeded, tower.settle(pending(seeded)))
    drop = of(events, "TowerDropped")[0]
    assert drop["reason"] == "fill"
    assert drop["thrown"] == {"0": 7, "1": 7, "2": 7, "3": 7, "peasant": 10}
    inside = s2.tower.counts()
    out = drop["out"]
    for seat in range(4):
        # what came out went back to supply; the rest stays inside, the tray is empty
        assert inside.get(seat, 0) == 7 - out.get(str(seat), 0)
        on_board = sum(s.provinces[n].armies for n in s.cards_of(seat))
        assert s2.players[seat].supply == 62 - on_board - inside.get(seat, 0)
    assert s2.peasant_supply == 20 - inside.get(PEASANT, 0)
    assert s2.tray == [0] * 6
    assert len(s2.tower) > 0
    again = apply(s, chance("fill"))[0]
    assert state_hash(apply(again, tower.settle(pending(again)))[0]) == state_hash(s2)


def test_R_SETUP_7_four_public_events_drawn_by_chance():
    s = feed_chance(start(4), until=kind_is("chance", "events"))
    assert (pending(s).kind, pending(s).purpose) == ("chance", "events")
    a, events = apply(s, chance("ev"))
    b, _ = apply(s, chance("ev"))
    assert a.year_events == b.year_events and len(set(a.year_events)) == 4
    assert set(a.year_events) <= set(range(1, 13))
    assert sorted(a.event_deck + a.year_events) == list(range(1, 13))
    assert of(events, "YearStarted")[0]["events"] == a.year_events
    assert public_state(a)["events"] == a.year_events


def test_R_SETUP_8_score_and_rice_start_at_zero():
    s = at_plan(5)
    assert all(p.score == 0 and p.rice == 0 for p in s.players)
