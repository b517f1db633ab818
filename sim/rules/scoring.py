"""Scoring and the end: R-WINTER-4 (points), R-WINTER-5, R-ROUND-4 (the second year),
R-END-1 (the winner).

Tests: tests/sim/rules/test_winter.py, tests/sim/rules/test_end.py.
"""

from __future__ import annotations

from sim.board import REGIONS, board
from sim.cards import cards
from sim.rules.flow import Events, Next, snapshot
from sim.state import State


def majorities(s: State) -> tuple[list[int], list[dict[str, dict[str, int]]]]:
    """R-WINTER-4: per region and building kind, the leader scores its value (tied
    leaders value - 1). Returns points per seat and, per seat, {region: {kind: points}}."""
    b = board()
    side = s.config.side
    points = [0] * len(s.players)
    detail: list[dict[str, dict[str, int]]] = [{} for _ in s.players]
    for region in REGIONS:
        names = [n for n in s.provinces if b.region_of(n, side) == region]
        for kind in cards().buildings:
            counts = [0] * len(s.players)
            for n in names:
                p = s.provinces[n]
                if p.owner is not None and kind.name in p.buildings:
                    counts[p.owner] += 1
            top = max(counts)
            if top == 0:
                continue
            leaders = [i for i, c in enumerate(counts) if c == top]
            value = kind.majority_points if len(leaders) == 1 else kind.majority_points - 1
            for i in leaders:
                points[i] += value
                detail[i].setdefault(region, {})[kind.name] = value
    return points, detail


def stage_scoring(s: State, events: Events) -> Next:
    majority, per_region = majorities(s)
    snapshot(s, events)
    for seat, p in enumerate(s.players):
        owned = s.cards_of(seat)
        buildings = sum(len(s.provinces[n].buildings) for n in owned)
        gained = len(owned) + buildings + majority[seat]
        p.score += gained
        events.append({"event": "Scored", "seat": seat, "provinces": len(owned),
                       "buildings": buildings, "majority_points": majority[seat],
                       "gained": gained, "score": p.score, "regions": per_region[seat]})
    s.winter = None
    if s.year == 1:                                  # R-ROUND-4
        for p in s.players:
            p.rice = 0
        for prov in s.provinces.values():
            prov.unrest = 0
        events.append({"event": "YearEnded", "year": 1})
        s.year, s.season = 2, 0
        s.year_events = []
        return "year"
    top = max(p.score for p in s.players)           # R-END-1
    best = [i for i, p in enumerate(s.players) if p.score == top]
    richest = max(s.players[i].money for i in best)
    s.winners = [i for i in best if s.players[i].money == richest]
    snapshot(s, events)
    events.append({"event": "GameEnded",
                   "scores": {str(i): p.score for i, p in enumerate(s.players)},
                   "money": {str(i): p.money for i, p in enumerate(s.players)},
                   "winners": list(s.winners)})
    return "over"
