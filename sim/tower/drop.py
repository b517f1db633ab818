"""The battle tower: a deterministic 2D pymunk simulation of cubes tumbling through it.

Why it is built this way:

* **The outcome is an input.** `outcome(before, thrown, seed)` computes a drop's outcome
  (the cubes out and the new contents); the engine applies whatever outcome the table
  agreed on. The same seed on the same physics build always gives the same outcome; a
  CPU, libm or compiler that rounds differently may give another, which is why peers
  vote on outcome digests instead of trusting identical arithmetic
  (`canary_digest` tells whether this table's machines round alike).
* **Nothing physical survives between drops.** The contents are integer poses
  (`TowerContents`); each drop builds fresh `pymunk.Space`s from them in canonical order,
  with fixed dt and solver settings and a deterministic stop rule. Chance enters only
  through the drop's 32-byte seed, expanded by `sim.chance.ChanceStream`.
* **Stable between battles.** A drop ends with settle passes: the quantised contents are
  rebuilt and left to rest with nothing thrown; whatever falls out then is out of *this*
  drop, and the contents kept are the input of the first pass that released nothing. So
  a later drop with nothing thrown, which is exactly such a pass, releases nothing.
* **No cube counts as out unless it left through the exit.** A jam at the funnel is
  cleared by shaking the tower (`sim.tower.run`), shown in the recording (`shakes`).
* **Animation.** `drop(..., record=True)` reads poses after steps and never writes to the
  space, so the recorded run and the plain run are the same computation.

Units and coordinates are in `sim.tower.geometry`; the physics settings, the materials
and their fingerprint in `sim.tower.physics`; one simulation run in `sim.tower.run`.

Tests: tests/sim/tower/test_drop.py, tests/sim/tower/test_crosscpu.py.
"""

from __future__ import annotations

import hashlib
import math
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, NamedTuple

import msgpack
import pymunk
import pymunk.batch

from sim.chance import SEED_BYTES, ChanceStream, derive_seed
from sim.commands import TowerSettled
from sim.tower import geometry as G
from sim.tower import physics as P
from sim.tower.contents import (ANGLE_SCALE, COLOURS, EMPTY, MAX_CUBES, MAX_X, PEASANT,
                                POS_SCALE, Cube, TowerContents, inside_tower)
from sim.tower.physics import DT, FRAME_EVERY, ITERATIONS, STEP_CAP, physics_fingerprint
from sim.tower.run import Run, simulate

if TYPE_CHECKING:
    from sim.state import Decision

# The tower's one import for its callers: the contents' and physics' names are re-exported.
# (Not for `sim.state` and `sim.commands`: they import `sim.tower.contents`, which needs no
# pymunk, so the game state and its commands load without the physics.)
__all__ = ["ANGLE_SCALE", "COLOURS", "Cube", "DT", "DropResult", "EMPTY", "FRAME_EVERY",
           "GEOMETRY", "ITERATIONS", "MAX_CUBES", "MAX_THROWN", "MAX_X", "PEASANT",
           "POS_SCALE", "Recording", "STEP_CAP", "Settled", "TowerContents", "TowerError",
           "canary_digest", "digest_of", "drop", "inside_tower", "outcome",
           "physics_fingerprint", "self_test_digest", "settle"]

MAX_THROWN = 200
GEOMETRY = G.as_data()


class TowerError(RuntimeError):
    """The simulation broke an invariant (a cube lost or outside the walls): a bug."""


@dataclass(frozen=True)
class Recording:
    """Poses for animation, one frame per `1/fps` s of simulated time.

    `colours[i]` is cube i's colour; cubes 0..`inside_before`-1 are the contents before
    the drop (in `TowerContents` order), the rest are thrown cubes in entry order.
    `frames[f][i]` is `(x, y, angle)` in tower units / radians (y up, counter-clockwise),
    or None while cube i has not entered yet or after it has gone out.
    `entered[i]` / `exited[i]` give the frame a cube appeared / left through the exit
    (None: was inside from the start / stayed inside). The last frame is the final state
    (the new contents' quantised poses).
    `shakes` lists the frames at which the tower was shaken to clear a jam at the funnel
    (every cube gets a kick then; a client may shake the drawing).
    `settle_frame` is the first frame of the settle passes (None: no pass released a
    cube, so they are not shown).
    `spilled` lists cubes that never got in before the step cap (a guard: never seen).
    """
    fps: int
    colours: tuple[int, ...]
    inside_before: int
    frames: tuple[tuple[tuple[float, float, float] | None, ...], ...]
    entered: tuple[int | None, ...]
    exited: tuple[int | None, ...]
    spilled: tuple[int, ...] = ()
    shakes: tuple[int, ...] = ()
    settle_frame: int | None = None


@dataclass(frozen=True)
class DropResult:
    out: dict[int, int]              # colour -> cubes out onto the tray (nonzero only)
    contents: TowerContents          # the new contents
    steps: int                       # simulation steps taken (all runs of the drop)
    recording: Recording | None
    released: int = 0                # cubes that were inside before and came out
    origin: tuple[int | None, ...] = ()   # per new cube: its index in the old contents,
                                          # None if it was thrown in this drop
    shakes: int = 0                  # times the tower was shaken to clear a jam
    settle_released: int = 0         # cubes that came out during the settle passes
    spilled: int = 0                 # cubes never thrown in (step-cap guard; never seen)
    settle_steps: int = 0            # steps of the settle passes (a pass that releases
                                     # nothing is not in the recording)


