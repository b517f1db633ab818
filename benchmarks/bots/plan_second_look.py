"""A second look for plan decisions, judged against an oracle (issue 40, "while there").
Prints figures, asserts nothing.

The draft search's second look (`search.draft_second_look`: more futures when the paired
test is near its line) lowered its regret; does the same help the hard bot's plans? For
seeded plan decisions (draft games among `normal` bots, 4 a game) an oracle plays every
plan candidate in `--oracle` futures to the end of the year (the plans' horizon); `hard`
(`search.HARD` as it is) and `second` (the same, then `--more` further futures shared by
the finalists when the winner's test against the normal plan is undecided) decide each
state three times with their own seeds. Regret as in `draft_regret.py` (the oracle's best
mean minus its mean of the choice, 12 units = 1 point), the paired difference with a 95%
bootstrap interval over the states, and CPU a decision.

Usage: .venv/bin/python benchmarks/bots/plan_second_look.py [--games 11,...,16] [--oracle 100] [--more 160]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.bots.draft_regret import interval  # noqa: E402  (the same bootstrap)
from sim.bots import candidates, search  # noqa: E402
from sim.chance import ChanceStream  # noqa: E402
from sim.commands import Command  # noqa: E402
from sim.state import State  # noqa: E402
from sim.view import view  # noqa: E402
from tests.sim.bots.bot_states import decision_states  # noqa: E402

EXTRA_WORLDS = 10_000    # the second look's futures: numbers no first look reaches
ORACLE_WORLDS = 50_000   # the oracle's


def choose_plan(seen: State, seat: int, seed: bytes, more: int) -> tuple[list[Command], int]:
    """`search.ranked` for a plan, with an optional second look; (candidates, the pick)."""
    st = search.HARD
    rng = ChanceStream(hashlib.sha256(b"hard/" + seed).digest())
    cands = candidates.plan_candidates(seen, seat, rng, st)
    per_world: list[list[int]] = [[] for _ in cands]
    totals = search.score(seen, seat, cands, seed, per_world, st)
    order = sorted(range(len(cands)), key=lambda i: (-totals[i], i))
    finalists = [i for i in range(len(cands)) if len(per_world[i]) == len(per_world[0])]
    if (more and order[0] != 0 and order[0] in finalists
            and search.undecided(per_world[order[0]], per_world[0], st.prefer_t2)):
        extra = more // len(finalists)
        search._play(seen, seat, cands, finalists, range(EXTRA_WORLDS, EXTRA_WORLDS + extra),
                     seed, totals, per_world, st)
        order = sorted(finalists, key=lambda i: (-totals[i], i)) + \
            [i for i in order if i not in finalists]
    if order[0] != 0 and not search.clearly_better(per_world[order[0]], per_world[0],
                                                   st.prefer_t2):
        return cands, 0
    return cands, order[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="11,12,13,14,15,16")
    ap.add_argument("--oracle", type=int, default=100)
    ap.add_argument("--more", type=int, default=160)
    args = ap.parse_args()
    states: list[tuple[State, int]] = []
    for game in (int(g) for g in args.games.split(",")):
        states += decision_states(game, ("plan",), 4, "draft")
    regret: dict[str, list[float]] = {"rule": [], "hard": [], "second": []}
    cpu: dict[str, list[float]] = {"hard": [], "second": []}
    for k, (state, seat) in enumerate(states):
        seen = view(state, seat)
        cands, _ = choose_plan(seen, seat, b"probe", 0)
        per_world: list[list[int]] = [[] for _ in cands]
        totals = [0] * len(cands)
        search._play(seen, seat, cands, range(len(cands)),
                     range(ORACLE_WORLDS, ORACLE_WORLDS + args.oracle), b"oracle/%d" % k,
                     totals, per_world, search.HARD)
        means = [t / args.oracle for t in totals]
        best = max(means)
        regret["rule"].append(best - means[0])
        for name, more in (("hard", 0), ("second", args.more)):
            mine = []
            for r in range(3):
                c0 = time.process_time()
                _, pick = choose_plan(seen, seat, b"s/%d/%d" % (k, r), more)
                cpu[name].append(time.process_time() - c0)
                mine.append(best - means[pick])
            regret[name].append(statistics.fmean(mine))
        print(f"plan {k} (season {state.season}, {len(cands)} candidates): regret rule "
              f"{regret['rule'][-1]:.1f}, hard {regret['hard'][-1]:.1f}, "
              f"second {regret['second'][-1]:.1f}", flush=True)
    rng = random.Random(40)
    print(f"\n{len(states)} plan decisions, oracle {args.oracle} year-long futures a candidate")
    for name, values in regret.items():
        extra = (f", CPU a decision mean {statistics.fmean(cpu[name]):.2f} s" if name in cpu
                 else "")
        print(f"  {name:6s} regret {statistics.fmean(values):5.1f} units{extra}")
    diffs = [a - b for a, b in zip(regret["second"], regret["hard"])]
    lo, hi = interval(diffs, rng)
    print(f"  second minus hard, paired: {statistics.fmean(diffs):+.1f} units "
          f"(95% CI {lo:+.1f} to {hi:+.1f}; below 0: the second look helps)")


if __name__ == "__main__":
    main()
