"""How much a draft search loses against an oracle of many futures (issue 40). Prints
figures, asserts nothing.

Why this and not only games: a draft choice's worth drowns in a game's luck (hundreds of
games to see a few points of win share), but it can be measured directly. For seeded draft
decisions (takes and places of draft games among `normal` bots) the oracle plays every
candidate in `--oracle` futures to the end of year 1, the horizon the issue names, and
takes each candidate's mean as its worth. Each searcher then decides the same states with
its own seeds (futures the oracle did not see); its regret on a decision is the oracle's
best mean minus the oracle's mean of its choice, in evaluation units (12 = 1 point of
"my score minus the best rival's" at the end of year 1). Printed: each searcher's mean
regret with a 95% bootstrap interval over the states, how often it leaves the rule, and
its CPU per decision, and the paired difference of each newer searcher's regret from
`year48`'s (the change's worth). The oracle's own noise (about 12 units on a difference with 200
futures) puts a floor under every regret; compare searchers with each other.

Searchers: `rule` (the fixed draft rule, `hard_2026`), `year48` (the first draft search:
48 futures to the end of year 1), `spring144` (144 futures to the end of spring, no second
look), `second_look` (the same and 216 more when undecided: the second search) and
`judged400` (400 futures to the draft's end judged by `draft_value`, 400 more when
undecided). The oracle's yardstick is normal bots' play to the end of year 1: a searcher
that judges by another yardstick (`judged400`) is measured against one it does not aim at.

Usage: .venv/bin/python benchmarks/bots/draft_regret.py [--games 11,12,...,20]
       [--per-game 8] [--oracle 200] [--repeats 3] [--cache oracle.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.bots import draft_search, search  # noqa: E402
from sim.chance import ChanceStream  # noqa: E402
from sim.commands import Command  # noqa: E402
from sim.state import State  # noqa: E402
from sim.view import view  # noqa: E402
from tests.sim.bots.bot_states import draft_states  # noqa: E402

ORACLE = replace(search.HARD, draft_horizon="year", draft_more=0)
SEARCHERS = {
    "year48": replace(search.HARD, draft_budget=48, draft_horizon="year", draft_more=0),
    "spring144": replace(search.HARD, draft_budget=144, draft_horizon="round", draft_more=0),
    "second_look": replace(search.HARD, draft_budget=144, draft_horizon="round", draft_more=216),
    "judged400": replace(search.HARD, draft_budget=400, draft_horizon="draft", draft_more=400),
}


def states(games: list[int], per_game: int) -> list[tuple[int, int, State, int]]:
    """(game, index, state, seat): `per_game` draft decisions spread over each draft,
    takes and places alike (odd games start at a place)."""
    out = []
    for game in games:
        found = draft_states(game, 64)
        step = max(1, len(found) // per_game)
        for idx in range(game % 2, len(found), step):
            out.append((game, idx, *found[idx]))
    return out


def oracle_means(game: int, idx: int, seen: State, seat: int, cands: list[Command],
                 worlds: int, cache: dict[tuple[int, int], list[float]]) -> list[float]:
    if (game, idx) not in cache:
        per_world: list[list[int]] = [[] for _ in cands]
        totals = [0] * len(cands)
        search._play(seen, seat, cands, range(len(cands)), range(worlds),
                     b"oracle/%d/%d" % (game, idx), totals, per_world, ORACLE)
        cache[(game, idx)] = [t / worlds for t in totals]
    return cache[(game, idx)]


def interval(values: list[float], rng: random.Random) -> tuple[float, float]:
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(2000))
    return means[50], means[1949]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="11,12,13,14,15,16,17,18,19,20")
    ap.add_argument("--per-game", type=int, default=8)
    ap.add_argument("--oracle", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cache", default=None, help="JSON lines of oracle means (read, appended)")
    args = ap.parse_args()
    cache: dict[tuple[int, int], list[float]] = {}
    if args.cache and Path(args.cache).exists():
        for line in Path(args.cache).read_text().splitlines():
            rec = json.loads(line)
            if rec["oracle"] == args.oracle:
                cache[(rec["game"], rec["idx"])] = rec["means"]
    regrets: dict[str, list[float]] = {name: [] for name in ["rule", *SEARCHERS]}
    left: dict[str, int] = dict.fromkeys(regrets, 0)
    cpu: dict[str, list[float]] = {name: [] for name in SEARCHERS}
    decided = 0
    for game, idx, state, seat in states([int(g) for g in args.games.split(",")], args.per_game):
        seen = view(state, seat)
        cands = draft_search.candidates(seen, seat, ChanceStream(b"\0" * 32))
        if len(cands) < 2:
            continue
        known = (game, idx) in cache
        means = oracle_means(game, idx, seen, seat, cands, args.oracle, cache)
        if args.cache and not known:
            with open(args.cache, "a") as f:
                f.write(json.dumps({"game": game, "idx": idx, "oracle": args.oracle,
                                    "means": means}) + "\n")
        best = max(means)
        regrets["rule"].append(best - means[0])
        for name, settings in SEARCHERS.items():
            mine = []
            for r in range(args.repeats):
                c0 = time.process_time()
                choice = search.choose(seen, seat, b"bench/%d/%d/%d" % (game, idx, r), settings)
                cpu[name].append(time.process_time() - c0)
                pick = cands.index(choice)
                mine.append(best - means[pick])
                left[name] += pick != 0
            regrets[name].append(statistics.fmean(mine))   # one value a state: the interval
            # is over states, the repeats only smooth the searcher's own luck
        decided += 1
        print(f"game {game} decision {idx} ({state.decision.kind}): oracle means "
              f"{[round(m, 1) for m in means]}", flush=True)
    rng = random.Random(40)
    print(f"\n{decided} draft decisions, oracle {args.oracle} futures to the end of year 1 "
          f"each; {args.repeats} searches a searcher a decision")
    for name, values in regrets.items():
        lo, hi = interval(values, rng)
        runs = len(values) * (1 if name == "rule" else args.repeats)
        line = (f"  {name:9s} regret {statistics.fmean(values):5.1f} units "
                f"(95% CI {lo:.1f}-{hi:.1f}), leaves the rule in {left[name] / runs:.0%}")
        if name in cpu:
            line += (f", CPU a decision median {statistics.median(cpu[name]):.2f} s, "
                     f"max {max(cpu[name]):.2f} s")
        print(line)
    base = regrets["year48"]
    for name in (n for n in SEARCHERS if n != "year48"):
        diffs = [a - b for a, b in zip(regrets[name], base)]
        lo, hi = interval(diffs, rng)
        print(f"  {name} minus year48, paired over the states: {statistics.fmean(diffs):+.1f} "
              f"units (95% CI {lo:+.1f} to {hi:+.1f}; below 0: less regret)")


if __name__ == "__main__":
    main()
