"""The tower's materials and solver settings, the `Space` they build, and their fingerprint.

Why a module of its own: everything here decides a drop's outcome together with the
geometry, so it is all in one place, hashed into one description (`physics_fingerprint`)
that peers compare before a game (together with the pymunk and chipmunk versions).

Materials. Chipmunk combines two touching shapes' coefficients by **multiplying** them
(friction and elasticity alike), so a shape's own coefficient is not what a contact gets:
two cubes of friction 0.4 touch with 0.16. The numbers a player would recognise are the
effective ones, cube on cube and cube on wall, and the per-shape values are derived from
them: cube = sqrt(cube-on-cube), wall = cube-on-wall / cube. (`math.sqrt` is correctly
rounded by IEEE 754, so every machine derives the same shape values.)

Tests: tests/sim/tower/test_drop.py, tests/sim/tower/test_crosscpu.py.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import msgpack
import pymunk

from sim.tower import geometry as G
# The quantum belongs to the contents; it is part of the settings (hashed in `settings`).
from sim.tower.contents import ANGLE_SCALE as ANGLE_SCALE, POS_SCALE as POS_SCALE

# --- materials: the effective (combined) coefficients are the intent ------------------
CUBE_ON_CUBE_FRICTION = 0.45     # painted wood on painted wood
CUBE_ON_WALL_FRICTION = 0.35     # painted wood on the tower's smooth card: a cube slides
                                 # down the 30-degree ramp (tan 30 = 0.58 > 0.35)
CUBE_ON_CUBE_ELASTICITY = 0.25
CUBE_ON_WALL_ELASTICITY = 0.30

CUBE_FRICTION = math.sqrt(CUBE_ON_CUBE_FRICTION)
WALL_FRICTION = CUBE_ON_WALL_FRICTION / CUBE_FRICTION
CUBE_ELASTICITY = math.sqrt(CUBE_ON_CUBE_ELASTICITY)
WALL_ELASTICITY = CUBE_ON_WALL_ELASTICITY / CUBE_ELASTICITY

# --- solver -----------------------------------------------------------------------------
# The drop's shape depends on gravity * dt**2 (the distance a cube falls per step relative
# to its size), so gravity is "slow motion" against dt to keep a fast cube's travel per
# step well under a cube side, which is what keeps cubes from tunnelling.
DT = 1.0 / 60.0
GRAVITY = -900.0         # units/s**2 (the real 9810 would need ~3x more steps)
ITERATIONS = 8
COLLISION_SLOP = 0.1
DAMPING = 0.4            # fraction of velocity kept per second (air drag: caps speed)
CUBE_MASS = 1.0
CUBE_RADIUS = 0.4        # rounded corners: smoother contacts, same outer size
SLEEP_TIME = 0.3         # chipmunk puts a group of cubes idle this long to sleep

# --- thrown cubes: a new row enters every SPAWN_EVERY steps once the row area is clear ---
SPAWN_EVERY = 3
SPAWN_SPEED = (-60.0, -20.0)     # initial vertical speed range
SPAWN_SIDEWAYS = 25.0            # +- initial horizontal speed
SPAWN_SPIN = 8.0                 # +- initial angular velocity, rad/s

# --- stop rule: every REST_EVERY steps, if every cube is idle for REST_CHECKS checks in a
# row, the run is over. "Idle" is chipmunk's own sleep test, v**2 + (I/m) * w**2 <=
# REST_SPEED**2, so a cube chipmunk has put to sleep always counts as idle.
REST_EVERY = 4
REST_CHECKS = 3
REST_SPEED = 4.0                 # units/s
STEP_CAP = 3000                  # 50 s of simulated time: a guard, never reached in tests

# --- the shake: when the entry stays blocked while everything rests, or the tower holds
# more than CLOGGED_ABOVE cubes at rest after a throw, the tower is given a shake (the
# player knocks it): every cube gets a kick; shakes grow stronger while the jam holds.
# See docs/tower.md.
SHAKE_SIDEWAYS = 60.0            # +- horizontal kick, units/s, first shake
SHAKE_UP = 40.0                  # upward kick, first shake
SHAKE_SPIN = 6.0                 # +- spin, rad/s
SHAKE_GROWTH = 0.5               # each further shake in a drop is this much stronger...
SHAKE_MAX = 4.0                  # ...up to this many times the first
CLOGGED_ABOVE = 24               # more cubes than this resting inside after a throw: a clog
CLOG_SHAKES = 12                 # shakes at most for a clog (a jammed entry: until it clears)

# --- the settle pass at the end of every drop --------------------------------------------
SETTLE_PASSES = 8                # at most; each pass that releases a cube needs another

FRAME_EVERY = max(1, round(1.0 / (60.0 * DT)))   # recording: one frame per 1/60 s

CUBE_TYPE = 1
OUT_TYPE = 2


def settings() -> dict[str, Any]:
    """Every physics setting that shapes a drop, by name (plain data)."""
    return {
        "cube_on_cube_friction": CUBE_ON_CUBE_FRICTION,
        "cube_on_wall_friction": CUBE_ON_WALL_FRICTION,
        "cube_on_cube_elasticity": CUBE_ON_CUBE_ELASTICITY,
        "cube_on_wall_elasticity": CUBE_ON_WALL_ELASTICITY,
        "shape_friction": [CUBE_FRICTION, WALL_FRICTION],
        "shape_elasticity": [CUBE_ELASTICITY, WALL_ELASTICITY],
        "dt": DT, "gravity": GRAVITY, "iterations": ITERATIONS,
        "collision_slop": COLLISION_SLOP, "damping": DAMPING, "cube_mass": CUBE_MASS,
        "cube_radius": CUBE_RADIUS, "sleep_time": SLEEP_TIME,
        "spawn": [SPAWN_EVERY, list(SPAWN_SPEED), SPAWN_SIDEWAYS, SPAWN_SPIN],
        "rest": [REST_EVERY, REST_CHECKS, REST_SPEED, STEP_CAP],
        "shake": [SHAKE_SIDEWAYS, SHAKE_UP, SHAKE_SPIN, SHAKE_GROWTH, SHAKE_MAX,
                  CLOGGED_ABOVE, CLOG_SHAKES],
        "settle_passes": SETTLE_PASSES,
        "quantum": [POS_SCALE, ANGLE_SCALE],
    }


def physics_fingerprint() -> dict[str, Any]:
    """What decides a drop besides its inputs: geometry, settings, engine versions.

    Floats appear as their exact IEEE value (msgpack stores doubles bit for bit), so two
    machines whose fingerprints hash equally run the same program on the same numbers;
    whether their CPUs then round the same is what `sim.tower.drop.canary_digest` tells.
    """
    return {
        "geometry": G.as_data(),
        "physics": settings(),
        "pymunk": pymunk.version,
        "chipmunk": pymunk.chipmunk_version,
    }


def fingerprint_digest() -> str:
    return hashlib.sha256(msgpack.packb(physics_fingerprint())).hexdigest()


def build_space() -> pymunk.Space:
    """An empty tower: the static segments, the out-zone sensor, the solver settings."""
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
    zone.collision_type = OUT_TYPE
    space.add(zone)
    return space


MOMENT = pymunk.moment_for_box(CUBE_MASS, (G.CUBE, G.CUBE))
SPIN_WEIGHT = MOMENT / CUBE_MASS


def add_cube(space: pymunk.Space, x: float, y: float,
             angle: float) -> tuple[pymunk.Body, pymunk.Shape]:
    body = pymunk.Body(CUBE_MASS, MOMENT)
    body.position = (x, y)
    body.angle = angle
    inner = G.CUBE - 2 * CUBE_RADIUS
    shape = pymunk.Poly.create_box(body, (inner, inner), CUBE_RADIUS)
    shape.friction = CUBE_FRICTION
    shape.elasticity = CUBE_ELASTICITY
    shape.collision_type = CUBE_TYPE
    space.add(body, shape)
    return body, shape
