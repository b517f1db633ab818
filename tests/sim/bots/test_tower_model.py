"""The hard bot's statistical tower against the physics tower, on the same seeded drops.

The look-ahead only needs the model to look like the physics on average: how many cubes
come out of a battle drop, and how full the tower stays. Slow: it runs physics drops.
"""

from __future__ import annotations

import hashlib
import statistics

import pytest

from sim.tower.stats import FILL
from sim.tower import drop as tower
from sim.bots.tower_model import model_drop
from sim.chance import ChanceStream

pytestmark = pytest.mark.slow


def _throws(n: int) -> list[dict[int, int]]:
    stream = ChanceStream(hashlib.sha256(b"model-vs-physics").digest())
    throws = []
    for _ in range(n):
        a = stream.below(5)
        d = (a + 1 + stream.below(4)) % 5
        thrown = {a: 1 + stream.below(8), d: 1 + stream.below(6)}
        if stream.below(3) == 0:
            thrown[tower.PEASANT] = 1
        throws.append(thrown)
    return throws


def test_model_out_counts_match_the_physics():
    throws = _throws(150)
    phys_out, phys_inside = [], []
    contents = tower.drop(tower.EMPTY, FILL, hashlib.sha256(b"fill").digest()).contents
    for i, thrown in enumerate(throws):
        result = tower.drop(contents, thrown, hashlib.sha256(b"drop%d" % i).digest())
        contents = result.contents
        phys_out.append(sum(result.out.values()))
        phys_inside.append(len(contents))
    rng = ChanceStream(hashlib.sha256(b"model").digest())
    model_out, model_inside = [], []
    inside = model_drop({}, FILL, rng)[1]
    for thrown in throws:
        out, inside = model_drop(inside, thrown, rng)
        model_out.append(sum(out.values()))
        model_inside.append(sum(inside.values()))
    # the mean cubes out per drop within 10%, the spread within a third
    assert abs(statistics.mean(model_out) - statistics.mean(phys_out)) <= 0.1 * statistics.mean(phys_out)
    assert abs(statistics.pstdev(model_out) - statistics.pstdev(phys_out)) <= \
        statistics.pstdev(phys_out) / 3
    # the tower stays about as full (after the first drops have settled it)
    assert abs(statistics.mean(model_inside[20:]) - statistics.mean(phys_inside[20:])) <= 4
    # the share of drops where fewer cubes came out than went in
    held_phys = sum(o < sum(t.values()) for o, t in zip(phys_out, throws)) / len(throws)
    held_model = sum(o < sum(t.values()) for o, t in zip(model_out, throws)) / len(throws)
    assert abs(held_phys - held_model) <= 0.15
