"""What is inside the tower between drops: integer cube poses, part of the game state.

Quantised poses: `x`, `y` in 1/100 tower unit (`POS_SCALE`), `angle` in 1/4096 turn
(`ANGLE_SCALE`), 0 <= angle < 4096. `from_wire` is the gate for untrusted contents.

Tests: tests/sim/tower/test_drop.py; `overlapping`: tests/sim/rules/test_battle.py,
tests/sim/tower/test_fallback.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.tower import geometry as G

# The quantum of the state. Defined here, not beside the physics, so that the game state
# (`sim.state` holds a `TowerContents`) can be imported without loading pymunk.
POS_SCALE = 100          # quantised position units per tower unit
ANGLE_SCALE = 4096       # quantised angle units per full turn

PEASANT = 5
COLOURS = (0, 1, 2, 3, 4, PEASANT)
MAX_CUBES = 255          # more cubes than exist in the game; bounds untrusted input
MAX_X = (G.WIDTH + G.CUBE) * POS_SCALE   # a cube may rest in the exit opening


@dataclass(frozen=True, order=True)
class Cube:
    """A cube inside the tower. x, y: 1/100 tower unit; angle: 1/4096 turn, [0, 4096)."""
    colour: int
    x: int
    y: int
    angle: int


def _check_int(value: object, lo: int, hi: int, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an int, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise ValueError(f"{what} = {value} is outside [{lo}, {hi}]")
    return value


@dataclass(frozen=True)
class TowerContents:
    """What is inside the tower between drops: part of the game state, ints only.

    Cubes are kept sorted (by colour, x, y, angle), so equal contents encode and hash
    equally whatever order they were built in.
    """
    cubes: tuple[Cube, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cubes", tuple(sorted(self.cubes)))

    def to_wire(self) -> list[list[int]]:
        return [[c.colour, c.x, c.y, c.angle] for c in self.cubes]

    @classmethod
    def from_wire(cls, obj: object) -> "TowerContents":
        """The gate for untrusted contents (saves, network): checks every field's range."""
        if not isinstance(obj, (list, tuple)):
            raise ValueError("tower contents must be a list of [colour, x, y, angle]")
        if len(obj) > MAX_CUBES:
            raise ValueError(f"tower contents: {len(obj)} cubes, at most {MAX_CUBES}")
        cubes = []
        for i, item in enumerate(obj):
            if not isinstance(item, (list, tuple)) or len(item) != 4:
                raise ValueError(f"tower cube {i} must be [colour, x, y, angle]")
            colour, x, y, angle = item
            cube = Cube(
                _check_int(colour, 0, PEASANT, f"tower cube {i} colour"),
                _check_int(x, 0, MAX_X, f"tower cube {i} x"),
                _check_int(y, 0, G.TOP * POS_SCALE, f"tower cube {i} y"),
                _check_int(angle, 0, ANGLE_SCALE - 1, f"tower cube {i} angle"))
            if not inside_tower(x / POS_SCALE, y / POS_SCALE):
                raise ValueError(f"tower cube {i} at ({x / POS_SCALE:g}, {y / POS_SCALE:g}) "
                                 "is not inside the tower (in a wall or under the ramp)")
            cubes.append(cube)
        return cls(tuple(cubes))

    def counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in self.cubes:
            out[c.colour] = out.get(c.colour, 0) + 1
        return out

    def __len__(self) -> int:
        return len(self.cubes)


EMPTY = TowerContents()

# Two cubes' centres can come no closer than a side (each holds a disc of half a side);
# resting cubes press into each other a little (honest drops: 9.2 units at the closest),
# and a quantised pose moves a hundredth. Closer than this, they overlap: no drop made it.
MIN_APART = 0.8 * G.CUBE


def overlapping(contents: TowerContents) -> tuple[int, int] | None:
    """The first two cubes (indices) whose centres are closer than `MIN_APART`, or None.

    Why: `from_wire` checks each cube alone; two cubes in one place pass it, and the next
    drop's physics then throws them apart (out of the tower). Integer arithmetic only."""
    limit = int(MIN_APART * POS_SCALE) ** 2
    cubes = contents.cubes
    for i, a in enumerate(cubes):
        for j in range(i + 1, len(cubes)):
            b = cubes[j]
            if (a.x - b.x) ** 2 + (a.y - b.y) ** 2 < limit:
                return i, j
    return None


def _floor_under(x: float) -> float:
    """Height of the ramp's (or, past the exit, the tray's) centre line below x."""
    (x0, y0), (x1, y1) = G.RAMP[0]
    if x > x1:
        (x0, y0), (x1, y1) = G.RAMP[1]
    return y0 + (y1 - y0) * (min(max(x, x0), x1) - x0) / (x1 - x0)


def inside_tower(x: float, y: float) -> bool:
    """Where a cube's centre can physically be: between the walls, under the lid, above
    the ramp (a resting cube's centre is at least 8 units above the ramp's centre line;
    3 is the margin allowed), or in the exit opening."""
    half = G.CUBE / 2.0
    right = G.OUT_ZONE[0][0] + half if y < G.EXIT_TOP else G.WIDTH - half * 0.5
    return (half * 0.5 <= x <= right and y <= G.TOP - half * 0.5
            and y >= _floor_under(x) + 3.0)
