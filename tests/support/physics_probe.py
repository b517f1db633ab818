"""What this process's pymunk makes of the physics selftest, as JSON (`coverage`).

Run in a subprocess with a pymunk build first on the PYTHONPATH and, or, another libm
(`GLIBC_TUNABLES`), then compare (tests/physics/test_build_physics.py):

    python -m tests.support.physics_probe

Output: {"pymunk": the pymunk file imported, "build": "deterministic" or "platform",
"name": what the build says it is, "digest", "steps", "jam_shakes", "clog_shakes",
"untouched": the static segments no cube touched, "exits": cubes that left}.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

import pymunk  # noqa: E402

from sim.tower import build, geometry as G  # noqa: E402

Segment = tuple[float, float, float, float]


def _key(a: tuple[float, float], b: tuple[float, float]) -> Segment:
    return (float(a[0]), float(a[1]), float(b[0]), float(b[1]))


# No cube can touch these: cubes are taken off when they reach the tray, and none rises
# to the lid (they enter below it, falling).
UNREACHABLE = {_key(*G.WALLS[2]), _key(*G.RAMP[1]), _key(*G.RAMP[2])}


def coverage() -> dict:
    touched: set[Segment] = set()
    exits = 0
    bodies_before = 0

    def see(arbiter: pymunk.Arbiter) -> None:
        for shape in arbiter.shapes:
            if isinstance(shape, pymunk.Segment):
                touched.add(_key(shape.a, shape.b))

    def probe(space: pymunk.Space) -> None:
        nonlocal exits, bodies_before
        bodies = space.bodies
        exits += max(0, bodies_before - len(bodies))
        bodies_before = len(bodies)
        for body in bodies:
            body.each_arbiter(see)

    test = build.selftest(extra_probe=probe)
    segments = {_key(a, b) for a, b in G.ALL_SEGMENTS}
    return {"pymunk": pymunk.__file__, "build": test.build, "name": build.build_name(),
            "digest": test.digest, "steps": test.steps, "jam_shakes": test.jam_shakes,
            "clog_shakes": test.clog_shakes, "untouched": sorted(segments - touched),
            "exits": exits}


if __name__ == "__main__":
    print(json.dumps(coverage()))