class Settled(NamedTuple):
    """A drop's outcome, what the engine's `TowerSettled` carries."""
    out: dict[int, int]
    contents: TowerContents


def _quantise(colour: int, x: float, y: float, angle: float) -> Cube:
    turn = angle / (2.0 * math.pi)
    angle_q = round((turn - math.floor(turn)) * ANGLE_SCALE) % ANGLE_SCALE
    qx = min(max(round(x * POS_SCALE), 0), MAX_X)
    qy = min(max(round(y * POS_SCALE), 0), G.TOP * POS_SCALE)
    return Cube(colour, qx, qy, angle_q)


def _pose_of(cube: Cube) -> tuple[int, float, float, float]:
    return (cube.colour, cube.x / POS_SCALE, cube.y / POS_SCALE,
            cube.angle * (2.0 * math.pi / ANGLE_SCALE))


def _throw_order(thrown: Mapping[int, int], stream: ChanceStream) -> list[int]:
    """Colours of the thrown cubes in the order they enter: a seeded shuffle."""
    colours: list[int] = []
    for colour in sorted(thrown):
        _check_colour(colour)
        n = thrown[colour]
        if type(n) is not int or not 0 <= n <= MAX_THROWN:
            raise ValueError(f"thrown count of colour {colour} must be an int in "
                             f"[0, {MAX_THROWN}], got {n!r}")
        colours.extend([colour] * n)
    if len(colours) > MAX_THROWN:
        raise ValueError(f"at most {MAX_THROWN} cubes can be thrown at once")
    return stream.shuffle(colours)


def _check_colour(colour: object) -> None:
    if type(colour) is not int or not 0 <= colour <= PEASANT:
        raise ValueError(f"thrown colour must be an int in [0, {PEASANT}], got {colour!r}")


class _Tape:
    """The drop's recording, stitched together from its runs (ids are recording indices)."""

    def __init__(self, colours: list[int]) -> None:
        self.colours = list(colours)
        self.frames: list[dict[int, tuple[float, float, float]]] = []
        self.entered: list[int | None] = [None] * len(colours)
        self.exited: list[int | None] = [None] * len(colours)
        self.shakes: list[int] = []

    def add_run(self, run: Run, ids: list[int]) -> None:
        base = len(self.frames)
        for k in range(len(ids), len(run.colours)):     # thrown cubes get new ids
            ids.append(len(self.colours))
            self.colours.append(run.colours[k])
            entered = run.entered[k]
            assert entered is not None          # a thrown cube has entered
            self.entered.append(base + entered)
            self.exited.append(None)
        for frame in run.frames:
            self.frames.append({ids[k]: pose for k, pose in enumerate(frame) if pose})
        for k, exited in enumerate(run.exited):
            if exited is not None:
                self.exited[ids[k]] = base + exited
        self.shakes.extend(base + f for f in run.shakes)

    def finish(self, inside_before: int, final: list[tuple[int, Cube]], spilled: list[int],
               settle_frame: int | None) -> Recording:
        last = {i: _pose_of(c)[1:] for i, c in final}
        self.frames.append(last)
        n = len(self.colours)
        return Recording(
            fps=round(1.0 / (DT * FRAME_EVERY)), colours=tuple(self.colours),
            inside_before=inside_before,
            frames=tuple(tuple(f.get(i) for i in range(n)) for f in self.frames),
            entered=tuple(self.entered), exited=tuple(self.exited),
            spilled=tuple(spilled), shakes=tuple(self.shakes), settle_frame=settle_frame)


