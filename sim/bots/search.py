"""The `hard` bot: flat Monte Carlo over candidate choices in sampled futures.

Why this shape: Shogun hides the other plans, the face-down action cards, the event and
the tower's whims, so a search must guess them. For each decision (a plan, a turn-order
pick, a move or battle, and since issue 40 a draft take or army-group place:
`candidates.py`, `draft_search.py`) the bot makes sensible candidates, then imagines futures
("determinizations"): the other players' hidden cards filled with what the `normal` bot
would have planned, chance drawn from its own stream, the tower from the statistical
model (`tower_model.py`). Every candidate is played into the same futures (common random
numbers: differences come from the choice, not the luck) by `normal` bots to the horizon
— the end of the year, through winter's rice and scoring (the game's end in year 2), for
`HARD` (a draft decision's to the draft's end, judged by `draft_value`: `horizon_for`);
the end of the round for the frozen `hard_2025` — and scored by `evaluate`. The budget
(rollouts, `budget_for`) goes half to every candidate and half to the best `finalists`
(successive halving). The best total wins, but the `normal` bot's own choice
(candidate 0) is kept unless the winner beats it by more than the noise
(`clearly_better`); ties go to the earlier candidate. Plan candidates whose battle card
could force a hopeless attack are left out (`battle_risk`).

Determinism (issue 15, item 3; issue 29, item 6): the result depends only on the view,
the seed and the `Settings` (a fixed work budget, never the clock): no threads, no libm.
Scores are integers; the rollout bots use + - * / on floats, which IEEE 754 rounds
exactly alike on every machine, so every peer computes the same decision.

Tests: tests/sim/bots/test_search.py, tests/sim/bots/test_determinism.py,
tests/sim/bots/test_hard_2025.py, tests/sim/bots/test_draft_search.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from sim.bots import draft_search, draft_value, heuristic, normal
from sim.bots.candidates import move_candidates, plan_candidates
from sim.bots.levels import decide
from sim.bots.tower_model import settle as model_settle
from sim.chance import ChanceStream
from sim.commands import Chance, Command, PickSpecial
from sim.fast import advance_in_place
from sim.rules.scoring import majorities
from sim.state import BID, DecisionKind, Plan, State

ROLLOUT_STEPS = 8_000  # a year never needs this many commands; a guard against loops
MONEY_WEIGHT = 4       # evaluation units (1 point = 12) per chest left for later rounds
ARMY_WEIGHT = 3        # ... per army
DRAFT_BUDGET = 400     # futures (to the draft's end, `draft_value`) for a draft decision of `HARD`
DRAFT_MORE = 400       # ... and for its second look when the first leaves it undecided


class PlanChooser(Protocol):
    """A last say over a plan decision's finalists after the flat search (`ranked`): the
    index of the finalist to play. `finalists[0]` is the normal plan; `played` holds each
    finalist's values in the futures the search played. The product bot has none; regret
    matching (`sim.bots.plan_equilibrium.RegretMatching`) is one, measured and not
    adopted (docs/bots.md), kept out of the product's path behind this."""

    def __call__(self, finalists: list[Command], seen: State, seat: int, seed: bytes,
                 st: Settings, played: list[list[int]]) -> int: ...


@dataclass(frozen=True)
class Settings:
    """What decides a hard bot's search; every peer must use the same (it decides moves).

    `budget`: rollouts per decision with the round horizon; with the year horizon, per
    round still to play in the year (winter counts as one), so a spring plan plays a
    quarter of it (see `budget_for`). `prefer_t2`: another candidate replaces the
    default only if the paired t^2 is above it (0: off). `bids`: the money bids tried
    besides the default plan's. `rollout_bot`: who plays the futures (and the guesses of
    the others' plans). `normal_off`: the normal habits its own candidates leave out.
    `safe`: drop candidates with a battle card that could force a hopeless attack.
    `draft_budget`: rollouts (to `draft_horizon`) for a draft decision (issue 40); 0
    plays the fixed draft rule unsearched, as every hard bot before issue 40 did.
    `draft_horizon`: how far a draft decision's futures play ("draft": the draft's end,
    judged by `draft_value`; "round": spring's end; "year": year 1's end).
    `draft_more`: a draft decision's further rollouts when the first look is undecided.
    `plan_chooser`: a last say over a plan decision's finalists (`PlanChooser`; none in
    `HARD`: regret matching, `plan_equilibrium.RegretMatching`, was tried for issue 40 and
    not adopted, docs/bots.md). `plan_budget`: the
    budget of plan decisions alone (0: `budget`; the control for that trial's extra CPU)."""
    budget: int
    min_worlds: int
    finalists: int
    prefer_t2: int
    plan_candidates: int
    move_candidates: int
    horizon: str                   # "round" or "year"
    bids: tuple[int, ...]
    rollout_bot: str
    normal_off: frozenset[str]
    safe: bool
    draft_budget: int = 0          # rollouts for a draft take or place; 0: the fixed rule
    draft_horizon: str = "year"    # how far a draft decision's futures are played
    draft_more: int = 0            # rollouts of a draft decision's second look (0: none)
    plan_chooser: PlanChooser | None = None   # a last say over the plan finalists (None: none)
    plan_budget: int = 0           # `budget` for plan decisions only (0: `budget`)


