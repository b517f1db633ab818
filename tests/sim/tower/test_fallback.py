"""The drop settled without physics (`sim.tower.fallback`), for a split vote (issue 25):
R-BATTLE-1 (the tower resolves the battle) and R-COMP-6 (every cube accounted for)."""

from __future__ import annotations

import hashlib

from sim.tower.contents import EMPTY, PEASANT, TowerContents, overlapping
from sim.tower.drop import drop
from sim.tower.fallback import RESTING, settle_without_physics


def _seed(k: int) -> bytes:
    return hashlib.sha256(b"fallback %d" % k).digest()


def test_resting_places_are_inside_and_apart():
    contents = TowerContents.from_wire([[0, x, y, a] for x, y, a in RESTING])
    assert overlapping(contents) is None


def test_R_COMP_6_every_cube_is_accounted_for_and_none_overlap():
    contents = EMPTY
    for k in range(60):
        thrown = {k % 5: 1 + k % 7, PEASANT: k % 3, (k + 2) % 5: 2}
        out, after = settle_without_physics(contents, thrown, _seed(k))
        for colour in set(thrown) | set(out) | set(contents.counts()):
            went_in = contents.counts().get(colour, 0) + thrown.get(colour, 0)
            assert out.get(colour, 0) + after.counts().get(colour, 0) == went_in
        assert overlapping(after) is None
        TowerContents.from_wire(after.to_wire())          # every pose legal
        contents = after


def test_R_BATTLE_1_the_seed_alone_decides_and_differs_by_seed():
    thrown = {0: 6, 1: 6, PEASANT: 2}
    assert settle_without_physics(EMPTY, thrown, _seed(1)) == \
        settle_without_physics(EMPTY, thrown, _seed(1))
    outcomes = {str(settle_without_physics(EMPTY, thrown, _seed(k))[0]) for k in range(20)}
    assert len(outcomes) > 3


def test_the_physics_drops_onto_what_the_fallback_left():
    """The next drop's physics starts from the fallback's pile without losing a cube."""
    contents = EMPTY
    for k in range(4):
        _, contents = settle_without_physics(contents, {0: 8, 1: 8, 2: 4}, _seed(100 + k))
    assert len(contents) > 0
    result = drop(contents, {3: 5}, _seed(200))
    assert sum(result.out.values()) + len(result.contents) == len(contents) + 5
