"""The hard bot as it was before issue 40, frozen as a baseline (as `hard_2025` is).

Why: the new hard bot searches its draft decisions (`draft_search.py`), and its strength
is measured against the hard bot that took draft cards and placed its army groups by the
fixed rules (`benchmarks/bots/bot_strength.py --lines hard:hard_2026`), so that one must stay
what it was: `search.HARD` of issue 29 (year-long rollouts, 320 round-lengths a decision,
bids 0-3, t > 1, the hopeless-battle filter) with the draft unsearched.
`tests/sim/bots/test_hard_2026.py` checks that it scores every searched decision exactly
as the new hard does and plays the draft by the rule.

Tests: tests/sim/bots/test_hard_2026.py.
"""

from __future__ import annotations

from sim.bots.search import Settings

# spelled out, not derived from `search.HARD`, so that tuning the new hard leaves it alone
SETTINGS = Settings(budget=320, min_worlds=6, finalists=4, prefer_t2=1, plan_candidates=14,
                    move_candidates=6, horizon="year", bids=(0, 1, 2, 3), rollout_bot="normal",
                    normal_off=frozenset(), safe=True, draft_budget=0)

__all__ = ["SETTINGS"]
