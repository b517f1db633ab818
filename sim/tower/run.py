"""One simulation run of the tower: cubes resting inside, cubes thrown in, step until rest.

A drop (`sim.tower.drop.drop`) is one run with the thrown cubes and then one or more settle
runs with nothing thrown. A run never outlives its `Space`: it takes float poses in and
gives float poses out, so the caller decides what is quantised and kept.

Why the loop looks like this:

* **Speed.** Cubes that reach the tray are removed at once, resting piles fall asleep
  (chipmunk skips them), the rest test is a batched velocity read every few steps.
* **Entry.** Thrown cubes enter in rows of up to four above the funnel, a row whenever
  the entry area is clear, as if poured from a hand; slot, jitter, spin and speed come
  from the seed.
* **Shakes.** If everything rests while cubes are still in hand and the entry is
  blocked (a jam at the funnel), or while more than `CLOGGED_ABOVE` cubes are inside
  after a big throw (a clog), the tower is shaken as a player would knock it: every cube
  gets a seeded kick, stronger with each further shake (a clog gets at most
  `CLOG_SHAKES`). A cube only ever leaves through the exit.
* **Recording** reads poses and never writes to the space, so a recorded run and a
  plain run are the same computation.

Tests: tests/sim/tower/test_drop.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import pymunk
import pymunk.batch

from sim.tower import geometry as G
from sim.tower import physics as P
from sim.chance import ChanceStream

Pose = tuple[float, float, float]

_REST_SQ = P.REST_SPEED * P.REST_SPEED
_BUFFERS: list[pymunk.batch.Buffer] = []  # a pool: pymunk never frees a Buffer's arrays


@dataclass
class Run:
    """What one run did, indexed by body: the starting cubes first, then thrown cubes in
    entry order. Frame numbers count this run's own frames."""
    colours: list[int]
    poses: list[Pose | None] = field(default_factory=list)     # None: went out
    entered: list[int | None] = field(default_factory=list)    # frame a thrown cube appeared
    exited: list[int | None] = field(default_factory=list)     # frame a cube went out
    frames: list[tuple[Pose | None, ...]] = field(default_factory=list)
    shakes: list[int] = field(default_factory=list)            # frames of the shakes
    steps: int = 0
    not_entered: list[int] = field(default_factory=list)       # colours (step-cap guard)


def _tear_down(space: pymunk.Space, bodies: list[pymunk.Body], shapes: list[pymunk.Shape],
               live: list[bool]) -> None:
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


def _borrow_buffer() -> pymunk.batch.Buffer:
    """list.pop is atomic, so drops on two threads never share a buffer."""
    try:
        return _BUFFERS.pop()
    except IndexError:
        return pymunk.batch.Buffer()


_REST_FIELDS = pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY


def _all_calm(space: pymunk.Space, velocities: pymunk.batch.Buffer) -> bool:
    """Whether every body in the tower moves and spins slower than rest: read in one batch
    call (per-body attribute reads cost more than the step at these counts)."""
    velocities.clear()
    pymunk.batch.get_space_bodies(space, _REST_FIELDS, velocities)
    v = memoryview(velocities.float_buf()).cast("d")
    for k in range(0, len(v), 3):
        if v[k] * v[k] + v[k + 1] * v[k + 1] + P.SPIN_WEIGHT * v[k + 2] * v[k + 2] > _REST_SQ:
            return False
    return True


def _poses(bodies: Sequence[pymunk.Body], live: Sequence[bool]) -> list[Pose | None]:
    """Each cube's (x, y, angle), or None for a cube that has left the tower."""
    return [(b.position.x, b.position.y, b.angle) if live[i] else None
            for i, b in enumerate(bodies)]


