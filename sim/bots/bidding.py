"""What a bid is worth this round: the special cards and turn-order places it may buy.

Why (issue 29): the old bid rule paid 1 chest whenever 4 were spare, whatever the round
offered, so in a third of the games every bot bid 1 in the first round — each paid a chest
and chance set the whole order. Here a bid is an investment: the bot values each special
card in the row for the plan it has made (`+1 chest` only if it collects tax, `+1
attack` per battle it plans, `+1 defence` by how exposed its borders are, ...), guesses
the rivals' bids from a fixed prior limited by their public chests, and takes the bid
with the best expected card value minus what it costs. A province card left over is a
free bid above 0 (R-BID-2).

The expectation: rivals ahead of the bot take cards it cannot predict, so after k of them
the bot gets the best of the cards they left, taken as k uniformly random removals.
Floats with + - * / only (IEEE 754 rounds them alike everywhere), fixed order.

Tests: tests/sim/bots/test_bidding.py.
"""

from __future__ import annotations

from functools import cache

from sim.bots.heuristic import enemy_threat
from sim.state import State

# a rival's bid, before its chests limit it: (rank, weight) with ranks as R-BID-2
# (money 0 -> 1, province card -> 2, money b -> 2 + b)
RIVAL_PRIOR = ((1, 10), (2, 55), (3, 25), (4, 7), (5, 3))
PLACE_WORTH = 0.05      # chests per turn-order place earlier
CARD = -1               # `best_bid`'s answer for "bid the spare province card"


def card_worth(state: State, seat: int, plan: dict[str, str], want_rice: bool,
               exposure: int | None = None) -> dict[str, float]:
    """Each special card's worth to the bot this round, in chests, for its plan.
    `exposure`: the worst (enemy threat - armies + 1) over its provinces, if known."""
    battles = sum(1 for a in ("battle_a", "battle_b") if a in plan)
    if exposure is None:
        exposure = 0
        for name in state.cards_of(seat):
            exposure = max(exposure,
                           enemy_threat(state, seat, name) - state.provinces[name].armies + 1)
    return {"chest": 1.0 if "tax" in plan else 0.0,
            "rice": (0.8 if want_rice else 0.25) if "rice" in plan else 0.0,
            "six_armies": 0.7 if "deploy5" in plan else 0.0,
            "attack": 0.9 * battles,
            "defence": min(1.2, 0.1 + 0.15 * max(0, exposure))}


@cache       # pure integers, asked again in every plan of every rollout (issue 40)
def _comb(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def value_after(values: list[float], ahead: int) -> float:
    """The expected best of `values` left after `ahead` uniformly random removals."""
    w = sorted(values, reverse=True)
    n = len(w)
    if ahead >= n:
        return 0.0
    total = 0.0
    for i in range(n):   # w[0..i-1] all removed, w[i] left
        total += w[i] * _comb(n - i - 1, ahead - i)
    return total / _comb(n, ahead)


def _rival_ranks(money: int, has_cards: bool) -> list[tuple[int, int]]:
    """The prior over a rival's bid rank, its mass on bids it cannot make moved down."""
    out: dict[int, int] = {}
    for rank, weight in RIVAL_PRIOR:
        if rank >= 3 and rank - 2 > money:
            rank = 2 if has_cards else 1
        if rank == 2 and not has_cards:
            rank = 1
        out[rank] = out.get(rank, 0) + weight
    return sorted(out.items())


def ahead_odds(state: State, seat: int, my_rank: int,
               priors: list[list[tuple[int, int]]] | None = None) -> list[float]:
    """P(k rivals pick before the bot), k = 0..rivals: ties go either way by chance.
    `priors`: the rivals' bid-rank priors (`rival_priors`), when already made."""
    dist = [1.0]
    for prior in rival_priors(state, seat) if priors is None else priors:
        weight = above = level = 0     # integer sums: exact in any order
        for rank, w in prior:
            weight += w
            if rank > my_rank:
                above += w
            elif rank == my_rank:
                level += w
        ahead = above + 0.5 * level
        q = ahead / weight
        nxt = [0.0] * (len(dist) + 1)
        for k, p in enumerate(dist):
            nxt[k] += p * (1.0 - q)
            nxt[k + 1] += p * q
        dist = nxt
    return dist


def rival_priors(state: State, seat: int) -> list[list[tuple[int, int]]]:
    owners = {p.owner for p in state.provinces.values()}
    return [_rival_ranks(player.money, other in owners)
            for other, player in enumerate(state.players) if other != seat]


def best_bid(state: State, seat: int, plan: dict[str, str], spare: int, has_card: bool,
             want_rice: bool, exposure: int | None = None) -> int:
    """The bid with the best expected card value less its cost: `CARD` (a spare province
    card), 0, or 1-3 chests of the `spare` ones."""
    worth = card_worth(state, seat, plan, want_rice, exposure)
    row = state.specials_row
    values = [worth.get(name, 0.0) + PLACE_WORTH * (len(row) - pos) for pos, name in enumerate(row)]
    priors = rival_priors(state, seat)
    after = [value_after(values, k) for k in range(len(priors) + 1)]
    options = [(2, CARD)] if has_card else [(1, 0)]
    options += [(2 + b, b) for b in range(1, min(3, spare) + 1)]
    best, best_gain = options[0][1], -1e9
    for rank, bid in options:
        odds = ahead_odds(state, seat, rank, priors)
        gain = sum(p * v for p, v in zip(odds, after)) - max(bid, 0)
        if gain > best_gain + 1e-9:
            best, best_gain = bid, gain
    return best


__all__ = ["CARD", "ahead_odds", "best_bid", "card_worth", "rival_priors", "value_after"]
