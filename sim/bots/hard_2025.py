"""The hard bot as it was before issue 29, frozen as a baseline (as `heuristic` is).

Why: the new hard bot's strength is measured against the old one (`benchmarks/bots/
bot_strength.py --lines hard:hard_2025`), so the old one must stay what it was. It is the
same search (`search.py`) with the settings it had then: rollouts to the end of the round
only, 192 rollouts a decision, bids 1 and 2 besides the default, a switch only on t^2 > 2,
and futures played by the normal bot without the habits issue 29 added
(`normal.NEW_HABITS`: the safe battle placement and the weighed bids), through the
internal rollout level `normal_2025`. `tests/sim/bots/test_hard_2025.py` pins its scores
on seeded states to the ones recorded before issue 29's changes, so an edit to the shared
code that moved it fails there.

Tests: tests/sim/bots/test_hard_2025.py.
"""

from __future__ import annotations

from sim.bots.normal import NEW_HABITS
from sim.bots.search import Settings

SETTINGS = Settings(budget=192, min_worlds=8, finalists=4, prefer_t2=2, plan_candidates=12,
                    move_candidates=6, horizon="round", bids=(1, 2), rollout_bot="normal_2025",
                    normal_off=NEW_HABITS, safe=False)

__all__ = ["SETTINGS"]
