"""What is face up when: R-ACTCARD-2 (the rolling reveal of the action row), R-PLAN-5 and
R-EXEC-2 (plans stay face down; each card is turned at its owner's turn), and `sim.view`
(what one seat may know)."""

from __future__ import annotations

from dataclasses import replace

from sim import bots
from sim.tower import drop as tower
from sim.commands import (ACTIONS, PLAN_FIELDS, CommitPlan, ForfeitField, OpenField, PickSpecial,
                          SubmitPlan)
from sim.game import GameConfig, apply, new_game, pending, state_hash
from sim.local import LocalGame
from sim.view import view

from tests.sim.scenario import (at_plan, begin_exec, chance, expect_illegal, full_plan, of,
                                place, plan, played)


def test_R_ACTCARD_2_after_slot_1s_last_player_acts_slot_6_is_turned():
    s = at_plan()
    row = s.action_row[:5]
    plans = {seat: plan(seat) for seat in range(4)}
    s2, events = begin_exec(s, plans, order=[2, 0, 3, 1], actions=row + [None] * 5)
    # slot 1 was done by everyone (money cards only): now slot 6 is turned, by chance
    d = pending(s2)
    assert (d.kind, d.purpose, d.detail) == ("chance", "action", {"slot": 6})
    assert s2.action_row[5] is None and s2.round.slot == 0
    s3, events = apply(s2, chance("six"))
    assert s3.action_row[5] is not None
    assert of(events, "ActionRevealed") == [{"event": "ActionRevealed", "slot": 6,
                                             "action": s3.action_row[5]}]
    # slot 2 starts only after slot 6 is known: the next five actions are always known
    started = of(events, "ActionStarted")
    assert started and started[0]["slot"] == 2


def test_R_ACTCARD_2_during_execution_the_next_five_actions_are_known():
    states, _ = played()
    for s in states:
        if s.stage == "exec" and s.round is not None and s.round.slot < 10:
            slot = s.round.slot
            known = [a for a in s.action_row[slot:slot + 5] if a is not None]
            waiting_for_next = pending(s).kind == "chance" and pending(s).purpose == "action"
            assert len(known) >= min(5, 10 - slot) - (1 if waiting_for_next else 0), (
                slot, s.action_row)


def test_R_EXEC_2_cards_are_turned_one_at_a_time_in_turn_order():
    s = at_plan()
    place(s, "Settsu", 0, 2)
    plans = {0: full_plan(s, 0, 0, tax="Settsu"), 1: full_plan(s, 1, 0)}
    _, events = begin_exec(s, plans, order=[1, 0, 2, 3], actions=["tax"] + [
        a for a in ACTIONS if a != "tax"])
    turned = [(e["seat"], e["action"], e["province"]) for e in of(events, "CardTurned")]
    assert turned[:4] == [(1, "tax", plans[1].action_map()["tax"]), (0, "tax", "Settsu"),
                          (2, "tax", None), (3, "tax", None)]
    names = [e["event"] for e in events]
    # seat 0's card is turned only after seat 1 carried out its tax
    assert names.index("ActionDone") < [i for i, e in enumerate(events)
                                        if e["event"] == "CardTurned" and e["seat"] == 0][0]


def test_R_PLAN_5_view_never_holds_another_seats_unturned_card():
    """For every state of several seeded games, every seat and a spectator."""
    for config, label in ((GameConfig(4, "sun", "beginner"), "v1"),
                          (GameConfig(3, "moon", "draft"), "v2"),
                          (GameConfig(5, "sun", "draft"), "v3")):
        states, _ = played(config.players, config.side, config.setup, label=label)
        checked = 0
        for s in states:
            for seat in [None, *range(config.players)]:
                v = view(s, seat)
                for other, p in enumerate(v.players):
                    if p.plan is None:
                        continue
                    full = s.players[other].plan
                    for i, field in enumerate(PLAN_FIELDS):
                        if other == seat or full.turned[i]:
                            assert p.plan.card(i) == full.card(i)
                        else:
                            assert not p.plan.known[i] and p.plan.card(i) is None, (
                                f"seat {seat} sees {other}'s unturned {field}")
                            checked += 1
        assert checked > 100


def test_R_PLAN_5_a_view_is_a_copy_and_never_changes_the_game():
    s = at_plan()
    for seat in range(4):
        s, _ = apply(s, full_plan(s, seat, 1))
    before = state_hash(s)
    v = view(s, 0)
    assert v.players[1].plan.known == (False,) * len(PLAN_FIELDS)
    assert state_hash(s) == before


def _play(config: GameConfig, seed: int, committed: bool) -> tuple[str, int]:
    """A bot game; with `committed`, every plan goes in as a bare commitment whose fields
    are opened only when the rules ask for them, as on a network (R-PLAN-5)."""
    game = LocalGame(config, seed, {})
    held: dict[int, SubmitPlan] = {}
    opened = 0
    while not game.over:
        d = pending(game.state)
        if d.kind in ("chance", "tower"):
            cmd = game.automatic_command() if d.kind == "chance" else tower.settle(d)
            assert cmd is not None
            game.submit(cmd)
            continue
        seat = d.seats[0]
        if d.kind == "open":
            full = held[seat]
            card = full.bid if d.purpose == "bid" else full.action_map()[d.purpose]
            game.submit(OpenField(seat, d.purpose, card))
            opened += 1
            continue
        if d.kind == "special":   # the heuristic looks at its own plan: keep both games alike
            game.submit(PickSpecial(seat, d.detail["positions"][0]))
            continue
        command = bots.choose(game.state, seat, "heuristic", bytes([seed % 256, seat]) * 16)
        if committed and isinstance(command, SubmitPlan):
            held[seat] = command
            command = CommitPlan(seat)
        game.submit(command)
    return state_hash(game.state), opened