HARD = Settings(budget=320, min_worlds=6, finalists=4, prefer_t2=1, plan_candidates=14,
                move_candidates=6, horizon="year", bids=(0, 1, 2, 3), rollout_bot="normal",
                normal_off=frozenset(), safe=True, draft_budget=DRAFT_BUDGET,
                draft_horizon="draft", draft_more=DRAFT_MORE)


def choose(seen: State, seat: int, seed: bytes, settings: Settings | None = None) -> Command:
    """The hard bot's answer from a view (`sim.bots.choose` made it)."""
    return ranked(seen, seat, seed, settings)[0][0]


def ranked(seen: State, seat: int, seed: bytes,
           settings: Settings | None = None) -> list[tuple[Command, int]]:
    """The candidates with their total scores, best first (ties: the earlier candidate).
    A decision the bot does not search has one candidate scored 0."""
    st = settings or HARD
    rng = ChanceStream(hashlib.sha256(b"hard/" + seed).digest())
    kind = seen.decision.kind
    if kind == DecisionKind.PLAN:
        candidates = plan_candidates(seen, seat, rng, st)
    elif kind == DecisionKind.SPECIAL:
        positions: list[int] = seen.decision.detail["positions"]
        first = heuristic.special(seen, seat, positions)
        candidates = [PickSpecial(seat, p) for p in sorted(positions, key=lambda p: p != first)]
    elif kind == DecisionKind.MOVE:
        candidates = move_candidates(seen, seat, rng, st)
    elif kind in draft_search.DRAFT_KINDS and st.draft_budget > 0:
        candidates = draft_search.candidates(seen, seat, rng)
    else:
        return [(decide(seen, seat, st.rollout_bot, rng), 0)]
    if len(candidates) == 1:
        return [(candidates[0], 0)]
    per_world: list[list[int]] = [[] for _ in candidates]
    totals = score(seen, seat, candidates, seed, per_world, st)
    if kind in draft_search.DRAFT_KINDS:
        draft_second_look(seen, seat, candidates, seed, totals, per_world, st)
    order = sorted(range(len(candidates)), key=lambda i: (-totals[i], i))
    if kind == DecisionKind.PLAN and st.plan_chooser is not None:
        most = max(len(w) for w in per_world)
        finalists = ([0] + [i for i in order if i and len(per_world[i]) == most])[:st.finalists]
        pick = st.plan_chooser([candidates[i] for i in finalists], seen, seat, seed, st,
                               [per_world[i] for i in finalists])
        order.remove(finalists[pick])
        order.insert(0, finalists[pick])
    elif order[0] != 0 and not clearly_better(per_world[order[0]], per_world[0], st.prefer_t2):
        order.remove(0)
        order.insert(0, 0)
    return [(candidates[i], totals[i]) for i in order]


