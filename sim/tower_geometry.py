"""The battle tower's cross-section as plain data, so it can be tuned, drawn and hashed.

Coordinates are tower units (1 unit = 1 mm of the real tower; a cube is 10 units), with
the origin at the bottom-left corner of the tower's interior, x to the right and **y up**
(pymunk's convention; a client drawing with y down flips y). The interior is the box
0 <= x <= WIDTH, 0 <= y <= TOP; the only way out of it is the exit opening in the right
wall at the bottom, onto the tray (x > WIDTH).

Every static piece is a segment `((x1, y1), (x2, y2))` with a common radius `WALL_RADIUS`
(a capsule), so the same list drives the physics and the drawing. Integers only: the
geometry takes part in the self-test digest and must not depend on float formatting.

The real tower (Shogun / Wallenstein) is a square box: a funnel on top, a shaft, sloped
baffles on which cubes bounce and some lodge, and a ramp that spills onto a tray. The two
baffle levels here are deliberately different:

* level 1 (`BAFFLE_1`): a perforated shelf. A long slat sloping down from the right wall
  ends in a cup (a caught cube holds up a short queue behind it until an impact clears
  it); a short slat on the left wall; most cubes drop through the wide hole between.
* level 2 (`BAFFLE_2`): ledges. A pocket on the left wall whose low lip lets cubes stack
  in the corner, and a lipless ledge on the right that kicks cubes back across the shaft.

A small roof (`SPLITTER`) breaks the long fall to the floor ramp. Gaps are kept wide
(three cubes or more): square cubes arch and clog narrow openings, which real towers
avoid too. The dimensions and the physics constants in `sim.tower` were calibrated
together (see `python main.py tower`): change them together and re-check the bands.
"""

from __future__ import annotations

CUBE = 10             # side of a cube
WIDTH = 90            # interior width
TOP = 340             # interior height (the lid)
WALL_RADIUS = 3       # every static segment is a capsule of this radius
EXIT_BOTTOM = 16      # the exit opening in the right wall spans y in [EXIT_BOTTOM, EXIT_TOP]
EXIT_TOP = 50
TRAY_END = 150        # the tray's far wall (drawing only; cubes are taken off on arrival)

Point = tuple[int, int]
Segment = tuple[Point, Point]

WALLS: tuple[Segment, ...] = (
    ((0, 0), (0, TOP)),                      # left wall
    ((WIDTH, EXIT_TOP), (WIDTH, TOP)),       # right wall, above the exit
    ((0, TOP), (WIDTH, TOP)),                # lid: thrown cubes enter below it
)

FUNNEL: tuple[Segment, ...] = (            # wide mouth: a narrow one clogs (arching)
    ((0, 300), (14, 286)),
    ((WIDTH, 300), (WIDTH - 14, 286)),
)

BAFFLE_1: tuple[Segment, ...] = (          # a shelf with a hole: two slats, gap between
    ((0, 240), (14, 233)),                   # left slat: also caps the stack below it
    ((WIDTH, 236), (52, 219)),               # right shelf, under most of the funnel...
    ((52, 219), (50, 222)),                  # ...ending in a cup that holds a short queue
)

BAFFLE_2: tuple[Segment, ...] = (          # ledges: a pocket on the left, a kicker on the right
    ((0, 170), (18, 161)),
    ((18, 161), (20, 165)),                  # low lip: cubes stack in the wall corner
    ((WIDTH, 140), (WIDTH - 14, 133)),       # no lip: throws cubes back across the shaft
)

SPLITTER: tuple[Segment, ...] = (          # a roof that breaks the long fall to the floor
    ((30, 100), (45, 112)),
    ((45, 112), (60, 100)),
)

FLOOR: tuple[Segment, ...] = (
    ((0, 76), (WIDTH, EXIT_BOTTOM)),         # ramp down to the exit (34 degrees)
    ((WIDTH, EXIT_BOTTOM), (TRAY_END, 0)),   # the tray
    ((TRAY_END, 0), (TRAY_END, 40)),         # the tray's far wall
)

# Thrown cubes appear in rows above the funnel, one row at a time (as if poured by hand).
ENTRY_Y = 318                                # centre height of a new row
ENTRY_SLOTS: tuple[int, ...] = (14, 35, 56, 77)   # centre x of the row's slots
ENTRY_JITTER = 2                             # +- x jitter of a slot

OUT_ZONE: tuple[Point, Point] = ((WIDTH + 3, -20), (TRAY_END, 60))

ALL_SEGMENTS: tuple[Segment, ...] = WALLS + FUNNEL + BAFFLE_1 + BAFFLE_2 + SPLITTER + FLOOR


def as_data() -> dict:
    """The geometry as one plain dict (what `sim.tower.GEOMETRY` exposes)."""
    return {
        "units": "mm (cube side 10); origin bottom-left of the interior; y up",
        "cube": CUBE,
        "width": WIDTH,
        "top": TOP,
        "wall_radius": WALL_RADIUS,
        "exit": {"x": WIDTH, "y0": EXIT_BOTTOM, "y1": EXIT_TOP},
        "tray_end": TRAY_END,
        "parts": {
            "walls": [list(map(list, s)) for s in WALLS],
            "funnel": [list(map(list, s)) for s in FUNNEL],
            "baffle_1": [list(map(list, s)) for s in BAFFLE_1],
            "baffle_2": [list(map(list, s)) for s in BAFFLE_2],
            "splitter": [list(map(list, s)) for s in SPLITTER],
            "floor": [list(map(list, s)) for s in FLOOR],
        },
        "segments": [list(map(list, s)) for s in ALL_SEGMENTS],
        "entry": {"y": ENTRY_Y, "slots": list(ENTRY_SLOTS), "jitter": ENTRY_JITTER},
        "out_zone": [list(OUT_ZONE[0]), list(OUT_ZONE[1])],
    }
