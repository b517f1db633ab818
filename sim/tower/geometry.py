"""The battle tower's cross-section as plain data, so it can be tuned, drawn and hashed.

Coordinates are tower units (1 unit = 1 mm of a tower whose cubes are 10 mm), with the
origin at the bottom-left corner of the tower's interior, x to the right and **y up**
(pymunk's convention; a client drawing with y down flips y). The interior is the box
0 <= x <= WIDTH, 0 <= y <= TOP; the only way out of it is the exit opening in the right
wall at the bottom, onto the tray (x > WIDTH).

Every static piece is a segment `((x1, y1), (x2, y2))` with a common radius `WALL_RADIUS`
(a capsule), so the same list drives the physics and the drawing. Integers only: the
geometry takes part in the physics fingerprint and must not depend on float formatting.

The shape follows what players of the real tower (Shogun, Wallenstein, Amerigo) describe,
from the top down (docs/tower.md has the sources and the reasoning):

* a **funnel** whose throat is split by **two crossed ribs** (an X seen from above; cut
  through its middle, one rib shows as a small cross in the throat), so a handful of
  cubes is parted to both sides instead of falling as one lump;
* a **square shaft** (the straight walls);
* **two horizontal floors with holes**: the upper floor is a plate in the middle with a
  hole at each wall, the lower floor two ledges at the walls with a hole in the middle,
  so that every place a cube can rest lies under a hole of the floor above and is hit by
  the cubes of later battles (no sheltered corner, hence no permanent column);
* a **30 degree ramp** down to the exit in the right wall and the tray outside it.

Tests: tests/sim/tower/test_drop.py.
"""

from __future__ import annotations

from typing import TypedDict

CUBE = 10             # side of a cube
WIDTH = 120           # interior width of the square shaft
TOP = 340             # interior height (the lid)
WALL_RADIUS = 3       # every static segment is a capsule of this radius
EXIT_BOTTOM = 16      # the exit opening in the right wall spans y in [EXIT_BOTTOM, EXIT_TOP]
EXIT_TOP = 80
TRAY_END = 180        # the tray's far wall (drawing only; cubes are taken off on arrival)

FUNNEL_TOP = 300      # the funnel's rim meets the walls here
THROAT_Y = 262        # height of the funnel's throat
THROAT_HALF = 32      # half the throat's width, centre to centre of the segment ends
RIB_Y = 252           # centre of the crossed ribs
RIB_HALF = 3          # half the size of the cross
FLOOR_1_Y = 205       # upper floor: a plate in the middle, a hole at each wall
PLATE_HALF = 10       # half the plate's length (centre to centre of its ends)
FLOOR_2_Y = 135       # lower floor: a ledge at each wall, a hole in the middle
PERCH = 6             # half the length of each lower-floor perch
PERCH_X = 31          # the perches' centres, from each wall
RAMP_HIGH = 85        # the ramp's height at the left wall: atan((85 - 16) / 120) = 29.9 deg

Point = tuple[int, int]
Segment = tuple[Point, Point]

# --- derived from the numbers above (a tuning script may re-run this part) ---
_MID = WIDTH // 2

WALLS: tuple[Segment, ...] = (
    ((0, 0), (0, TOP)),                      # left wall
    ((WIDTH, EXIT_TOP), (WIDTH, TOP)),       # right wall, above the exit
    ((0, TOP), (WIDTH, TOP)),                # lid: thrown cubes enter below it
)

FUNNEL: tuple[Segment, ...] = (
    ((0, FUNNEL_TOP), (_MID - THROAT_HALF, THROAT_Y)),
    ((WIDTH, FUNNEL_TOP), (_MID + THROAT_HALF, THROAT_Y)),
)

RIBS: tuple[Segment, ...] = (               # the two crossed ribs in the funnel's throat
    ((_MID - RIB_HALF, RIB_Y - RIB_HALF), (_MID + RIB_HALF, RIB_Y + RIB_HALF)),
    ((_MID - RIB_HALF, RIB_Y + RIB_HALF), (_MID + RIB_HALF, RIB_Y - RIB_HALF)),
)

FLOOR_1: tuple[Segment, ...] = (            # a plate with a hole on each side
    ((_MID - PLATE_HALF, FLOOR_1_Y), (_MID + PLATE_HALF, FLOOR_1_Y)),
)

FLOOR_2: tuple[Segment, ...] = (            # two perches: holes at the walls and between
    ((PERCH_X - PERCH, FLOOR_2_Y), (PERCH_X + PERCH, FLOOR_2_Y)),
    ((WIDTH - PERCH_X - PERCH, FLOOR_2_Y), (WIDTH - PERCH_X + PERCH, FLOOR_2_Y)),
)

RAMP: tuple[Segment, ...] = (
    ((0, RAMP_HIGH), (WIDTH, EXIT_BOTTOM)),  # 30 degrees down to the exit
    ((WIDTH, EXIT_BOTTOM), (TRAY_END, 0)),   # the tray
    ((TRAY_END, 0), (TRAY_END, 40)),         # the tray's far wall
)

# Thrown cubes appear in rows above the funnel, one row at a time (as if poured by hand).
ENTRY_Y = 318                                # centre height of a new row
ENTRY_SLOTS: tuple[int, ...] = tuple(WIDTH * (2 * k + 1) // 8 for k in range(4))
ENTRY_JITTER = 2                             # +- x jitter of a slot

OUT_ZONE: tuple[Point, Point] = ((WIDTH + 3, -20), (TRAY_END, 60))

PARTS: dict[str, tuple[Segment, ...]] = {
    "walls": WALLS, "funnel": FUNNEL, "ribs": RIBS, "floor_1": FLOOR_1,
    "floor_2": FLOOR_2, "ramp": RAMP,
}
ALL_SEGMENTS: tuple[Segment, ...] = tuple(s for part in PARTS.values() for s in part)


class ExitData(TypedDict):
    x: int
    y0: int
    y1: int


class EntryData(TypedDict):
    y: int
    slots: list[int]
    jitter: int


class GeometryData(TypedDict):
    """`as_data`: the geometry as plain data (what the window draws the tower from)."""
    units: str
    cube: int
    width: int
    top: int
    wall_radius: int
    exit: ExitData
    tray_end: int
    parts: dict[str, list[list[list[int]]]]      # name -> segments -> two points (x, y)
    segments: list[list[list[int]]]
    entry: EntryData
    out_zone: list[list[int]]


def as_data() -> GeometryData:
    """The geometry as one plain dict (what `sim.tower.drop.GEOMETRY` exposes)."""
    return {
        "units": "mm (cube side 10); origin bottom-left of the interior; y up",
        "cube": CUBE,
        "width": WIDTH,
        "top": TOP,
        "wall_radius": WALL_RADIUS,
        "exit": {"x": WIDTH, "y0": EXIT_BOTTOM, "y1": EXIT_TOP},
        "tray_end": TRAY_END,
        "parts": {name: [list(map(list, s)) for s in part] for name, part in PARTS.items()},
        "segments": [list(map(list, s)) for s in ALL_SEGMENTS],
        "entry": {"y": ENTRY_Y, "slots": list(ENTRY_SLOTS), "jitter": ENTRY_JITTER},
        "out_zone": [list(OUT_ZONE[0]), list(OUT_ZONE[1])],
    }
