"""The round's event and the turn order: R-EVENT-2, R-BID-1...3.

After every plan is locked the round's event is drawn from the year's face-up events;
then the bids are turned together and paid, ranked (ties broken by chance, as by shuffled
daimyo cards), and in ranking order each player takes a special card, whose position is
their place in this round's turn order.

Tests: tests/sim/rules/test_bid.py.
"""

from __future__ import annotations


from sim.cards import cards
from sim.chance import ChanceStream
from sim.commands import PickSpecial
from sim.legal import free_positions
from sim.rules.flow import Events, Next, current_round, locked_plan, wait, wait_chance
from sim.progress import evolve
from sim.state import BID, DecisionKind, PlayerState, State


def stage_event(s: State, events: Events) -> Next:
    if s.current_event is None:
        return wait_chance("event")
    return "bids"


def on_event_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    s.current_event = stream.choice(s.year_events)  # R-EVENT-2
    events.append({"event": "EventDrawn", "event_card": s.current_event,
                   "rice_loss": cards().events[s.current_event].rice_loss})


def bid_rank(bid: int | str | None) -> int:
    """R-BID-2: 4, 3, 2, 1, province card, 0, no card."""
    if bid is None:
        return 0
    if isinstance(bid, str):
        return 2
    return 1 if bid == 0 else 2 + bid


def _bid_word(bid: int | str | None) -> int | str | None:
    return "province" if isinstance(bid, str) else bid


def stage_bids(s: State, events: Events) -> Next:
    """R-BID-1: all bids are turned together (opened first where this state lacks them)."""
    seats = range(len(s.players))
    unopened = [seat for seat in seats if not locked_plan(s, seat).known[BID]]
    if unopened:
        return wait(DecisionKind.OPEN, unopened, "bid", field="bid")
    groups: dict[int, list[int]] = {}
    bids = []
    for seat, p in enumerate(s.players):
        p.plan = plan = locked_plan(s, seat).turned_up(BID)
        if isinstance(plan.bid, int):
            p.money -= plan.bid
            p.bid_paid = plan.bid
        groups.setdefault(bid_rank(plan.bid), []).append(seat)
        bids.append(plan.bid)
    events.append({"event": "BidsRevealed",
                   "bids": {str(i): _bid_word(bid) for i, bid in enumerate(bids)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)}})
    ranked = tuple(tuple(groups[r]) for r in sorted(groups, reverse=True))
    s.ranking = [seat for group in ranked for seat in group]
    s.round = evolve(current_round(s), rank_groups=ranked, pick=0)
    return "ties"


def stage_ties(s: State, events: Events) -> Next:
    groups = current_round(s).rank_groups
    if any(len(g) > 1 for g in groups):
        return wait_chance("ties", groups=[list(g) for g in groups])
    return "special"


def on_ties_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-BID-2: equal bids are ordered by shuffled daimyo cards."""
    r = current_round(s)
    s.ranking = [seat for g in r.rank_groups for seat in stream.shuffle(list(g))]
    s.round = evolve(r, rank_groups=tuple((seat,) for seat in s.ranking))
    events.append({"event": "TiesBroken", "ranking": list(s.ranking)})


def stage_special(s: State, events: Events) -> Next:
    """R-BID-3: in ranking order each takes a special card; its position is their turn."""
    while current_round(s).pick < len(s.ranking):
        seat = s.ranking[current_round(s).pick]
        free = free_positions(s)
        if len(free) > 1:
            return wait(DecisionKind.SPECIAL, (seat,), positions=free,
                        cards={str(pos): s.specials_row[pos - 1] for pos in free})
        take_special(s, seat, free[0])
    s.turn_order = sorted(range(len(s.players)), key=lambda i: _position(s.players[i]))
    events.append({"event": "TurnOrderSet", "order": list(s.turn_order),
                   "specials": {str(i): p.special for i, p in enumerate(s.players)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)},
                   "pick_order": list(current_round(s).pick_order)})
    s.round = evolve(current_round(s), slot=0, turn=0, step="start")
    return "exec"


def _position(p: PlayerState) -> int:
    assert p.position is not None          # every seat took a special (R-BID-3)
    return p.position


def take_special(s: State, seat: int, position: int) -> None:
    p = s.players[seat]
    p.position, p.special = position, s.specials_row[position - 1]
    r = current_round(s)
    s.round = evolve(r, pick=r.pick + 1, pick_order=r.pick_order + (seat,))


def on_pick(s: State, cmd: PickSpecial, events: Events) -> None:
    take_special(s, cmd.seat, cmd.position)
