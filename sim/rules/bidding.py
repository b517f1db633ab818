"""The round's event and the turn order: R-EVENT-2, R-BID-1...3.

After every plan is locked the round's event is drawn from the year's face-up events;
then the bids are turned together and paid, ranked (ties broken by chance, as by shuffled
daimyo cards), and in ranking order each player takes a special card, whose position is
their place in this round's turn order.
"""

from __future__ import annotations

from dataclasses import replace

from sim.cards import cards
from sim.chance import ChanceStream
from sim.commands import PickSpecial
from sim.legal import free_positions
from sim.rules.flow import Events, Next, wait, wait_chance
from sim.state import BID, State


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
    unopened = [seat for seat, p in enumerate(s.players) if not p.plan.known[BID]]
    if unopened:
        return wait("open", unopened, "bid", field="bid")
    groups: dict[int, list[int]] = {}
    for seat, p in enumerate(s.players):
        p.plan = p.plan.turned_up(BID)
        if isinstance(p.plan.bid, int):
            p.money -= p.plan.bid
            p.bid_paid = p.plan.bid
        groups.setdefault(bid_rank(p.plan.bid), []).append(seat)
    events.append({"event": "BidsRevealed",
                   "bids": {str(i): _bid_word(p.plan.bid) for i, p in enumerate(s.players)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)}})
    ranked = tuple(tuple(groups[r]) for r in sorted(groups, reverse=True))
    s.ranking = [seat for group in ranked for seat in group]
    s.round = replace(s.round, rank_groups=ranked, pick=0)
    return "ties"


def stage_ties(s: State, events: Events) -> Next:
    if any(len(g) > 1 for g in s.round.rank_groups):
        return wait_chance("ties", groups=[list(g) for g in s.round.rank_groups])
    return "special"


def on_ties_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-BID-2: equal bids are ordered by shuffled daimyo cards."""
    s.ranking = [seat for g in s.round.rank_groups for seat in stream.shuffle(list(g))]
    s.round = replace(s.round, rank_groups=tuple((seat,) for seat in s.ranking))
    events.append({"event": "TiesBroken", "ranking": list(s.ranking)})


def stage_special(s: State, events: Events) -> Next:
    """R-BID-3: in ranking order each takes a special card; its position is their turn."""
    while s.round.pick < len(s.ranking):
        seat = s.ranking[s.round.pick]
        free = free_positions(s)
        if len(free) > 1:
            return wait("special", (seat,), positions=free,
                        cards={str(pos): s.specials_row[pos - 1] for pos in free})
        take_special(s, seat, free[0])
    s.turn_order = sorted(range(len(s.players)), key=lambda i: s.players[i].position)
    events.append({"event": "TurnOrderSet", "order": list(s.turn_order),
                   "specials": {str(i): p.special for i, p in enumerate(s.players)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)},
                   "pick_order": list(s.round.pick_order)})
    s.round = replace(s.round, slot=0, turn=0, step="start")
    return "exec"


def take_special(s: State, seat: int, position: int) -> None:
    p = s.players[seat]
    p.position, p.special = position, s.specials_row[position - 1]
    s.round = replace(s.round, pick=s.round.pick + 1, pick_order=s.round.pick_order + (seat,))


def on_pick(s: State, cmd: PickSpecial, events: Events) -> None:
    take_special(s, cmd.seat, cmd.position)
