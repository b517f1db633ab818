"""Print, as JSON, what this process's pymunk makes of a fixed set of tower drops.

Run in a subprocess under different float environments (an FMA build of pymunk on the
PYTHONPATH, `GLIBC_TUNABLES` for another libm), then compare:

    python -m tests.support.tower_probe [DROPS [STARTS]]

Output: {"pymunk": path of the pymunk imported, "drops": [outcome digest of each
40-cube drop], "canary": canary_digest(), "self_test": self_test_digest()}.
STARTS (optional) is a JSON list of `TowerContents` wire lists, computed once by the
caller, so every environment starts its drops from the very same integer contents and
a differing digest is a drop that this environment computes differently. Drop k throws
40 cubes into start k mod len(STARTS) (the empty tower without STARTS).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

import pymunk  # noqa: E402

from sim.tower import drop as tower, stats as tower_stats  # noqa: E402


def main() -> int:
    drops = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    starts = json.loads(sys.argv[2]) if len(sys.argv) > 2 else None
    towers = ([tower.TowerContents.from_wire(w) for w in starts] if starts else
              [tower.EMPTY])
    digests = []
    for k in range(drops):
        result = tower.drop(towers[k % len(towers)], {k % 4: 20, (k + 1) % 4: 20},
                            tower_stats.seed("probe", k))
        digests.append(tower.digest_of(result))
    print(json.dumps({"pymunk": pymunk.__file__, "drops": digests,
                      "canary": tower.canary_digest(),
                      "self_test": tower.self_test_digest()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
