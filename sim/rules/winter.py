"""Winter: R-WINTER-1 (rice loss), R-WINTER-2 (shortage), R-WINTER-3 (revolts), then
scoring (`scoring`).

Players are handled in autumn turn order. A player short of rice has provinces drawn at
random from their cards (chance: the player to the left draws unseen); the player orders
them; each revolts through the tower with the revolt table's extra peasants.

Tests: tests/sim/rules/test_winter.py.
"""

from __future__ import annotations


from sim.board import board
from sim.cards import cards
from sim.chance import ChanceStream
from sim.commands import OrderRevolts
from sim.rules import battle
from sim.rules.flow import Events, Next, current_winter, snapshot, wait, wait_chance
from sim.progress import evolve
from sim.state import DecisionKind, State, WinterProgress


def stage_winter(s: State, events: Events) -> Next:
    if s.winter is None:
        leftover = s.year_events[0]
        loss = cards().events[leftover].rice_loss   # R-EVENT-2: only its rice loss applies
        events.append({"event": "WinterStarted", "year": s.year, "rice_loss": loss,
                       "event_card": leftover})
        snapshot(s, events)
        for p in s.players:                          # R-WINTER-1
            p.rice = max(0, p.rice - loss)
        s.winter = WinterProgress()
    while s.winter.idx < len(s.turn_order):
        w = s.winter
        seat = s.turn_order[w.idx]
        if battle.settled(s):
            battle.resolve(s, events)
            s.winter = evolve(w, revolts=w.revolts[1:])
            continue
        if s.battle is not None:
            return battle.drop_decision(s)
        if not w.drawn:
            owned = len(s.cards_of(seat))
            shortage = owned - s.players[seat].rice   # R-WINTER-2
            revolts, extra = board().revolts_for(shortage)
            revolts = min(revolts, owned)
            if revolts == 0:
                s.winter = evolve(w, idx=w.idx + 1)
                continue
            s.winter = evolve(w, shortage=shortage, count=revolts, extra=extra)
            return wait_chance("revolts", seat=seat, count=revolts)
        if w.revolts:
            if not w.ordered:
                return wait(DecisionKind.REVOLT_ORDER, (seat,), provinces=list(w.revolts))
            battle.begin_revolt(s, w.revolts[0], w.extra, then="")
            return battle.drop_decision(s)
        s.winter = evolve(w, idx=w.idx + 1, drawn=False, ordered=False)
    return "scoring"


def on_revolts_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-WINTER-3: revolting provinces drawn unseen from the player's cards."""
    w = current_winter(s)
    seat = s.turn_order[w.idx]
    owned = s.cards_of(seat)
    drawn = stream.sample(owned, w.count)
    s.winter = evolve(w, revolts=tuple(drawn), drawn=True, ordered=len(drawn) < 2)
    events.append({"event": "Shortage", "seat": seat, "rice": s.players[seat].rice,
                   "provinces": len(owned), "shortage": w.shortage, "revolts": w.count,
                   "extra_peasants": w.extra, "drawn": list(drawn)})


def on_order(s: State, cmd: OrderRevolts, events: Events) -> None:
    s.winter = evolve(current_winter(s), revolts=tuple(cmd.provinces), ordered=True)
    events.append({"event": "RevoltsOrdered", "seat": cmd.seat, "order": list(cmd.provinces)})
