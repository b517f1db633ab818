"""Seeded mid-game states for the bot tests: decisions of one seat while other seats hold
plans whose cards are not all turned (what the bots must not see)."""

from __future__ import annotations

from dataclasses import replace

from sim.game import GameConfig
from sim.local import LocalGame
from sim.state import BID, State


def hidden_from(state: State, seat: int) -> int:
    """How many of the other seats' planned cards this state holds unturned."""
    return sum(1 for o, p in enumerate(state.players) if o != seat and p.plan
               for i in range(len(p.plan.known)) if p.plan.known[i] and not p.plan.turned[i])


def decision_states(seed: int, kinds: tuple[str, ...], limit: int,
                    setup: str = "beginner") -> list[tuple[State, int]]:
    """Up to `limit` (state, seat) pairs where `seat` faces a decision of `kinds` while
    another seat's plan holds unturned cards. Plans come from `normal` bots."""
    game = LocalGame(GameConfig(4, "sun", setup), seed, dict.fromkeys(range(4), "normal"))
    found: list[tuple[State, int]] = []
    while not game.over and len(found) < limit:
        d = game.state.decision
        if d.kind in kinds:
            seat = d.seats[-1]
            if hidden_from(game.state, seat):
                found.append((game.state, seat))
        game.step()
    return found


def swap_unturned(state: State, seat: int) -> State:
    """The same state with every other seat's unturned cards changed: each plan's unturned
    action fields rotated, an unturned money bid changed."""
    s = state.copy()
    for other, player in enumerate(s.players):
        plan = player.plan
        if other == seat or plan is None:
            continue
        fields = [i for i in range(BID) if plan.known[i] and not plan.turned[i]]
        cards = [plan.actions[i] for i in fields]
        if len(set(cards)) > 1:
            rotated = cards[1:] + cards[:1]
            actions = list(plan.actions)
            for i, card in zip(fields, rotated):
                actions[i] = card
            plan = replace(plan, actions=tuple(actions))
        elif fields:   # one card (or all money): move it to a money field instead
            actions = list(plan.actions)
            actions[fields[0]] = None
            plan = replace(plan, actions=tuple(actions))
        if plan.known[BID] and not plan.turned[BID] and isinstance(plan.bid, int):
            plan = replace(plan, bid=0 if plan.bid else min(1, plan.money))
        player.plan = plan
    return s


def draft_states(seed: int, limit: int, kinds: tuple[str, ...] = ("draft_take", "draft_place"),
                 skip: int = 0) -> list[tuple[State, int]]:
    """Up to `limit` (state, seat) pairs of draft decisions (takes and places) of a draft
    game among `normal` bots, after the first `skip` of them."""
    game = LocalGame(GameConfig(4, "sun", "draft"), seed, dict.fromkeys(range(4), "normal"))
    found: list[tuple[State, int]] = []
    seen = 0
    while game.state.draft is not None and len(found) < limit:
        d = game.state.decision
        if d.kind in kinds:
            if seen >= skip:
                found.append((game.state, d.seats[0]))
            seen += 1
        game.step()
    return found


def heuristic_states(seed: int, kinds: tuple[str, ...], limit: int,
                     setup: str = "draft") -> list[tuple[State, int]]:
    """Up to `limit` (state, seat) pairs of decisions of `kinds` in a game of `heuristic`
    bots, the frozen level: a change to the normal bot does not move them (the frozen
    hard bots' digests are recorded on them)."""
    game = LocalGame(GameConfig(4, "sun", setup), seed, dict.fromkeys(range(4), "heuristic"))
    found: list[tuple[State, int]] = []
    while not game.over and len(found) < limit:
        d = game.state.decision
        if d.kind in kinds:
            found.append((game.state, d.seats[-1]))
        game.step()
    return found
