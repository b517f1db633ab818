"""A drop settled without physics, the same on every machine: for a split vote only.

Why: at a table where no peer runs the deterministic build (`sim.tower.build`), peers
vote their drops; where no strict majority agrees, the outcome must come from something
no player can choose — not the lowest seat, not a lot among the votes (a colluder's
vote would win half of them). This settles the drop from the drop's own seed (drawn from
every player's beacon links) with the statistical model the hard bot also uses
(`sim.tower.odds` rates, integer draws): each cube inside comes loose, each thrown cube
falls through, with the model's probabilities. Cubes that stay keep their pose if they were inside
before; a thrown cube that stays takes the lowest free resting place of `RESTING`
(a pile the deterministic build settled, stored as integers), and comes out when none is
free. The result is legal (every cube accounted for, no overlap), so the next drop's
physics starts from a real pile.

Tests: tests/sim/tower/test_fallback.py.
"""

from __future__ import annotations

from typing import Any

from sim.chance import ChanceStream, derive_seed
from sim.tower import geometry as G
from sim.tower.contents import POS_SCALE, Cube, TowerContents
from sim.tower.odds import rates

# (x, y, angle) in contents units, lowest first: 20 cubes at rest after 40 chained game
# drops of the deterministic build (seeds "scan0 k"); none closer than a cube's side.
RESTING: tuple[tuple[int, int, int], ...] = (
    (11210, 13989, 4095), (10225, 14147, 4092), (8868, 14294, 3069), (2578, 14300, 69),
    (11126, 15067, 3979), (10053, 15140, 2046), (2402, 15273, 2121), (8585, 15285, 2048),
    (11127, 16071, 1932), (9966, 16129, 4094), (6358, 21269, 3073), (5354, 21293, 1020),
    (5632, 22248, 2024), (6738, 22286, 875), (7328, 23161, 3943), (5758, 23164, 3),
    (5457, 24116, 4081), (7239, 24201, 873), (7563, 25136, 2915), (8320, 25962, 3934))

_APART = int(0.9 * G.CUBE * POS_SCALE) ** 2      # as close as resting cubes come


def settle_without_physics(before: TowerContents, thrown: dict[int, int],
                           seed: bytes) -> tuple[dict[int, int], TowerContents]:
    """(out per colour, contents after) of a drop, from `seed` alone (module doc)."""
    rng = ChanceStream(derive_seed(seed, "tower fallback"))
    through, loose = rates(len(before))
    out: dict[int, int] = {}
    kept: list[Cube] = []
    for cube in before.cubes:                      # sorted: the same draws everywhere
        if rng.below(1024) < loose:
            out[cube.colour] = out.get(cube.colour, 0) + 1
        else:
            kept.append(cube)
    for colour in sorted(thrown):
        for _ in range(thrown[colour]):
            if rng.below(1024) >= through:
                place = next(((x, y, a) for x, y, a in RESTING
                              if all((x - c.x) ** 2 + (y - c.y) ** 2 >= _APART for c in kept)),
                             None)
                if place is not None:
                    kept.append(Cube(colour, *place))
                    continue
            out[colour] = out.get(colour, 0) + 1
    return dict(sorted(out.items())), TowerContents(tuple(kept))


def settle_detail(detail: dict[str, Any]) -> tuple[dict[int, int], TowerContents]:
    """The same for a `tower` decision's detail (contents before, thrown, seed)."""
    before = TowerContents.from_wire(detail["before"])
    thrown = {c: n for c, n in enumerate(detail["thrown"]) if n}
    return settle_without_physics(before, thrown, bytes(detail["seed"]))