def draft_second_look(seen: State, seat: int, candidates: list[Command], seed: bytes,
                      totals: list[int], per_world: list[list[int]], st: Settings) -> None:
    """Play `st.draft_more` further futures, shared by every candidate, when the first
    look leaves the draft decision undecided (`undecided`); add them to the totals.
    Why: a draft rollout is noisy (the paired difference of two candidates over one future
    has a spread of about 14 points, issue 40), so a fixed share of futures either wastes
    them on clear choices or decides close ones by luck. The extra futures go where the
    test is near its line; a decision costs the first look's budget most of the time."""
    n = len(candidates)
    played = len(per_world[0])
    if st.draft_more <= 0 or n < 2 or n > st.finalists or any(len(w) != played for w in per_world):
        return
    challenger = min(range(1, n), key=lambda i: (-totals[i], i))
    if not undecided(per_world[challenger], per_world[0], st.prefer_t2):
        return
    more = max(st.min_worlds, st.draft_more // n)
    _play(seen, seat, candidates, range(n), range(played, played + more), seed, totals,
          per_world, st)


def undecided(mine: list[int], default: list[int], prefer_t2: int) -> bool:
    """Is the paired test of `clearly_better` near its line: the candidate ahead of the
    default, its t^2 above a fifth of `prefer_t2` and below three times it?"""
    n, total, spread = _paired(mine, default)
    if n < 2 or total <= 0 or prefer_t2 <= 0:
        return False
    strength = total * total * (n - 1)   # t^2 = strength / spread
    return 5 * strength > prefer_t2 * spread and strength < 3 * prefer_t2 * spread


def budget_for(seen: State, st: Settings) -> int:
    """Rollouts for this decision: `st.draft_budget` for a draft take or place; else
    `st.budget`, or with the year horizon that budget per
    round left in the year, winter counting as one (a spring rollout plays three rounds
    and a winter, an autumn one a round and a winter: the work per decision stays level)."""
    if seen.decision.kind in draft_search.DRAFT_KINDS:
        return st.draft_budget
    budget = st.plan_budget if seen.decision.kind == DecisionKind.PLAN and st.plan_budget \
        else st.budget
    if st.horizon == "round":
        return budget
    left = max(1, 4 - seen.season)
    return budget // left


def worlds(candidates: int, budget: int, st: Settings) -> int:
    """Futures for every candidate in the first stage: half the budget shared among them
    (the whole budget when there is no second stage)."""
    share = budget if candidates <= st.finalists else budget // 2
    return max(st.min_worlds, share // candidates)


def clearly_better(mine: list[int], default: list[int], prefer_t2: int) -> bool:
    """Does a candidate beat the default (the normal bot's choice) by more than the noise?
    A paired test over the futures both played: the mean difference's t statistic squared
    above `prefer_t2` (integers only). Why: with a few dozen futures the best of many
    candidates is often best by luck, and the default is a sound choice to fall back on.
    Issue 29 measured t^2 > 2 as too shy: the old hard kept the default too often."""
    if prefer_t2 <= 0:
        return True
    n, total, spread = _paired(mine, default)
    if n < 2 or total <= 0:
        return False
    return total * total * (n - 1) > prefer_t2 * spread


def _paired(mine: list[int], default: list[int]) -> tuple[int, int, int]:
    """(futures, summed difference, n^2 * variance of the difference) over the futures both
    played: the paired t^2 is total^2 * (n - 1) / spread, compared in integers."""
    diffs = [a - b for a, b in zip(mine, default)]
    n = len(diffs)
    total = sum(diffs)
    return n, total, n * sum(d * d for d in diffs) - total * total


def score(seen: State, seat: int, candidates: list[Command], seed: bytes,
          per_world: list[list[int]] | None = None, settings: Settings | None = None) -> list[int]:
    """Each candidate's summed evaluation over the same sampled futures, in two stages
    (successive halving): every candidate plays `worlds()` futures, then the best
    `finalists` play the rest of the budget in further futures. A finalist's total covers
    all its futures; a candidate left out keeps its first-stage total, shifted below every
    finalist's so that the order of the totals is the order of the choice."""
    st = settings or HARD
    budget = budget_for(seen, st)
    n = len(candidates)
    totals = [0] * n
    first = worlds(n, budget, st)
    _play(seen, seat, candidates, range(n), range(first), seed, totals, per_world, st)
    if n <= st.finalists:
        return totals
    order = sorted(range(n), key=lambda i: (-totals[i], i))
    finalists = sorted(order[:st.finalists])
    more = max(st.min_worlds, (budget - first * n) // st.finalists)
    _play(seen, seat, candidates, finalists, range(first, first + more), seed, totals,
          per_world, st)
    floor = min(totals[i] for i in finalists)
    for i in order[st.finalists:]:   # below every finalist, first-stage order kept
        totals[i] = floor - 1 - (totals[order[st.finalists]] - totals[i])
    return totals


def rollouts(candidates: int, budget: int, st: Settings) -> int:
    """How many rollouts a decision with this many candidates plays (the budget used)."""
    first = worlds(candidates, budget, st)
    if candidates <= st.finalists:
        return first * candidates
    return first * candidates + st.finalists * max(st.min_worlds, (budget - first * candidates)
                                                   // st.finalists)


def _play(seen: State, seat: int, candidates: list[Command], which: Iterable[int],
          world_numbers: Iterable[int], seed: bytes, totals: list[int],
          per_world: list[list[int]] | None, st: Settings) -> None:
    """Add the evaluation of the candidates `which` in the futures `world_numbers`."""
    for world in world_numbers:
        world_seed = hashlib.sha256(b"world/%d/" % world + seed).digest()
        world_rng = ChanceStream(world_seed)
        base = determinize(seen, seat, world_rng, st.normal_off)
        planned = pending_plans(base, seat, world_rng, st.normal_off)
        for i in which:
            value = rollout(base, seat, candidates[i], world_seed, planned, st)
            totals[i] += value
            if per_world is not None:
                per_world[i].append(value)


# ----------------------------------------------------------------------------- futures

def determinize(seen: State, seat: int, rng: ChanceStream,
                off: frozenset[str] | None = None) -> State:
    """The view with every hidden planned card filled by a guess (the normal bot's plan
    for that seat, where consistent with what is known)."""
    s = seen.copy()
    if s.draft is not None:   # the deck's unseen cards in a sampled order (issue 40)
        s.draft = draft_search.deal_deck(s.draft, rng)
    for other, player in enumerate(s.players):
        plan = player.plan
        if other == seat or plan is None or all(plan.known):
            continue
        guess = normal.plan(s, other, rng, off=off)
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


def pending_plans(base: State, seat: int, rng: ChanceStream,
                  off: frozenset[str] | None = None) -> dict[int, Command]:
    """The plans of the seats still planning, guessed once per world (the same for every
    candidate: a plan cannot depend on another's secret plan)."""
    d = base.decision
    if d.kind != DecisionKind.PLAN:
        return {}
    return {o: normal.plan(base, o, rng, off=off) for o in d.seats if o != seat}


def rollout(base: State, seat: int, first: Command, world_seed: bytes,
            planned: dict[int, Command] | None = None, settings: Settings | None = None,
            judged: int | None = None) -> int:
    """Play `first` then the rollout bots to the horizon (the round's end, or the year's:
    through winter, the game's end in year 2); the evaluation for `seat` (for `judged`
    when given: `plan_equilibrium` weighs a rival's candidates)."""
    st = settings or HARD
    bot = st.rollout_bot
    rng = ChanceStream(hashlib.sha256(b"rollout/" + world_seed).digest())
    planned = dict(planned or {})
    s = base.copy()
    advance_in_place(s, first)
    round_no = (base.year, base.season)
    year = base.year
    draws = 0
    # the kinds read once: under Python 3.11 an enum member is slow to read, and this loop
    # runs at every step of every rollout
    over, plan, chance, tower, unknown = (DecisionKind.OVER, DecisionKind.PLAN,
                                          DecisionKind.CHANCE, DecisionKind.TOWER,
                                          DecisionKind.OPEN)
    horizon = horizon_for(base, st)
    by_draft, by_year = horizon == "draft", horizon == "year"
    for _ in range(ROLLOUT_STEPS):
        if by_draft and s.draft is None:
            return draft_value.evaluate(s, seat if judged is None else judged)
        d = s.decision
        kind = d.kind
        if kind == over:
            break
        if kind in (plan, chance) and s.round is None and s.winter is None and (
                s.year != year if by_year else (s.year, s.season) != round_no):
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
            cmd = decide(s, d.seats[0], bot, rng)
        advance_in_place(s, cmd)
    return evaluate(s, seat if judged is None else judged,
                    shortage=s.year == year or not by_year)


def horizon_for(base: State, st: Settings) -> str:
    """How far a rollout from `base` plays: a draft decision's futures to
    `st.draft_horizon`, every other decision's to `st.horizon`. Why `HARD`'s draft futures
    stop at the draft's end: after it, the futures are normal bots' play against rivals
    who are hard bots, and their luck drowns a draft choice's worth; before it, every
    rival drafts by the fixed rule, so the rest of the draft is foreseen but for the
    deck. Judged by `draft_value`, that draft search won 44% of its first 70 games
    against three `hard_2026` where futures to spring's end or year 1's end won 28-29%
    (issue 40, BENCHMARKS.md)."""
    return st.draft_horizon if base.decision.kind in draft_search.DRAFT_KINDS else st.horizon


def evaluate(s: State, seat: int, shortage: bool = True) -> int:
    """My projected points minus the best rival's, in integer units (1 point = 12).

    Projected: the score so far plus what a winter scoring would add now (provinces,
    buildings, majorities), a third of a point a chest and a quarter an army (rounds
    are left to play with them), less for a rice shortage
    that winter would punish (not when the rollout ended past the year's winter:
    `shortage` False; rice is reset then). A finished game: the winner takes a large bonus.
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
        if short > 0 and s.season < 3 and shortage:
            value -= 6 * short
        values.append(value)
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


__all__ = ["HARD", "Settings", "budget_for", "choose", "clearly_better", "determinize",
           "draft_second_look", "evaluate", "horizon_for", "ranked", "rollout", "rollouts",
           "score", "undecided", "worlds"]
