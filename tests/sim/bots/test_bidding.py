"""Bids that mean something (issue 29): a bid buys a place in the pick order of the
special cards (R-BID-2, R-BID-3) and is paid whatever it buys (R-BID-1), so the normal bot
pays only when the cards it may win are worth more than the chests, and a round where
every player pays the same bid — all pay, chance sets the whole order (R-BID-2's ties) —
no longer comes from its habits."""

from __future__ import annotations

import pytest

from sim.bots import bidding, normal
from sim.chance import ChanceStream
from sim.game import GameConfig
from sim.local import LocalGame
from sim.view import view
from tests.sim.bots.bot_states import decision_states


def test_value_after_random_removals():
    """The expected best card left after k rivals picked at random."""
    values = [3.0, 2.0, 1.0, 0.0, 0.0]
    assert bidding.value_after(values, 0) == 3.0
    assert bidding.value_after(values, 1) == pytest.approx(3.0 * 4 / 5 + 2.0 * 1 / 5)
    assert bidding.value_after(values, 5) == 0.0


def test_ahead_odds_follow_the_ranking():
    """R-BID-2: a higher bid ranks above; rivals with no chests cannot outbid a card."""
    state, seat = decision_states(3, ("plan",), 1, "draft")[0]
    s = state.copy()
    low = bidding.ahead_odds(s, seat, 2)
    high = bidding.ahead_odds(s, seat, 5)
    assert sum(low) == pytest.approx(1.0) and sum(high) == pytest.approx(1.0)
    assert high[0] > low[0]
    for other, player in enumerate(s.players):
        if other != seat:
            player.money = 0
    poor = bidding.ahead_odds(s, seat, 3)     # a bid of 1 beats every card and 0
    assert poor[0] == pytest.approx(1.0)


def test_the_bot_pays_only_for_what_the_cards_are_worth(monkeypatch):
    """R-BID-1: a paid bid is gone; it must buy more than it costs."""
    state, seat = decision_states(3, ("plan",), 1, "draft")[0]
    seen = view(state, seat)
    monkeypatch.setattr(bidding, "card_worth", lambda *a: dict.fromkeys(seen.specials_row, 0.0))
    assert bidding.best_bid(seen, seat, {}, 6, True, False) == bidding.CARD
    assert bidding.best_bid(seen, seat, {}, 6, False, False) == 0
    worth = dict.fromkeys(seen.specials_row, 0.0)
    worth["attack"] = 6.0
    monkeypatch.setattr(bidding, "card_worth", lambda *a: worth)
    assert bidding.best_bid(seen, seat, {}, 6, True, False) in (1, 2, 3)
    assert bidding.best_bid(seen, seat, {}, 0, True, False) == bidding.CARD   # nothing to pay


def test_no_round_where_every_normal_bot_pays_the_same_bid():
    """R-BID-1, R-BID-2 over the first-round plans of seeded games (states from the frozen
    heuristic bots): the normal bot before issue 29 had all four seats pay the same bid
    in some of these rounds; the weighed bids never do."""
    rounds = same_old = same_new = 0
    for seed in range(6):
        game = LocalGame(GameConfig(4, "sun", "draft"), 4000 + seed,
                         dict.fromkeys(range(4), "heuristic"))
        while not game.over:
            d = game.state.decision
            if d.kind == "plan" and len(d.seats) == 4:
                rounds += 1
                for off in (normal.NEW_HABITS, frozenset()):
                    bids = [normal.plan(view(game.state, s), s, ChanceStream(b"b" * 32),
                                        off=off).bid for s in range(4)]
                    same = all(isinstance(b, int) and b > 0 for b in bids) and len(set(bids)) == 1
                    if off:
                        same_old += same
                    else:
                        same_new += same
            game.step()
    assert rounds >= 30
    assert same_old >= 2
    assert same_new == 0