def simulate(start: Sequence[tuple[int, float, float, float]], to_throw: Sequence[int],
             stream: ChanceStream | None, record: bool = False,
             probe: Callable[[pymunk.Space], None] | None = None) -> Run:
    """Run the tower from `start` (colour, x, y, angle) with `to_throw` (colours in entry
    order) until everything rests. `probe(space)` is called after every step (the
    raw-float canary uses it; it must not write to the space)."""
    if to_throw and stream is None:
        raise ValueError("throwing cubes needs a chance stream")
    space = P.build_space()
    run = Run(colours=[c for c, *_ in start])
    bodies: list[pymunk.Body] = []
    shapes: list[pymunk.Shape] = []
    index_of: dict[pymunk.Shape, int] = {}
    for colour, x, y, angle in start:
        body, shape = P.add_cube(space, x, y, angle)
        index_of[shape] = len(bodies)
        bodies.append(body)
        shapes.append(shape)
    live = [True] * len(bodies)
    run.entered = [None] * len(bodies)
    run.exited = [None] * len(bodies)
    reached_out: list[int] = []

    def on_out(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> bool:
        reached_out.append(index_of[arbiter.shapes[0]])
        return False

    space.add_collision_handler(P.CUBE_TYPE, P.OUT_TYPE).begin = on_out

    def snapshot() -> None:
        run.frames.append(tuple(_poses(bodies, live)))

    slots = G.ENTRY_SLOTS
    row_bb = pymunk.BB(0, G.ENTRY_Y - G.CUBE * 1.2, G.WIDTH, G.TOP)
    cube_filter = pymunk.ShapeFilter()

    def entry_blocked() -> bool:
        return any(s.collision_type == P.CUBE_TYPE
                   for s in space.bb_query(row_bb, cube_filter))

    def shake(stream: ChanceStream) -> None:
        strength = min(1.0 + P.SHAKE_GROWTH * len(run.shakes), P.SHAKE_MAX)
        side = strength * (P.SHAKE_SIDEWAYS if stream.below(2) else -P.SHAKE_SIDEWAYS)
        run.shakes.append(len(run.frames))
        for i, body in enumerate(bodies):
            if live[i]:
                body.activate()
                vx, vy = body.velocity
                body.velocity = (vx + side * stream.uniform(0.5, 1.0),
                                 vy + strength * P.SHAKE_UP * stream.uniform(0.5, 1.0))
                body.angular_velocity += stream.uniform(-P.SHAKE_SPIN, P.SHAKE_SPIN)

    next_thrown = 0
    velocities = _borrow_buffer()
    calm_checks = 0
    steps = 0
    if record:
        snapshot()
    while steps < P.STEP_CAP:
        if next_thrown < len(to_throw) and steps % P.SPAWN_EVERY == 0 and not entry_blocked():
            assert stream is not None    # cubes to throw come with a stream (checked above)
            row = to_throw[next_thrown:next_thrown + len(slots)]
            row_slots = sorted(stream.sample(range(len(slots)), len(row)))
            for colour, slot in zip(row, row_slots):
                x = slots[slot] + stream.uniform(-G.ENTRY_JITTER, G.ENTRY_JITTER)
                body, shape = P.add_cube(space, x, float(G.ENTRY_Y),
                                         stream.uniform(0.0, 2.0 * math.pi))
                body.velocity = (stream.uniform(-P.SPAWN_SIDEWAYS, P.SPAWN_SIDEWAYS),
                                 stream.uniform(*P.SPAWN_SPEED))
                body.angular_velocity = stream.uniform(-P.SPAWN_SPIN, P.SPAWN_SPIN)
                index_of[shape] = len(bodies)
                run.colours.append(colour)
                bodies.append(body)
                shapes.append(shape)
                live.append(True)
                run.entered.append(len(run.frames))
                run.exited.append(None)
            next_thrown += len(row)
            calm_checks = 0
        space.step(P.DT)
        steps += 1
        if reached_out:
            for i in reached_out:
                if live[i]:
                    live[i] = False
                    run.exited[i] = len(run.frames)
                    space.remove(bodies[i], shapes[i])
            reached_out.clear()
        if probe is not None:
            probe(space)
        if record and steps % P.FRAME_EVERY == 0:
            snapshot()
        if steps % P.REST_EVERY == 0:
            calm_checks = calm_checks + 1 if _all_calm(space, velocities) else 0
            if calm_checks >= P.REST_CHECKS:
                if next_thrown < len(to_throw):
                    if entry_blocked():          # a jam at the funnel: cubes in hand
                        assert stream is not None
                        shake(stream)
                        calm_checks = 0
                elif stream is not None and sum(live) > P.CLOGGED_ABOVE and \
                        len(run.shakes) < P.CLOG_SHAKES:
                    shake(stream)                # a clogged tower after a big throw
                    calm_checks = 0
                else:
                    break
    if record and steps % P.FRAME_EVERY != 0:
        snapshot()
    run.steps = steps
    run.poses = _poses(bodies, live)
    run.not_entered = list(to_throw[next_thrown:])
    _tear_down(space, bodies, shapes, live)
    index_of.clear()
    velocities.clear()
    _BUFFERS.append(velocities)
    return run
