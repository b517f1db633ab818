"""Regret matching over the plan finalists: the hard bot's plans as a game, not a reply
(issue 40, "while there"; measured and not adopted: a `search.PlanChooser` a benchmark
may hand the search, `RegretMatching`, never in `HARD`'s path; this module imports the
search, never the other way).

Why try it: the flat search answers the other seats' plans as the `normal` bot would make
them, while its rivals are often hard bots that bid and plan otherwise. Planning is a
simultaneous secret choice, so the Diplomacy search recipe (Gray et al. 2020, "Human-level
performance in no-press Diplomacy via equilibrium search") applies: give every seat still
planning a few candidates, let each adapt to the others by regret matching over sampled
futures, and play the best of one's own candidates against the others' average mix.

Here: the bot's candidates are the flat search's finalists with the normal plan first; a
rival's are its normal plan and two other bids (`candidates.plan_candidates` from the
rival's seat in the sampled world: the k-th candidate is the same idea in every world).
Each iteration samples a future (the hidden cards, as `search.determinize` fills them),
draws every seat's candidate from its current mix, and plays each seat's candidates
against the others' draws (`search.rollout` to the year's end, judged for that seat). The
regrets are RM+ (negative regrets cut to 0), the average mix is weighted by the
iteration's number (later iterations count more). The result is the own candidate with
the largest average share; the normal plan is kept unless that one is clearly better over
the iterations' paired values (`search.clearly_better`).

The cost: (own finalists + 3 per rival) rollouts an iteration. Measured in
`BENCHMARKS.md` ("Plans, while there").

Tests: tests/sim/bots/test_plan_equilibrium.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from sim.bots import search
from sim.bots.candidates import plan_candidates
from sim.bots.search import Settings
from sim.chance import ChanceStream
from sim.commands import Command
from sim.state import State

RIVAL_CANDIDATES = 3   # a rival's normal plan and two other bids


def mix(regrets: list[float]) -> list[float]:
    """The current mix of RM+: shares in proportion to the positive regrets, or even
    shares while no candidate has any."""
    positive = [max(0.0, r) for r in regrets]
    total = sum(positive)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [p / total for p in positive]


def draw(shares: list[float], rng: ChanceStream) -> int:
    """A candidate drawn by its share (integers, so that every peer draws alike)."""
    weights = [round(s * 1_000_000) for s in shares]
    pick = rng.below(max(1, sum(weights)))
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    return len(shares) - 1


def update(regrets: list[float], values: list[int], shares: list[float]) -> None:
    """RM+: each candidate's regret grows by its value less the mix's value, then is cut
    at 0 (candidates that fell behind can come back quickly)."""
    expected = sum(s * v for s, v in zip(shares, values))
    for i, v in enumerate(values):
        regrets[i] = max(0.0, regrets[i] + v - expected)


def choose(seen: State, seat: int, candidates: list[Command], seed: bytes, st: Settings,
           iterations: int, played: list[list[int]] | None = None) -> tuple[int, list[float]]:
    """The index of the candidate to play, and the own average mix (for tests and
    figures). `candidates[0]` is the normal plan. `played`: the candidates' values in the
    flat search's shared futures, which the test against the normal plan counts too."""
    planning = [o for o in seen.decision.seats if o != seat]
    rival_st = replace(st, plan_candidates=RIVAL_CANDIDATES, safe=False)
    regrets: dict[int, list[float]] = {seat: [0.0] * len(candidates)}
    for o in planning:
        regrets[o] = [0.0] * RIVAL_CANDIDATES
    average = [0.0] * len(candidates)
    shared = min(len(v) for v in played) if played else 0   # the futures all of them played
    own_values = [list(v[:shared]) for v in played] if played else [[] for _ in candidates]
    for it in range(iterations):
        world_seed = hashlib.sha256(b"equilibrium/%d/" % it + seed).digest()
        rng = ChanceStream(world_seed)
        base = search.determinize(seen, seat, rng, st.normal_off)
        options = {o: plan_candidates(base, o, rng, rival_st) for o in planning}
        shares = {o: mix(r) for o, r in regrets.items()}
        drawn = {o: min(draw(shares[o], rng), len(options[o]) - 1) for o in planning}
        mine = draw(shares[seat], rng)
        planned = {o: options[o][drawn[o]] for o in planning}
        values = [search.rollout(base, seat, c, world_seed, planned, st) for c in candidates]
        for i, v in enumerate(values):
            own_values[i].append(v)
        rival_values: dict[int, list[int]] = {}
        for o in planning:
            row = []
            for k in range(RIVAL_CANDIDATES):
                plans = dict(planned)
                plans[o] = options[o][min(k, len(options[o]) - 1)]
                row.append(search.rollout(base, seat, candidates[mine], world_seed, plans, st,
                                          judged=o))
            rival_values[o] = row
        update(regrets[seat], values, shares[seat])
        for o in planning:
            update(regrets[o], rival_values[o], shares[o])
        for i, s in enumerate(shares[seat]):
            average[i] += (it + 1) * s
    total = sum(average) or 1.0
    average = [a / total for a in average]
    best = min(range(len(candidates)), key=lambda i: (-average[i], i))
    if best != 0 and not search.clearly_better(own_values[best], own_values[0], st.prefer_t2):
        best = 0
    return best, average


@dataclass(frozen=True)
class RegretMatching:
    """Regret matching as the hard bot's last say over its plan finalists (a
    `search.PlanChooser`): `replace(search.HARD, plan_chooser=RegretMatching(24))`, as
    benchmarks/bots/bot_strength.py's `--set plan_equilibrium=24` does."""
    iterations: int

    def __call__(self, finalists: list[Command], seen: State, seat: int, seed: bytes,
                 st: Settings, played: list[list[int]]) -> int:
        return choose(seen, seat, finalists, seed, st, self.iterations, played)[0]


__all__ = ["RegretMatching", "choose", "draw", "mix", "update"]
