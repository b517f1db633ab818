"""The `hard` bot: flat Monte Carlo over candidate choices in sampled futures.

Why this shape: Shogun hides the other plans, the face-down action cards, the event and
the tower's whims, so a search must guess them. For each decision (a plan, a turn-order
pick, a move or battle) the bot makes sensible candidates, then imagines futures
("determinizations"): the other players' hidden cards filled with what the `normal` bot
would have planned, chance drawn from its own stream, the tower from the statistical
model (`tower_model.py`). Every candidate is played into the same futures (common random
numbers: differences come from the choice, not the luck) up to the end of the round —
through winter and its scoring when the round is autumn — by `normal` bots, and scored by
`evaluate`. The budget (`BUDGET` rollouts) goes half to every candidate and half to the
best `FINALISTS` (successive halving). The best total wins, but the `normal` bot's own
choice (candidate 0) is kept unless the winner beats it by more than the noise
(`clearly_better`); ties go to the earlier candidate.

Determinism (issue 15, item 3): the result depends only on the view, the seed and the
fixed budget (`BUDGET`, `MIN_WORLDS`, `FINALISTS`, `PREFER_T2`, the candidate counts): no
clock, no threads, no libm. Scores are integers; the rollout bots use + - * on floats,
which IEEE 754 rounds exactly alike on every machine, so every peer computes the same
decision.

Tests: tests/sim/bots/test_search.py, tests/sim/bots/test_determinism.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace

from sim.bots import heuristic, normal
from sim.bots.tower_model import settle as model_settle
from sim.chance import ChanceStream
from sim.commands import ACTIONS, Chance, ChooseMove, Command, PickSpecial, SubmitPlan
from sim.fast import advance_in_place
from sim.legal import plan_problems
from sim.rules.scoring import majorities
from sim.state import BID, DecisionKind, Plan, State

BUDGET = 192           # rollouts per decision: the fixed work budget
MIN_WORLDS = 8         # sampled futures per candidate and stage at least
FINALISTS = 4          # candidates that go on to the second stage
PREFER_T2 = 2          # another candidate replaces the default only if t^2 > this (0: off)
MONEY_WEIGHT = 4       # evaluation units (1 point = 12) per chest left for later rounds
ARMY_WEIGHT = 3        # ... per army
PLAN_CANDIDATES = 12
MOVE_CANDIDATES = 6
ROLLOUT_STEPS = 2_000  # a round never needs this many commands; a guard against loops


def choose(seen: State, seat: int, seed: bytes) -> Command:
    """The hard bot's answer from a view (`sim.bots.choose` made it)."""
    return ranked(seen, seat, seed)[0][0]


def ranked(seen: State, seat: int, seed: bytes) -> list[tuple[Command, int]]:
    """The candidates with their total scores, best first (ties: the earlier candidate).
    A decision the bot does not search has one candidate scored 0."""
    from sim.bots import decide
    rng = ChanceStream(hashlib.sha256(b"hard/" + seed).digest())
    kind = seen.decision.kind
    if kind == DecisionKind.PLAN:
        candidates = plan_candidates(seen, seat, rng)
    elif kind == DecisionKind.SPECIAL:
        positions: list[int] = seen.decision.detail["positions"]
        first = heuristic.special(seen, seat, positions)
        candidates = [PickSpecial(seat, p) for p in sorted(positions, key=lambda p: p != first)]
    elif kind == DecisionKind.MOVE:
        candidates = move_candidates(seen, seat, rng)
    else:
        return [(decide(seen, seat, "normal", rng), 0)]
    if len(candidates) == 1:
        return [(candidates[0], 0)]
    per_world: list[list[int]] = [[] for _ in candidates]
    totals = score(seen, seat, candidates, seed, per_world)
    order = sorted(range(len(candidates)), key=lambda i: (-totals[i], i))
    if order[0] != 0 and not clearly_better(per_world[order[0]], per_world[0]):
        order.remove(0)
        order.insert(0, 0)
    return [(candidates[i], totals[i]) for i in order]