def drop(contents: TowerContents, thrown: Mapping[int, int], seed: bytes,
         record: bool = False) -> DropResult:
    """Throw cubes into the tower; return what came out and what is now inside."""
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise ValueError(f"a tower drop needs a {SEED_BYTES}-byte chance seed")
    if not isinstance(thrown, Mapping):
        raise ValueError("thrown cubes must be a mapping {colour: count}")
    stream = ChanceStream(derive_seed(bytes(seed), "tower"))
    to_throw = _throw_order(thrown, stream)
    before = contents.cubes
    tape = _Tape([c.colour for c in before]) if record else None
    outcome: list[int] = []           # colours out, in any order
    released = steps = shakes = settle_released = settle_steps = 0

    # current: (recording id, cube) of the cubes inside, ids 0.. are the old contents
    current = list(enumerate(before))
    if to_throw:
        ids = [i for i, _ in current]
        run = simulate([_pose_of(c) for _, c in current], to_throw, stream, record)
        steps += run.steps
        shakes += len(run.shakes)
        if tape is not None:
            tape.add_run(run, ids)
        else:
            ids.extend(range(len(before), len(run.colours)))
        current = []
        for k, pose in enumerate(run.poses):
            if pose is None:
                outcome.append(run.colours[k])
                released += k < len(before)
            else:
                if not inside_tower(pose[0], pose[1]):
                    raise TowerError(f"cube {k} left the tower at ({pose[0]:.2f}, {pose[1]:.2f})")
                current.append((ids[k], _quantise(run.colours[k], *pose)))
        spilled = run.not_entered
        outcome.extend(spilled)
    else:
        spilled = []

    # settle passes: keep the input of the first pass that releases nothing
    settle_frame = None
    for _ in range(P.SETTLE_PASSES):
        current.sort(key=lambda item: item[1])
        run = simulate([_pose_of(c) for _, c in current], [], None, record)
        steps += run.steps
        settle_steps += run.steps
        if all(pose is not None for pose in run.poses):
            break
        if tape is not None:
            if settle_frame is None:
                settle_frame = len(tape.frames)
            tape.add_run(run, [i for i, _ in current])
        survivors = []
        for k, pose in enumerate(run.poses):
            rec_id, cube = current[k]
            if pose is None:
                outcome.append(cube.colour)
                settle_released += 1
                released += rec_id < len(before)
            else:
                survivors.append((rec_id, _quantise(cube.colour, *pose)))
        current = survivors
    current.sort(key=lambda item: item[1])

    out: dict[int, int] = {}
    for colour in outcome:
        out[colour] = out.get(colour, 0) + 1
    if len(current) + len(outcome) != len(before) + len(to_throw):
        raise TowerError("cube count not conserved")
    new = TowerContents(tuple(c for _, c in current))
    recording = (tape.finish(len(before), current, spilled, settle_frame)
                 if tape is not None else None)
    origin = tuple(i if i < len(before) else None for i, _ in current)
    return DropResult(out=dict(sorted(out.items())), contents=new, steps=steps,
                      recording=recording, released=released, origin=origin,
                      shakes=shakes, settle_released=settle_released,
                      settle_steps=settle_steps, spilled=len(spilled))


def outcome(before: TowerContents, thrown: Mapping[int, int], seed: bytes) -> Settled:
    """A drop's outcome as the engine's `TowerSettled` needs it: cubes out, new contents."""
    result = drop(before, thrown, seed)
    return Settled(result.out, result.contents)


def digest_of(result: DropResult | Settled) -> str:
    """A hash of a drop's outcome (what peers vote on): the cubes out and the contents."""
    payload = [sorted(result.out.items()), result.contents.to_wire()]
    return hashlib.sha256(msgpack.packb(payload)).hexdigest()


def self_test_digest() -> str:
    """What decides the game on this machine's side: geometry, physics settings, pymunk
    and chipmunk versions (`physics_fingerprint`). Peers compare it before a game; a
    different value means a different program, so drops are not comparable at all.
    It holds no float result on purpose: machines that round differently are welcome
    (outcomes are voted on); `canary_digest` tells whether they round alike."""
    return P.fingerprint_digest()


_CANARY_FIELDS = (pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.ANGLE |
                  pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)


def canary_digest() -> str:
    """A hash of the raw floats of a fixed long drop: every body's exact position, angle,
    velocity and angular velocity after every step, as little-endian doubles.

    A fill of 38 cubes into the empty tower, then 40 more thrown onto the (unquantised)
    pile: thousands of contacts, so any difference in rounding (libm, FMA, compiler)
    shows. Equal canaries across a table mean its machines compute drops identically;
    unequal ones mean drop outcomes may differ and are agreed by vote.
    """
    h = hashlib.sha256(P.fingerprint_digest().encode())
    buffer = pymunk.batch.Buffer()

    def probe(space: pymunk.Space) -> None:
        buffer.clear()
        pymunk.batch.get_space_bodies(space, _CANARY_FIELDS, buffer)
        floats = memoryview(buffer.float_buf()).cast("d")
        h.update(struct.pack(f"<{len(floats)}d", *floats))

    base = hashlib.sha256(b"shogun tower canary").digest()
    fill = simulate([], ChanceStream(base).shuffle([0] * 7 + [1] * 7 + [2] * 7 + [3] * 7 +
                                                   [PEASANT] * 10),
                    ChanceStream(derive_seed(base, "fill")), probe=probe)
    start = [(fill.colours[k], *pose) for k, pose in enumerate(fill.poses) if pose]
    simulate(start, [k % 5 for k in range(40)], ChanceStream(derive_seed(base, "big")),
             probe=probe)
    for pose in fill.poses:
        if pose:
            h.update(struct.pack("<3d", *pose))
    return h.hexdigest()


def settle(decision: Decision) -> TowerSettled:
    """The outcome of the drop a `tower` decision waits for, computed with the physics.

    The decision's detail holds everything the drop depends on: the contents before, the
    cubes thrown (per colour) and the seed. A local game answers with this at once; peers
    each compute it and agree on it (net).
    """
    detail = decision.detail
    before = TowerContents.from_wire(detail["before"])
    thrown = {c: n for c, n in enumerate(detail["thrown"]) if n}
    result = outcome(before, thrown, bytes(detail["seed"]))
    return TowerSettled(tuple((c, n) for c, n in sorted(result.out.items()) if n),
                        result.contents)
