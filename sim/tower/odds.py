"""How often a cube falls through or comes loose, by how full the tower is: the physics
tower summed up as rates per 1024.

Why a module of its own: two parts settle a drop without physics from these rates, and
neither may depend on the other. The network's fallback for a split vote
(`sim.tower.fallback`) is a consensus rule; the hard bot's look-ahead
(`sim.bots.tower_model`) only imagines futures. The rates were fitted to 1,200 game-like
drops of the tower v2 (`tools/fit_tower_model.py`; refit them whenever the tower
changes). Integers only, so every machine draws the same.

Tests: tests/sim/tower/test_fallback.py, tests/sim/bots/test_tower_model.py (slow: the
rates against the physics).
"""

from __future__ import annotations

# (inside at most, thrown cube falls through /1024, inside cube comes loose /1024)
RATES = ((3, 838, 229), (7, 863, 226), (11, 804, 316), (15, 715, 357), (10_000, 751, 256))


def rates(inside: int) -> tuple[int, int]:
    """(falls through, comes loose) per 1024 for a tower holding `inside` cubes."""
    for most, through, loose in RATES:
        if inside <= most:
            return through, loose
    raise AssertionError("unreachable")
