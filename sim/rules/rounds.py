"""Years and rounds: R-ROUND-1...3, R-SETUP-7 (the year's events), R-ACTCARD-1/2 (the
action row laid out), R-SPECIAL-1 (the special-card row).

A year is three action rounds and a winter. A round lays out its action row — slots 1-5
face up, slots 6-10 drawn by chance only when they are turned (`actions`) — and its
special cards, then the players plan.

Tests: tests/sim/rules/test_plan.py.
"""

from __future__ import annotations

from sim.chance import ChanceStream
from sim.commands import ACTIONS
from sim.rules.flow import Events, Next, snapshot, wait_chance
from sim.state import SEASONS, SPECIALS, RoundProgress, State


def stage_year(s: State, events: Events) -> Next:
    if not s.year_events:
        return wait_chance("events")
    return "round"


def on_events_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-SETUP-7 / R-ROUND-4: four event cards face up for the year."""
    drawn = stream.sample(s.event_deck, 4)
    s.event_deck = sorted(e for e in s.event_deck if e not in drawn)
    s.year_events = drawn
    events.append({"event": "YearStarted", "year": s.year, "events": list(drawn)})


def stage_round(s: State, events: Events) -> Next:
    if s.round is None:
        return wait_chance("round")
    return "plan"


def on_round_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-ACTCARD-2 (slots 1-5 face up; 6-10 drawn when turned) and R-SPECIAL-1."""
    order = stream.shuffle(list(ACTIONS))
    s.action_row = order[:5] + [None] * 5
    s.hidden_actions = sorted(order[5:], key=ACTIONS.index)
    s.specials_row = stream.shuffle(list(SPECIALS))
    for p in s.players:
        p.plan, p.special, p.position, p.bid_paid = None, None, None, 0
    s.round = RoundProgress()
    events.append({"event": "RoundStarted", "year": s.year, "season": SEASONS[s.season],
                   "specials": list(s.specials_row), "actions": s.action_row[:5]})
    snapshot(s, events)


def stage_round_end(s: State, events: Events) -> Next:
    """R-ROUND-3: cards back to hand, specials back, the round's event leaves the game."""
    if s.current_event is not None:          # drawn before the bids (R-EVENT-2)
        s.year_events.remove(s.current_event)
    events.append({"event": "RoundEnded", "year": s.year, "season": SEASONS[s.season]})
    s.current_event = None
    for p in s.players:
        p.plan, p.special, p.bid_paid = None, None, 0
    s.action_row, s.hidden_actions, s.specials_row = [None] * 10, [], []
    s.round = None
    s.season += 1
    return "winter" if s.season == 3 else "round"
