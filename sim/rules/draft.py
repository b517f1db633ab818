"""The draft setup: R-SETUP-5.

Province cards are shuffled; two lie face up. In seat order each player takes a face-up
card or the deck's top card and places one of their army groups on it. A player facing
the same two face-up cards as at their previous pick may first put both under the deck.
The deck's order is never stored: each unseen card is drawn by chance when it is turned.

Tests: tests/sim/rules/test_setup.py.
"""

from __future__ import annotations


from sim.chance import ChanceStream
from sim.commands import DraftPlace, DraftTake
from sim.rules.flow import Events, Next, wait, wait_chance
from sim.rules.setup import claim
from sim.progress import evolve
from sim.state import DecisionKind, DraftProgress, State


def _progress(s: State) -> DraftProgress:
    """The draft under way (the draft's stage and commands run only during it)."""
    assert s.draft is not None
    return s.draft


def _deck_size(d: DraftProgress) -> int:
    return len(d.unknown) + len(d.bottom)


def stage_draft(s: State, events: Events) -> Next:
    d = _progress(s)
    if d.need == "up":
        if None in d.up and d.unknown:
            return wait_chance("draft")
        up, bottom = list(d.up), list(d.bottom)
        for i in range(2):  # only put-under cards or none left: no chance needed
            if up[i] is None and bottom:
                up[i] = bottom.pop(0)
        d = s.draft = evolve(d, up=(up[0], up[1]), bottom=tuple(bottom), need="take")
    n = len(s.players)
    seat = d.pick % n
    if d.need == "take":
        if all(not p.groups for p in s.players):
            s.draft = None
            events.append({"event": "DraftEnded"})
            return "fill"
        faced = d.faced[seat]
        can_refresh = (faced is not None and faced == d.up and None not in d.up
                       and _deck_size(d) >= 2)
        return wait(DecisionKind.DRAFT_TAKE, (seat,), up=list(d.up), deck=_deck_size(d),
                    can_refresh=can_refresh, groups=list(s.players[seat].groups))
    if d.need == "deck":
        return wait_chance("draft")
    return wait(DecisionKind.DRAFT_PLACE, (seat,), province=d.taken,
                groups=sorted(set(s.players[seat].groups), reverse=True))


def on_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    d = _progress(s)
    seat = d.pick % len(s.players)
    unknown = list(d.unknown)
    if d.need == "deck":
        taken = unknown.pop(stream.below(len(unknown)))
        s.draft = evolve(d, unknown=tuple(unknown), taken=taken, need="place")
        events.append({"event": "DraftCardTaken", "seat": seat, "province": taken,
                       "from": "deck"})
        return
    up, bottom = list(d.up), list(d.bottom)
    for i in range(2):
        if up[i] is None:
            if unknown:
                up[i] = unknown.pop(stream.below(len(unknown)))
            elif bottom:
                up[i] = bottom.pop(0)
    s.draft = evolve(d, unknown=tuple(unknown), bottom=tuple(bottom), up=(up[0], up[1]),
                      need="take")
    events.append({"event": "DraftCardsTurned", "up": up})


def _faced(d: DraftProgress, seat: int,
           value: tuple[str | None, ...] | None) -> tuple[tuple[str | None, ...] | None, ...]:
    return d.faced[:seat] + (value,) + d.faced[seat + 1:]


def on_take(s: State, cmd: DraftTake, events: Events) -> None:
    d = _progress(s)
    seat = cmd.seat
    if cmd.choice == "refresh":
        turned = tuple(c for c in d.up if c is not None)    # both: a refresh needs two
        s.draft = evolve(d, bottom=d.bottom + turned, up=(None, None),
                          faced=_faced(d, seat, None), need="up")
        events.append({"event": "DraftCardsRefreshed", "seat": seat})
        return
    d = evolve(d, faced=_faced(d, seat, d.up))
    if cmd.choice in ("up0", "up1"):
        i = int(cmd.choice[-1])
        up = list(d.up)
        taken, up[i] = up[i], None
        assert taken is not None             # the card is there (legal.check)
        s.draft = evolve(d, taken=taken, up=(up[0], up[1]), need="place")
        events.append({"event": "DraftCardTaken", "seat": seat, "province": taken,
                       "from": "face_up"})
        return
    if d.unknown:
        s.draft = evolve(d, need="deck")
        return
    s.draft = evolve(d, taken=d.bottom[0], bottom=d.bottom[1:], need="place")
    events.append({"event": "DraftCardTaken", "seat": seat, "province": d.bottom[0],
                   "from": "deck"})


def on_place(s: State, cmd: DraftPlace, events: Events) -> None:
    d = _progress(s)
    assert d.taken is not None               # a place decision follows a card taken
    player = s.players[cmd.seat]
    groups = list(player.groups)
    groups.remove(cmd.armies)
    player.groups = tuple(groups)
    claim(s, cmd.seat, d.taken, cmd.armies, events)
    s.draft = evolve(d, taken=None, pick=d.pick + 1, need="up")