def worlds(candidates: int) -> int:
    """Futures for every candidate in the first stage: half the budget shared among them
    (the whole budget when there is no second stage)."""
    share = BUDGET if candidates <= FINALISTS else BUDGET // 2
    return max(MIN_WORLDS, share // candidates)


def clearly_better(mine: list[int], default: list[int]) -> bool:
    """Does a candidate beat the default (the normal bot's choice) by more than the noise?
    A paired test over the futures both played: the mean difference's t statistic squared
    above `PREFER_T2` (integers only). Why: with a few dozen futures the best of many
    candidates is often best by luck, and the default is a sound choice to fall back on."""
    if PREFER_T2 <= 0:
        return True
    diffs = [a - b for a, b in zip(mine, default)]
    n = len(diffs)
    total = sum(diffs)
    if n < 2 or total <= 0:
        return False
    spread = n * sum(d * d for d in diffs) - total * total   # n^2 * variance
    return total * total * (n - 1) > PREFER_T2 * spread


def score(seen: State, seat: int, candidates: list[Command], seed: bytes,
          per_world: list[list[int]] | None = None) -> list[int]:
    """Each candidate's summed evaluation over the same sampled futures, in two stages
    (successive halving): every candidate plays `worlds()` futures, then the best
    `FINALISTS` play the rest of the budget in further futures. A finalist's total covers
    all its futures; a candidate left out keeps its first-stage total, shifted below every
    finalist's so that the order of the totals is the order of the choice."""
    n = len(candidates)
    totals = [0] * n
    first = worlds(n)
    _play(seen, seat, candidates, range(n), range(first), seed, totals, per_world)
    if n <= FINALISTS:
        return totals
    order = sorted(range(n), key=lambda i: (-totals[i], i))
    finalists = sorted(order[:FINALISTS])
    more = max(MIN_WORLDS, (BUDGET - first * n) // FINALISTS)
    _play(seen, seat, candidates, finalists, range(first, first + more), seed, totals,
          per_world)
    floor = min(totals[i] for i in finalists)
    for i in order[FINALISTS:]:   # below every finalist, first-stage order kept
        totals[i] = floor - 1 - (totals[order[FINALISTS]] - totals[i])
    return totals


def rollouts(candidates: int) -> int:
    """How many rollouts a decision with this many candidates plays (the budget used)."""
    first = worlds(candidates)
    if candidates <= FINALISTS:
        return first * candidates
    return first * candidates + FINALISTS * max(MIN_WORLDS, (BUDGET - first * candidates)
                                                // FINALISTS)


def _play(seen: State, seat: int, candidates: list[Command], which: Iterable[int],
          world_numbers: Iterable[int], seed: bytes, totals: list[int],
          per_world: list[list[int]] | None) -> None:
    """Add the evaluation of the candidates `which` in the futures `world_numbers`."""
    for world in world_numbers:
        world_seed = hashlib.sha256(b"world/%d/" % world + seed).digest()
        world_rng = ChanceStream(world_seed)
        base = determinize(seen, seat, world_rng)
        planned = pending_plans(base, seat, world_rng)
        for i in which:
            value = rollout(base, seat, candidates[i], world_seed, planned)
            totals[i] += value
            if per_world is not None:
                per_world[i].append(value)


# ----------------------------------------------------------------------------- candidates

def plan_candidates(seen: State, seat: int, rng: ChanceStream) -> list[Command]:
    """The normal plan first; then its next-best neighbours (each of its chosen
    (action, province) pairs ruled out in turn, so the greedy picks the runner-up there);
    other bids; the normal plan with a habit switched off (no winter reserve, no majority
    count); the heuristic's plan."""
    out: list[Command] = []

    def add(cmd: SubmitPlan) -> None:
        if len(out) < PLAN_CANDIDATES and cmd not in out and not plan_problems(seen, cmd):
            out.append(cmd)

    base = normal.plan(seen, seat, rng, off=frozenset())
    add(base)
    money = seen.players[seat].money
    for bid in (1, 2):
        if bid != base.bid and bid <= money:
            add(replace(base, bid=bid) if not isinstance(base.bid, str)
                else _with_money_bid(base, bid))
    add(normal.plan(seen, seat, rng, off=frozenset({"rice"})))
    chosen = [(a, c) for a, c in zip(ACTIONS, base.actions) if c is not None]
    for pair in chosen[:PLAN_CANDIDATES]:
        add(normal.plan(seen, seat, rng, off=frozenset(), forbid=frozenset({pair})))
    add(normal.plan(seen, seat, rng, off=frozenset({"majority"})))
    add(heuristic.plan(seen, seat, rng))
    return out


def _with_money_bid(plan: SubmitPlan, bid: int) -> SubmitPlan:
    """A province-card bid swapped for money: the card goes on a free action field."""
    actions = list(plan.actions)
    card = plan.bid
    assert isinstance(card, str)             # the caller swaps province-card bids only
    if None in actions:
        actions[actions.index(None)] = card
    return SubmitPlan(plan.seat, tuple(actions), bid)


def move_candidates(seen: State, seat: int, rng: ChanceStream) -> list[Command]:
    d = seen.decision.detail
    first = heuristic.move(seen, seat, rng)
    out: list[Command] = [first]
    options: list[Command] = []
    if d["optional"]:
        options.append(ChooseMove(seat, None, 0))
    for target in sorted(d["targets"], key=lambda t: (seen.provinces[t].armies, t)):
        most = d["targets"][target]
        for count in sorted({most, (most + 1) // 2}, reverse=True):
            options.append(ChooseMove(seat, target, count))
    for cmd in options:
        if cmd not in out and len(out) < MOVE_CANDIDATES:
            out.append(cmd)
    return out


# ----------------------------------------------------------------------------- futures

def determinize(seen: State, seat: int, rng: ChanceStream) -> State:
    """The view with every hidden planned card filled by a guess (the normal bot's plan
    for that seat, where consistent with what is known)."""
    s = seen.copy()
    for other, player in enumerate(s.players):
        plan = player.plan
        if other == seat or plan is None or all(plan.known):
            continue
        guess = normal.plan(s, other, rng)
        used = {c for i, c in enumerate(plan.actions) if plan.known[i] and c is not None}
        if plan.known[BID] and isinstance(plan.bid, str):
            used.add(plan.bid)
        hand = set(plan.hand)
        actions = list(plan.actions)
        for i, known in enumerate(plan.known[:BID]):
            if known:
                continue
            card = guess.actions[i]
            if card is not None and card in hand and card not in used:
                actions[i] = card
                used.add(card)
            else:
                actions[i] = None
        bid = plan.bid
        if not plan.known[BID]:
            bid = guess.bid
            if isinstance(bid, str) and (bid not in hand or bid in used):
                bid = 0
            if isinstance(bid, int) and bid > plan.money:
                bid = 0
        player.plan = Plan(tuple(actions), bid, (True,) * len(plan.known), plan.turned,
                           plan.hand, plan.money)
    return s


def pending_plans(base: State, seat: int, rng: ChanceStream) -> dict[int, Command]:
    """The plans of the seats still planning, guessed once per world (the same for every
    candidate: a plan cannot depend on another's secret plan)."""
    d = base.decision
    if d.kind != DecisionKind.PLAN:
        return {}
    return {o: normal.plan(base, o, rng) for o in d.seats if o != seat}


def rollout(base: State, seat: int, first: Command, world_seed: bytes,
            planned: dict[int, Command] | None = None) -> int:
    """Play `first` then normal bots to the end of the round; the evaluation for `seat`."""
    from sim.bots import decide
    rng = ChanceStream(hashlib.sha256(b"rollout/" + world_seed).digest())
    planned = dict(planned or {})
    s = base.copy()
    advance_in_place(s, first)
    round_no = (base.year, base.season)
    draws = 0
    # the kinds read once: under Python 3.11 an enum member is slow to read, and this loop
    # runs at every step of every rollout
    over, plan, chance, tower, unknown = (DecisionKind.OVER, DecisionKind.PLAN,
                                          DecisionKind.CHANCE, DecisionKind.TOWER,
                                          DecisionKind.OPEN)
    for _ in range(ROLLOUT_STEPS):
        d = s.decision
        kind = d.kind
        if kind == over or (s.year, s.season) != round_no and kind in (plan, chance) \
                and s.round is None and s.winter is None:
            break
        if kind == chance:
            draws += 1
            cmd: Command = Chance(hashlib.sha256(b"%d/" % draws + world_seed).digest())
        elif kind == tower:
            cmd = model_settle(d, rng)
        elif kind == unknown:
            break   # a field nobody knows (cannot happen after determinize)
        elif kind == plan and d.seats[0] in planned:
            cmd = planned.pop(d.seats[0])
        else:
            cmd = decide(s, d.seats[0], "normal", rng)
        advance_in_place(s, cmd)
    return evaluate(s, seat)


def evaluate(s: State, seat: int) -> int:
    """My projected points minus the best rival's, in integer units (1 point = 12).

    Projected: the score so far plus what a winter scoring would add now (provinces,
    buildings, majorities), a third of a point a chest and a quarter an army (rounds
    are left to play with them), less for a rice shortage
    that winter would punish. A finished game: the winner takes a large bonus.
    """
    if s.decision.kind == DecisionKind.OVER:
        bonus = 100_000 if seat in s.winners else 0
        scores = [12 * p.score + p.money for p in s.players]
        return bonus + scores[seat] - max(v for i, v in enumerate(scores) if i != seat)
    majority, _ = majorities(s)
    loss = normal.winter_loss(s) if s.year_events else 0
    owned = [0] * len(s.players)
    armies = [0] * len(s.players)
    buildings = [0] * len(s.players)
    for p in s.provinces.values():
        if p.owner is not None:
            owned[p.owner] += 1
            armies[p.owner] += p.armies
            buildings[p.owner] += len(p.buildings)
    # a rollout that did not reach the end stops where rounds are left to play: chests and
    # armies are what they are played with (a chest buys a theatre, a point each winter;
    # 2 chests buy 3 armies). Too low a weight made spending them look free.
    money_weight, army_weight = MONEY_WEIGHT, ARMY_WEIGHT
    values = []
    for i, player in enumerate(s.players):
        value = (12 * (player.score + owned[i] + buildings[i] + majority[i])
                 + army_weight * armies[i] + money_weight * player.money)
        short = owned[i] + loss - player.rice
        if short > 0 and s.season < 3:
            value -= 6 * short
        values.append(value)
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


__all__ = ["BUDGET", "FINALISTS", "choose", "clearly_better", "determinize", "evaluate",
           "ranked", "rollout", "rollouts", "score", "worlds"]