def test_R_PLAN_5_committed_plans_opened_field_by_field_play_the_same_game():
    for config, seed in ((GameConfig(4, "sun", "beginner"), 3), (GameConfig(3, "moon", "draft"), 4)):
        whole, _ = _play(config, seed, committed=False)
        by_field, opened = _play(config, seed, committed=True)
        assert by_field == whole
        assert opened == 6 * config.players * len(PLAN_FIELDS)


def _seat0_committed():
    """Seat 0 locked a bare commitment; the others whole plans; the event is drawn."""
    s = at_plan()
    s, _ = apply(s, CommitPlan(0))
    for seat in (1, 2, 3):
        s, _ = apply(s, full_plan(s, seat))
    s, _ = apply(s, chance("ev"))
    assert (pending(s).kind, pending(s).seats, pending(s).purpose) == ("open", (0,), "bid")
    return s


def test_R_EXEC_2_an_opened_card_must_agree_with_the_hand_at_lock_time():
    s = _seat0_committed()
    expect_illegal(s, OpenField(0, "bid", s.cards_of(1)[0]), "R-PLAN-1")   # not in the hand
    poor = s.copy()
    poor.players[0].plan = replace(poor.players[0].plan, money=2)
    expect_illegal(poor, OpenField(0, "bid", 3), "R-PLAN-4")             # above the chests
    expect_illegal(s, OpenField(0, "tax", None), "R-EXEC-2")             # not this card now
    expect_illegal(s, OpenField(1, "bid", 0), "R-EXEC-2")                # not seat 1's turn
    s2, _ = apply(s, OpenField(0, "bid", 0))
    assert pending(s2).kind != "open" or pending(s2).seats != (0,)


def test_R_PLAN_5_new_game_has_no_plan_and_nothing_to_hide():
    s, _ = new_game(GameConfig())
    assert all(p.plan is None for p in view(s, None).players)


# ----------------------------------------------------------------------------- R-FORFEIT-1
def test_R_FORFEIT_1_a_card_nobody_can_open_counts_as_a_money_card():
    """Ruling (docs/sim-api.md): a bot that took a network seat over never held the
    human's plan; the card it cannot open counts as a money card (the bid: money 0)."""
    s = _seat0_committed()
    money = s.players[0].money
    s2, events = apply(s, ForfeitField(0, "bid"))
    assert of(events, "FieldForfeited") == [{"event": "FieldForfeited", "seat": 0,
                                             "field": "bid"}]
    bids = of(events, "BidsRevealed")[0]
    assert bids["bids"]["0"] == 0 and bids["paid"]["0"] == 0
    assert s2.players[0].money == money
    from sim.narrate import describe
    line = describe(of(events, "FieldForfeited")[0])
    assert "counts as a money card" in line and "R-" not in line


def test_R_FORFEIT_1_a_forfeited_action_field_does_nothing_when_turned():
    s = _seat0_committed()
    s, _ = apply(s, ForfeitField(0, "bid"))
    forfeited, turned, acted = [], [], []
    for n in range(600):
        d = pending(s)
        if d.kind in ("plan", "over"):
            break
        if d.kind == "open":
            assert d.seats == (0,)
            command = ForfeitField(0, d.purpose)
            forfeited.append(d.purpose)
        elif d.kind == "tower":
            command = tower.settle(d)
        elif d.kind == "chance":
            command = chance(f"f{n}")
        else:
            command = bots.choose(s, d.seats[0], "heuristic", bytes([n % 256]) * 32)
        s, events = apply(s, command)
        turned += [e for e in events if e["event"] == "CardTurned" and e["seat"] == 0]
        acted += [e for e in events if e["event"] == "ActionDone" and e.get("seat") == 0]
    assert sorted(forfeited) == sorted(ACTIONS)      # every action card, at its turn
    assert len(turned) == len(ACTIONS) and all(e["province"] is None for e in turned)
    assert acted == []                               # money cards: no action


def test_R_FORFEIT_1_only_the_card_being_turned_and_only_its_owner():
    s = _seat0_committed()
    expect_illegal(s, ForfeitField(0, "tax"), "R-EXEC-2")     # not the card turned now
    expect_illegal(s, ForfeitField(1, "bid"), "R-EXEC-2")     # not seat 1's card
    s_plan = at_plan()
    expect_illegal(s_plan, ForfeitField(0, "bid"), "R-PLAN-5")   # nothing is being turned


def test_R_FORFEIT_1_wire_form_is_checked():
    from sim.commands import MalformedCommand, from_wire, to_wire
    assert from_wire(to_wire(ForfeitField(2, "battle_a"))) == ForfeitField(2, "battle_a")
    import pytest
    with pytest.raises(MalformedCommand, match="field must be one of"):
        from_wire({"type": "ForfeitField", "seat": 2, "field": "everything"})
