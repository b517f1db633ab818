"""Which pymunk computes the tower here, and a digest that shows whether it computes as designed.

Why: peers can only check each other's drops if their physics computes bit for bit
alike. The project's own pymunk build (`tools/build_physics.py`: contraction off, its own
maths functions instead of the C library's) does on every machine, whatever the compiler
or CPU; the PyPI wheel does not (glibc alone picks other sin/cos on CPUs without FMA).

* `physics_build()` says "deterministic" when the imported pymunk is that build (its
  compiled module answers `shogun_physics_build()`), "platform" otherwise.
* `selftest()` hashes the raw floats of long drops that touch every part of the tower
  and shake it (a jam at the entry and a clog), then the outcomes of a few game-like
  drops (quantisation and settle passes). Every deterministic build gives
  `DETERMINISTIC_DIGEST`; a platform build gives whatever its libm and compiler make of it.
  A deterministic build with another digest means the physics changed (then the
  golden value must change with intent, and every peer must update together).

Tests: tests/sim/tower/test_build.py (detection, coverage, the golden digest) and
tests/physics/test_build_physics.py (builds at two optimisation levels, two libms).
"""

from __future__ import annotations

import functools
import hashlib
import struct
from dataclasses import dataclass
from typing import Callable

import pymunk
import pymunk.batch
from pymunk import _chipmunk_cffi

from sim.chance import ChanceStream, derive_seed
from sim.tower import geometry as G
from sim.tower import physics as P
from sim.tower.contents import EMPTY, PEASANT, TowerContents
from sim.tower.drop import digest_of, drop
from sim.tower.run import simulate

DETERMINISTIC = "deterministic"
PLATFORM = "platform"
BUILD_FUNCTION = "shogun_physics_build"      # added to pymunk by tools/build_physics.py

# What every deterministic build computes (`selftest().digest`). Change it only with
# the physics, on purpose: every peer must then run the same new build.
DETERMINISTIC_DIGEST = "d1bb4c3dfd37bc97a71602642957f1c54b8295d3e5f6c63159d1abc9ebe7aaba"

_FIELDS = (pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.ANGLE |
           pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)
_FILL = [0] * 7 + [1] * 7 + [2] * 7 + [3] * 7 + [PEASANT] * 10
_GAME_THROWS: tuple[dict[int, int], ...] = (
    {0: 7, 1: 7, 2: 7, 3: 7, PEASANT: 10}, {0: 9, 2: 5}, {1: 12, 3: 2, PEASANT: 1}, {},
    {0: 14, 1: 14})


def build_name() -> str:
    """What the imported pymunk says it is: the build's own description, or ""."""
    name = getattr(_chipmunk_cffi.lib, BUILD_FUNCTION, None)
    if name is None:
        return ""
    return str(_chipmunk_cffi.ffi.string(name()).decode())


def physics_build() -> str:
    """ "deterministic" for the project's own pymunk build, "platform" for any other."""
    return DETERMINISTIC if build_name().startswith(DETERMINISTIC) else PLATFORM


@dataclass(frozen=True)
class SelfTest:
    """What `selftest` computed: the digest, and what its drops went through."""
    build: str
    digest: str
    steps: int              # simulation steps hashed (raw floats after each)
    jam_shakes: int         # shakes while cubes were still in hand (the entry blocked)
    clog_shakes: int        # shakes after every cube had entered (too many inside)
    drops: int              # game-like drops whose outcomes were hashed


def _packed_funnel(stream: ChanceStream, rows: int) -> list[tuple[int, float, float, float]]:
    """Rows of cubes lying in the funnel and above it, slightly turned: they arch at the
    throat and block the entry, so the throw after them jams and the tower is shaken."""
    cubes: list[tuple[int, float, float, float]] = []
    slope = (G.WIDTH / 2 - G.THROAT_HALF) / (G.FUNNEL_TOP - G.THROAT_Y)
    for row in range(rows):
        y = G.THROAT_Y + 8 + 10.6 * row
        half = G.THROAT_HALF + slope * (min(y, G.FUNNEL_TOP) - 5 - G.THROAT_Y)
        half = min(half, G.WIDTH / 2) - G.WALL_RADIUS - G.CUBE / 2 - 1
        x = G.WIDTH / 2 - half
        while x <= G.WIDTH / 2 + half:
            cubes.append((len(cubes) % 5, x, y, stream.uniform(-0.3, 0.3)))
            x += 10.6
    return cubes


