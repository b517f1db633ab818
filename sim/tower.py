"""The battle tower: a deterministic 2D pymunk simulation of cubes tumbling through it.

Why it is built this way:

* **Lockstep.** Every peer must get the same outcome bit for bit. So nothing physical
  survives between drops: the contents are integer poses (`TowerContents`), and each drop
  builds a fresh `pymunk.Space` from them in canonical order, with fixed dt, solver
  settings and a deterministic stop rule (rest detector or step cap). Chance enters only
  through the drop's 32-byte seed, expanded by `sim.chance.ChanceStream`. Nothing iterates
  over sets or hash-ordered containers.
* **Animation.** `drop(..., record=True)` reads body poses after steps and never writes
  to the space, so the recorded run and the plain run are the same computation.
* **Speed.** A whole game (~60-100 drops) must fit in well under a second, so cubes that
  reach the tray are removed at once, resting piles fall asleep (chipmunk skips them),
  the rest test is a batched velocity read every few steps, and dt is coarse (stability
  comes from the gravity/dt ratio, see `GRAVITY`).
* **Thrown cubes** enter in rows of up to four above the funnel, a row whenever the entry
  area is clear, as if poured from a hand; the order of colours, slot, jitter, spin and
  speed come from the seed. If the tower is so full that the entry stays blocked while
  everything rests, the remaining cubes spill over the top onto the tray (count as out).

Units and coordinates (also in `sim.tower_geometry`): tower units are millimetres of the
real tower, a cube is 10 units square, origin at the interior's bottom-left, **y up**,
angles counter-clockwise. Quantised poses: `x`, `y` in 1/100 unit (`POS_SCALE`), `angle`
in 1/4096 turn (`ANGLE_SCALE`), 0 <= angle < 4096.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Mapping

import msgpack
import pymunk
import pymunk.batch

from sim import tower_geometry as G
from sim.chance import SEED_BYTES, ChanceStream, derive_seed

PEASANT = 5
COLOURS = (0, 1, 2, 3, 4, PEASANT)

POS_SCALE = 100          # quantised position units per tower unit
ANGLE_SCALE = 4096       # quantised angle units per full turn
MAX_CUBES = 255          # more cubes than exist in the game; bounds untrusted input
MAX_THROWN = 200
MAX_X = (G.WIDTH + G.CUBE) * POS_SCALE   # a cube may rest in the exit opening

# Physics. The drop's shape depends on gravity * dt**2 (the distance a cube falls per step
# relative to its size), so gravity is "slow motion" against dt to keep a fast cube's
# travel per step well under a cube side, which is what keeps cubes from tunnelling.
DT = 1.0 / 60.0
GRAVITY = -900.0         # units/s**2 (the real 9810 would need ~3x more steps)
ITERATIONS = 8
COLLISION_SLOP = 0.1
DAMPING = 0.4            # fraction of velocity kept per second (air drag: caps speed)
CUBE_MASS = 1.0
CUBE_FRICTION = 0.4
CUBE_ELASTICITY = 0.3
WALL_FRICTION = 0.4
WALL_ELASTICITY = 0.4
CUBE_RADIUS = 0.4        # rounded corners: smoother contacts, same outer size

# Thrown cubes: a new row enters every `SPAWN_EVERY` steps once the row area is clear.
SPAWN_EVERY = 3
SPAWN_SPEED = (-60.0, -20.0)     # initial vertical speed range
SPAWN_SIDEWAYS = 25.0            # +- initial horizontal speed
SPAWN_SPIN = 8.0                 # +- initial angular velocity, rad/s

# Stop rule: every `REST_EVERY` steps, if every cube is idle for `REST_CHECKS` checks in
# a row (and every thrown cube has entered), stop. "Idle" is chipmunk's own sleep test,
# v**2 + (I/m) * w**2 <= REST_SPEED**2, so a cube chipmunk has put to sleep (and whose
# velocity it froze) always counts as idle.
REST_EVERY = 4
REST_CHECKS = 3
REST_SPEED = 4.0                 # units/s
STEP_CAP = 1500                  # 25 s of simulated time; never reached in practice
SLEEP_TIME = 0.3                 # chipmunk puts a group of cubes idle this long to sleep

FRAME_EVERY = max(1, round(1.0 / (60.0 * DT)))   # recording: one frame per 1/60 s

# Everything that shapes a drop besides the geometry: part of the self-test digest.
_PHYSICS = [DT, GRAVITY, ITERATIONS, COLLISION_SLOP, DAMPING, CUBE_MASS, CUBE_FRICTION,
            CUBE_ELASTICITY, WALL_FRICTION, WALL_ELASTICITY, CUBE_RADIUS, SPAWN_EVERY,
            list(SPAWN_SPEED), SPAWN_SIDEWAYS, SPAWN_SPIN, REST_EVERY, REST_CHECKS,
            REST_SPEED, STEP_CAP, SLEEP_TIME, POS_SCALE, ANGLE_SCALE]

_CUBE_TYPE = 1
_OUT_TYPE = 2


class TowerError(RuntimeError):
    """The simulation broke an invariant (a cube lost or outside the walls): a bug."""


@dataclass(frozen=True, order=True)
class Cube:
    """A cube inside the tower. x, y: 1/100 tower unit; angle: 1/4096 turn, [0, 4096)."""
    colour: int
    x: int
    y: int
    angle: int


def _check_int(value, lo: int, hi: int, what: str) -> int:
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

    def to_wire(self) -> list:
        return [[c.colour, c.x, c.y, c.angle] for c in self.cubes]

    @classmethod
    def from_wire(cls, obj) -> "TowerContents":
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
            cubes.append(Cube(
                _check_int(colour, 0, PEASANT, f"tower cube {i} colour"),
                _check_int(x, 0, MAX_X, f"tower cube {i} x"),
                _check_int(y, 0, G.TOP * POS_SCALE, f"tower cube {i} y"),
                _check_int(angle, 0, ANGLE_SCALE - 1, f"tower cube {i} angle")))
        return cls(tuple(cubes))

    def counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in self.cubes:
            out[c.colour] = out.get(c.colour, 0) + 1
        return out

    def __len__(self) -> int:
        return len(self.cubes)


EMPTY = TowerContents()


@dataclass(frozen=True)
class Recording:
    """Poses for animation, one frame per `1/fps` s of simulated time.

    `colours[i]` is cube i's colour; cubes 0..`inside_before`-1 are the contents before
    the drop (in `TowerContents` order), the rest are thrown cubes in entry order.
    `frames[f][i]` is `(x, y, angle)` in tower units / radians (y up, counter-clockwise),
    or None while cube i has not entered yet or after it has gone out.
    `entered[i]` / `exited[i]` give the frame a cube appeared / left through the exit
    (None: was inside from the start / stayed inside). The last frame is the final state.
    `spilled` lists cubes that never entered because the funnel was jammed full; they
    count as out (rare: only with an overfull tower).
    """
    fps: int
    colours: tuple[int, ...]
    inside_before: int
    frames: tuple[tuple[tuple[float, float, float] | None, ...], ...]
    entered: tuple[int | None, ...]
    exited: tuple[int | None, ...]
    spilled: tuple[int, ...] = ()    # colours that never got in (funnel full): out at once


@dataclass(frozen=True)
class DropResult:
    out: dict[int, int]              # colour -> cubes out onto the tray (nonzero only)
    contents: TowerContents          # the new contents
    steps: int                       # simulation steps taken
    recording: Recording | None
    released: int = 0                # cubes that were inside before and came out


GEOMETRY = G.as_data()


def _quantise(colour: int, x: float, y: float, angle: float) -> Cube:
    turn = angle / (2.0 * math.pi)
    angle = round((turn - math.floor(turn)) * ANGLE_SCALE) % ANGLE_SCALE
    qx = min(max(round(x * POS_SCALE), 0), MAX_X)
    qy = min(max(round(y * POS_SCALE), 0), G.TOP * POS_SCALE)
    return Cube(colour, qx, qy, angle)


def _inside_bounds(x: float, y: float) -> bool:
    """A cube's centre must stay where a cube can physically be: inside the walls."""
    half = G.CUBE / 2.0
    right = G.OUT_ZONE[0][0] + half if y < G.EXIT_TOP else G.WIDTH - half * 0.5
    return (half * 0.5 <= x <= right and
            G.EXIT_BOTTOM - half <= y <= G.TOP - half * 0.5)


