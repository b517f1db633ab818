"""Look-ahead engine figures for BENCHMARKS.md (issue 15). Prints, asserts nothing.

1. Commands per second re-applying whole games' command logs three ways: `sim.game.apply`
   (checked, copied, with events), `sim.fast.advance_apply` (copied, no check, no events)
   and `sim.fast.advance_in_place` (no copy: what a rollout uses).
2. Rollouts per second of the hard bot (a plan decision's rollouts to the year's end),
   CPU seconds per hard decision (median, p95, max per kind) on seeded states, and the
   CPU seconds of whole games with one hard bot (issue 29: median <= 0.5 s, max <= 2 s,
   a game <= 30 s).
3. Draft decisions (issue 40): CPU seconds of `search.ranked` with `HARD` on the draft
   takes and places of a seeded draft game, and the draft rollouts (to the end of year 1)
   per CPU second that makes.

Usage: .venv/bin/python benchmarks/bots/bench_bots.py [--games 3] [--samples 12] [--whole 2]
       [--draft 8]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim import bots  # noqa: E402
from sim.bots import candidates, draft_search, search  # noqa: E402
from sim.chance import ChanceStream  # noqa: E402
from sim.fast import advance_apply, advance_in_place  # noqa: E402
from sim.game import GameConfig, apply  # noqa: E402
from sim.local import LocalGame  # noqa: E402
from sim.view import view  # noqa: E402


def logs(games: int) -> list[LocalGame]:
    out = []
    for seed in range(games):
        g = LocalGame(GameConfig(4, "sun", "draft"), 500 + seed, dict.fromkeys(range(4), "normal"))
        for _ in g.run():
            pass
        out.append(g)
    return out


def replay(games: list[LocalGame], how: str) -> float:
    n, cpu = 0, 0.0
    for g in games:
        state = LocalGame(g.config, g.game_seed, {}).state
        start = time.process_time()
        if how == "in_place":
            state = state.copy()
            for cmd in g.commands:
                advance_in_place(state, cmd)
        else:
            for cmd in g.commands:
                state = apply(state, cmd)[0] if how == "apply" else advance_apply(state, cmd)
        cpu += time.process_time() - start
        n += len(g.commands)
    return n / cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--samples", type=int, default=12, help="hard decisions timed per kind")
    ap.add_argument("--whole", type=int, default=2,
                    help="whole games with one hard bot (and 3 normal) to time")
    ap.add_argument("--draft", type=int, default=8,
                    help="draft takes (and as many places) of a seeded game to time")
    args = ap.parse_args()
    if args.draft:
        draft_figures(args.draft)
    games = logs(args.games)
    total = sum(len(g.commands) for g in games)
    print(f"{args.games} normal-bot games, {total} commands")
    for how in ("apply", "advance_apply", "in_place"):
        print(f"  {how}: {replay(games, how):,.0f} commands per CPU second")
    game = LocalGame(GameConfig(4, "sun", "draft"), 77, dict.fromkeys(range(4), "normal"))
    samples: dict[str, list[float]] = {"plan": [], "special": [], "move": []}
    rollouts = 0
    roll_cpu = 0.0
    while not game.over:
        d = game.state.decision
        if d.kind in samples and len(samples[d.kind]) < args.samples:
            seat = d.seats[-1]
            seed = hashlib.sha256(b"bench/%d" % len(game.commands)).digest()
            start = time.process_time()
            bots.choose(game.state, seat, "hard", seed)
            samples[d.kind].append(time.process_time() - start)
            if d.kind == "plan":
                seen = view(game.state, seat)
                cands = candidates.plan_candidates(seen, seat, ChanceStream(seed),
                                                   search.HARD)
                start = time.process_time()
                search.score(seen, seat, cands, seed)
                roll_cpu += time.process_time() - start
                rollouts += search.rollouts(len(cands), search.budget_for(seen, search.HARD),
                                            search.HARD)
        game.step()
    print(f"hard bot: {rollouts / roll_cpu:,.0f} plan rollouts (to the year's end) per CPU second")
    for kind, ts in samples.items():
        ts.sort()
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"  hard '{kind}' decision CPU time over {len(ts)}: median "
              f"{statistics.median(ts):.2f} s, p95 {p95:.2f} s, max {ts[-1]:.2f} s")
    for i in range(args.whole):
        whole = LocalGame(GameConfig(4, "sun", "draft"), 880 + i,
                          {**dict.fromkeys(range(4), "normal"), i % 4: "hard"})
        start = time.process_time()
        for _ in whole.run():
            pass
        print(f"  a whole game, hard in seat {i % 4} and 3 normal: "
              f"{time.process_time() - start:.1f} s CPU (target <= 30 s)")


def draft_figures(limit: int) -> None:
    """The hard bot's draft decisions: every take and place of a seeded draft game among
    normal bots, up to `limit` of each, searched from the deciding seat's view."""
    game = LocalGame(GameConfig(4, "sun", "draft"), 77, dict.fromkeys(range(4), "normal"))
    samples: dict[str, list[float]] = {"draft_take": [], "draft_place": []}
    rollouts, cpu = 0, 0.0
    while game.state.draft is not None:
        d = game.state.decision
        if d.kind in samples and len(samples[d.kind]) < limit:
            seat = d.seats[0]
            seen = view(game.state, seat)
            seed = hashlib.sha256(b"bench-draft/%d" % len(game.commands)).digest()
            start = time.process_time()
            search.ranked(seen, seat, seed)
            took = time.process_time() - start
            samples[d.kind].append(took)
            cands = draft_search.candidates(seen, seat, ChanceStream(
                hashlib.sha256(b"hard/" + seed).digest()))
            if len(cands) > 1:
                cpu += took
                rollouts += search.rollouts(len(cands), search.budget_for(seen, search.HARD),
                                           search.HARD)
        game.step()
    print(f"hard bot: {rollouts / cpu:,.0f} draft rollouts (to the end of year 1) per CPU "
          f"second, {1000 * cpu / rollouts:.2f} ms each")
    for kind, ts in samples.items():
        print(f"  hard '{kind}' decision CPU time over {len(ts)}: median "
              f"{statistics.median(ts):.2f} s, max {max(ts):.2f} s")


if __name__ == "__main__":
    main()