def selftest(extra_probe: Callable[[pymunk.Space], None] | None = None) -> SelfTest:
    """Hash the raw floats of long drops, then game-like drop outcomes (see the module).

    The raw runs: a fill of 38 cubes into the empty tower; 160 more onto that pile as it
    lies (unquantised); 12 thrown onto 29 cubes packed in the funnel, which jams the
    entry (shaken twice) and then leaves the tower clogged (shaken once more). After
    every step each body's position, angle, velocity and angular velocity go in as
    little-endian doubles, and each run's final poses. Then five game-like drops
    (`drop`: quantised, settle passes), chained from the empty tower, go in as their
    outcome digests. `extra_probe(space)` (tests) sees the space after every step too;
    it must not change it.
    """
    h = hashlib.sha256(b"shogun physics selftest 1 " + P.fingerprint_digest().encode())
    buffer = pymunk.batch.Buffer()
    steps = jam_shakes = clog_shakes = 0

    def probe(space: pymunk.Space) -> None:
        nonlocal steps
        steps += 1
        buffer.clear()
        pymunk.batch.get_space_bodies(space, _FIELDS, buffer)
        floats = memoryview(buffer.float_buf()).cast("d")
        h.update(struct.pack(f"<{len(floats)}d", *floats))
        if extra_probe is not None:
            extra_probe(space)

    base = hashlib.sha256(b"shogun physics selftest").digest()
    fill = ChanceStream(base).shuffle(_FILL)
    pile: list[tuple[int, float, float, float]] = []
    packed = _packed_funnel(ChanceStream(derive_seed(base, "packed 4 0")), rows=4)
    for name, start, throw in (("fill", None, fill), ("pile", None, [k % 5 for k in range(160)]),
                               ("jam 4 0", packed, [k % 5 for k in range(12)])):
        run = simulate(pile if start is None else start, throw,
                       ChanceStream(derive_seed(base, name)), record=True, probe=probe)
        first = len(run.colours) - len(throw)
        last_entry = max((e for e in run.entered[first:] if e is not None), default=0)
        jam_shakes += sum(1 for frame in run.shakes if frame <= last_entry)
        clog_shakes += sum(1 for frame in run.shakes if frame > last_entry)
        pile = [(run.colours[i], *pose) for i, pose in enumerate(run.poses) if pose]
        for pose in run.poses:
            if pose:
                h.update(struct.pack("<3d", *pose))
    contents: TowerContents = EMPTY
    for k, thrown in enumerate(_GAME_THROWS):
        result = drop(contents, thrown, derive_seed(base, f"game {k}"))
        h.update(digest_of(result).encode())
        contents = result.contents
    return SelfTest(physics_build(), h.hexdigest(), steps, jam_shakes, clog_shakes,
                    len(_GAME_THROWS))


@functools.cache
def here() -> SelfTest:
    """This process's selftest, run once (the handshake and the tower vote ask for it)."""
    return selftest()


def verified(build: str, digest: str) -> bool:
    """A build that computes every drop bit for bit as every other deterministic build:
    the project's own pymunk whose selftest gave the golden digest."""
    return build == DETERMINISTIC and digest == DETERMINISTIC_DIGEST


def deterministic_here() -> bool:
    """This process computes drops that any other deterministic peer can check."""
    test = here()
    return verified(test.build, test.digest)


def selftest_line(test: SelfTest | None = None) -> str:
    """The line `./shogun tower --selftest` prints (of `test`, else of a new selftest)."""
    test = test or selftest()
    return f"physics: {test.build}  digest {test.digest}"


def selftest_verdict(test: SelfTest) -> str:
    """What the selftest means for the player, in words (issue 53)."""
    if verified(test.build, test.digest):
        return ("This computer runs the verified tower: its drops are computed bit for bit "
                "as on every other computer that runs it.")
    if test.build == DETERMINISTIC:
        return (f"This pymunk says it is the deterministic build, but its digest is not "
                f"the verified one ({DETERMINISTIC_DIGEST[:8]}...): its drops differ from "
                "other players' (an edited or outdated build). Rebuild it: python "
                "tools/build_physics.py --install.")
    return ("This computer runs pymunk's PyPI wheel, not the verified tower: its drops may "
            "differ from other computers', so at a table with others the tower's results "
            "are agreed by vote, and the lobby says so. To build the verified tower, "
            "install a C compiler and Python's headers (Debian, Ubuntu: sudo apt install "
            "gcc python3-dev; Fedora: sudo dnf install gcc python3-devel), then start "
            "./shogun again.")