def _build_space() -> pymunk.Space:
    space = pymunk.Space()
    space.gravity = (0.0, GRAVITY)
    space.iterations = ITERATIONS
    space.collision_slop = COLLISION_SLOP
    space.damping = DAMPING
    space.sleep_time_threshold = SLEEP_TIME
    space.idle_speed_threshold = REST_SPEED
    static = space.static_body
    for a, b in G.ALL_SEGMENTS:
        seg = pymunk.Segment(static, a, b, G.WALL_RADIUS)
        seg.friction = WALL_FRICTION
        seg.elasticity = WALL_ELASTICITY
        space.add(seg)
    (x0, y0), (x1, y1) = G.OUT_ZONE
    zone = pymunk.Poly(static, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    zone.sensor = True
    zone.collision_type = _OUT_TYPE
    space.add(zone)
    return space


_MOMENT = pymunk.moment_for_box(CUBE_MASS, (G.CUBE, G.CUBE))
_SPIN_WEIGHT = _MOMENT / CUBE_MASS
_REST_SQ = REST_SPEED * REST_SPEED


def _add_cube(space: pymunk.Space, x: float, y: float, angle: float) -> tuple[pymunk.Body, pymunk.Shape]:
    body = pymunk.Body(CUBE_MASS, _MOMENT)
    body.position = (x, y)
    body.angle = angle
    inner = G.CUBE - 2 * CUBE_RADIUS
    shape = pymunk.Poly.create_box(body, (inner, inner), CUBE_RADIUS)
    shape.friction = CUBE_FRICTION
    shape.elasticity = CUBE_ELASTICITY
    shape.collision_type = _CUBE_TYPE
    space.add(body, shape)
    return body, shape


def _tear_down(space: pymunk.Space, bodies: list, shapes: list, live: list) -> None:
    """Take every shape out of the space and off its body before they are dropped.

    pymunk bodies hold a cffi handle to themselves, so bodies, shapes and the space are
    freed by the cycle collector, in no particular order, and a shape freed after its
    body would touch freed memory (a rare segfault, reproduced under GC pressure). A
    shape with no space and no body is safe to free in any order.
    """
    for i, body in enumerate(bodies):
        if live[i]:
            space.remove(body, shapes[i])
    statics = list(space.static_body.shapes)    # a set, but the outcome is already fixed
    space.remove(*statics)
    for shape in shapes + statics:
        shape.body = None


_BUFFERS: list[pymunk.batch.Buffer] = []  # a pool: pymunk never frees a Buffer's arrays


def _velocity_buffer() -> pymunk.batch.Buffer:
    """Borrow a batch buffer (list.pop is atomic, so drops on two threads never share one)."""
    try:
        return _BUFFERS.pop()
    except IndexError:
        return pymunk.batch.Buffer()


def _return_buffer(buffer: pymunk.batch.Buffer) -> None:
    _BUFFERS.append(buffer)


def _throw_order(thrown: Mapping[int, int], stream: ChanceStream) -> list[int]:
    """Colours of the thrown cubes in the order they enter: a seeded shuffle."""
    colours: list[int] = []
    for colour in sorted(thrown):
        _check_int(colour, 0, PEASANT, "thrown colour")
        n = _check_int(thrown[colour], 0, MAX_THROWN, f"thrown count of colour {colour}")
        colours.extend([colour] * n)
    if len(colours) > MAX_THROWN:
        raise ValueError(f"at most {MAX_THROWN} cubes can be thrown at once")
    return stream.shuffle(colours)


def drop(contents: TowerContents, thrown: Mapping[int, int], seed: bytes,
         record: bool = False) -> DropResult:
    """Throw cubes into the tower; return what came out and what is now inside."""
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise ValueError(f"a tower drop needs a {SEED_BYTES}-byte chance seed")
    stream = ChanceStream(derive_seed(bytes(seed), "tower"))
    to_throw = _throw_order(thrown, stream)
    space = _build_space()

    colours: list[int] = []
    bodies: list[pymunk.Body] = []
    shapes: list[pymunk.Shape] = []
    index_of: dict[pymunk.Shape, int] = {}
    for cube in contents.cubes:
        body, shape = _add_cube(space, cube.x / POS_SCALE, cube.y / POS_SCALE,
                                cube.angle * (2.0 * math.pi / ANGLE_SCALE))
        index_of[shape] = len(bodies)
        colours.append(cube.colour)
        bodies.append(body)
        shapes.append(shape)
    inside_before = len(bodies)

    live = [True] * inside_before          # in the space (not out, not waiting to enter)
    entered_at: list[int | None] = [None] * inside_before
    exited_at: list[int | None] = [None] * inside_before
    reached_out: list[int] = []

    def on_out(arbiter, _space, _data) -> bool:
        cube_shape = arbiter.shapes[0]
        reached_out.append(index_of[cube_shape])
        return False

    space.add_collision_handler(_CUBE_TYPE, _OUT_TYPE).begin = on_out

    frames: list[tuple] = []

    def snapshot() -> None:
        frame = []
        for i, body in enumerate(bodies):
            if live[i]:
                x, y = body.position
                frame.append((x, y, body.angle))
            else:
                frame.append(None)
        frames.append(tuple(frame))

    next_thrown = 0
    slots = G.ENTRY_SLOTS
    row_bb = pymunk.BB(0, G.ENTRY_Y - G.CUBE * 1.2, G.WIDTH, G.TOP)
    cube_filter = pymunk.ShapeFilter()
    velocities = _velocity_buffer()
    fields = pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY
    calm_checks = 0
    steps = 0
    spilled: list[int] = []

    def entry_blocked() -> bool:
        return any(s.collision_type == _CUBE_TYPE
                   for s in space.bb_query(row_bb, cube_filter))

    if record:
        snapshot()
    while steps < STEP_CAP:
        if next_thrown < len(to_throw) and steps % SPAWN_EVERY == 0:
            blocked = entry_blocked()
            if not blocked:
                row = to_throw[next_thrown:next_thrown + len(slots)]
                row_slots = sorted(stream.sample(range(len(slots)), len(row)))
                for colour, slot in zip(row, row_slots):
                    x = slots[slot] + stream.uniform(-G.ENTRY_JITTER, G.ENTRY_JITTER)
                    body, shape = _add_cube(space, x, float(G.ENTRY_Y),
                                            stream.uniform(0.0, 2.0 * math.pi))
                    body.velocity = (stream.uniform(-SPAWN_SIDEWAYS, SPAWN_SIDEWAYS),
                                     stream.uniform(*SPAWN_SPEED))
                    body.angular_velocity = stream.uniform(-SPAWN_SPIN, SPAWN_SPIN)
                    index_of[shape] = len(bodies)
                    colours.append(colour)
                    bodies.append(body)
                    shapes.append(shape)
                    live.append(True)
                    entered_at.append(len(frames))
                    exited_at.append(None)
                next_thrown += len(row)
        space.step(DT)
        steps += 1
        if reached_out:
            for i in reached_out:
                if live[i]:
                    live[i] = False
                    exited_at[i] = len(frames)
                    space.remove(bodies[i], shapes[i])
            reached_out.clear()
        if record and steps % FRAME_EVERY == 0:
            snapshot()
        if steps % REST_EVERY == 0:
            velocities.clear()
            pymunk.batch.get_space_bodies(space, fields, velocities)
            v = memoryview(velocities.float_buf()).cast("d")
            calm = True
            for k in range(0, len(v), 3):
                if v[k] * v[k] + v[k + 1] * v[k + 1] + _SPIN_WEIGHT * v[k + 2] * v[k + 2] > _REST_SQ:
                    calm = False
                    break
            calm_checks = calm_checks + 1 if calm else 0
            if calm_checks >= REST_CHECKS:
                if next_thrown == len(to_throw):
                    break
                if entry_blocked():
                    # The tower is full up to the funnel and nothing moves: the rest of
                    # the handful rolls off the top onto the tray.
                    spilled = to_throw[next_thrown:]
                    next_thrown = len(to_throw)
                    break
    if record and steps % FRAME_EVERY != 0:
        snapshot()
    poses = [body.position if live[i] else None for i, body in enumerate(bodies)]
    angles = [body.angle if live[i] else 0.0 for i, body in enumerate(bodies)]
    _tear_down(space, bodies, shapes, live)
    index_of.clear()
    velocities.clear()
    _return_buffer(velocities)

    out: dict[int, int] = {}
    inside: list[Cube] = []
    released = 0
    for i, pose in enumerate(poses):
        if pose is not None:
            x, y = pose
            if not _inside_bounds(x, y):
                raise TowerError(f"cube {i} left the tower at ({x:.2f}, {y:.2f})")
            inside.append(_quantise(colours[i], x, y, angles[i]))
        else:
            out[colours[i]] = out.get(colours[i], 0) + 1
            released += i < inside_before
    for colour in spilled:
        out[colour] = out.get(colour, 0) + 1
    if next_thrown < len(to_throw):       # the step cap struck before they could enter
        for colour in to_throw[next_thrown:]:
            out[colour] = out.get(colour, 0) + 1
    if len(inside) + sum(out.values()) != inside_before + len(to_throw):
        raise TowerError("cube count not conserved")

    recording = None
    if record:
        total = len(bodies)        # cubes thrown later are None in earlier frames
        recording = Recording(
            fps=round(1.0 / (DT * FRAME_EVERY)), colours=tuple(colours),
            inside_before=inside_before,
            frames=tuple(f + (None,) * (total - len(f)) for f in frames),
            entered=tuple(entered_at), exited=tuple(exited_at),
            spilled=tuple(to_throw[len(colours) - inside_before:]))
    return DropResult(out=dict(sorted(out.items())), contents=TowerContents(tuple(inside)),
                      steps=steps, recording=recording, released=released)


def digest_of(result: DropResult) -> str:
    """A hash of a drop's outcome and final poses (what peers compare)."""
    payload = [sorted(result.out.items()), result.contents.to_wire(), result.steps]
    return hashlib.sha256(msgpack.packb(payload)).hexdigest()


def self_test_digest() -> str:
    """A canned tower fill then a battle drop, plus the geometry and physics settings.

    Peers compare it before a game: equal digests mean their pymunk builds and settings
    compute the same drops (a different chipmunk build or float behaviour shows here).
    """
    seed = hashlib.sha256(b"shogun tower self-test").digest()
    fill = drop(EMPTY, {0: 7, 1: 7, 2: 7, 3: 7, PEASANT: 10}, derive_seed(seed, "fill"))
    battle = drop(fill.contents, {1: 5, 3: 3, PEASANT: 1}, derive_seed(seed, "battle"))
    h = hashlib.sha256()
    h.update(msgpack.packb([GEOMETRY, _PHYSICS]))
    h.update(digest_of(fill).encode())
    h.update(digest_of(battle).encode())
    return h.hexdigest()


def settle(decision) -> "TowerSettled":
    """The outcome of the drop a `tower` decision waits for, computed with the physics.

    The decision's detail holds everything the drop depends on: the contents before, the
    cubes thrown (per colour) and the seed. A local game answers with this at once; peers
    each compute it and agree on it (net).
    """
    from sim.commands import TowerSettled
    detail = decision.detail
    before = TowerContents.from_wire(detail["before"])
    thrown = {c: n for c, n in enumerate(detail["thrown"]) if n}
    result = drop(before, thrown, bytes(detail["seed"]))
    out = tuple((c, n) for c, n in sorted(result.out.items()) if n)
    return TowerSettled(out, result.contents)
