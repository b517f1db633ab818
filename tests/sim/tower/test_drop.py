"""The tower must be identical on every peer, lose no cube, stop, and replay exactly.

These are the fast checks (a few seconds); the calibration bands over hundreds of drops
live in tests/sim/tower/test_stats.py (slow).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.tower import drop as tower
from sim.tower.drop import EMPTY, PEASANT, Cube, TowerContents, drop

ROOT = Path(__file__).resolve().parents[3]
G = tower.GEOMETRY
FILL = {0: 7, 1: 7, 2: 7, 3: 7, PEASANT: 10}


def seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


@pytest.fixture(scope="module")
def game_contents() -> TowerContents:
    """A tower as it looks mid-game: filled, then a few battles."""
    contents = drop(EMPTY, FILL, seed("fixture fill")).contents
    for i in range(4):
        contents = drop(contents, {i % 5: 6, (i + 2) % 5: 4}, seed(f"fixture {i}")).contents
    return contents


def total(counts: dict[int, int]) -> int:
    return sum(counts.values())


def assert_inside_walls(x: float, y: float) -> None:
    """A cube's centre can only be inside the box, or in the exit opening."""
    half = G["cube"] / 2
    assert 0 < x < G["width"] or (y < G["exit"]["y1"] and x < G["out_zone"][0][0] + half)
    assert G["exit"]["y0"] - half < y < G["top"]


# --- the quantised state -------------------------------------------------------------

def test_contents_round_trip_through_msgpack(game_contents):
    wire = msgpack.unpackb(msgpack.packb(game_contents.to_wire()))
    assert TowerContents.from_wire(wire) == game_contents
    assert all(type(v) is int for cube in wire for v in cube)


cube_strategy = st.builds(          # anywhere a cube's centre can be above the ramp
    Cube, colour=st.integers(0, PEASANT), x=st.integers(300, (G["width"] - 3) * 100),
    y=st.integers(9000, (G["top"] - 3) * tower.POS_SCALE),
    angle=st.integers(0, tower.ANGLE_SCALE - 1))


@settings(max_examples=200, deadline=None)
@given(st.lists(cube_strategy, max_size=40))
def test_any_valid_contents_round_trip(cubes):
    contents = TowerContents(tuple(cubes))
    wire = msgpack.unpackb(msgpack.packb(contents.to_wire()))
    again = TowerContents.from_wire(wire)
    assert again == contents
    assert list(again.cubes) == sorted(cubes)
    assert sum(again.counts().values()) == len(cubes)


@pytest.mark.parametrize("bad, fault", [
    ({"a": 1}, "list"),
    ([[0, 1, 2]], "cube 0"),
    ([[6, 100, 100, 0]], "colour"),
    ([[0, -1, 100, 0]], "x"),
    ([[0, 100, 10 ** 9, 0]], "y"),
    ([[0, 100, 100, 4096]], "angle"),
    ([[0, 6000, 100, 0]], "not inside the tower"),       # under the ramp
    ([[0, 100, 20000, 0]], "not inside the tower"),      # in the left wall
    ([[0, 12500, 20000, 0]], "not inside the tower"),    # beyond the right wall
    ([[0, 1.5, 100, 0]], "int"),
    ([[True, 100, 100, 0]], "int"),
    ([[0, 100, 100, 0]] * (tower.MAX_CUBES + 1), "at most"),
])
def test_from_wire_rejects_bad_input_naming_the_fault(bad, fault):
    with pytest.raises(ValueError, match=fault):
        TowerContents.from_wire(bad)


def test_contents_are_canonical_whatever_the_build_order():
    a, b = Cube(1, 500, 600, 7), Cube(0, 900, 100, 3)
    assert TowerContents((a, b)) == TowerContents((b, a))
    assert TowerContents((a, b)).to_wire() == [[0, 900, 100, 3], [1, 500, 600, 7]]
    assert TowerContents((a, b, a)).counts() == {0: 1, 1: 2}


# --- determinism ---------------------------------------------------------------------

def test_same_inputs_same_outcome(game_contents):
    first = drop(game_contents, {1: 8, PEASANT: 1}, seed("same"))
    second = drop(game_contents, {1: 8, PEASANT: 1}, seed("same"))
    assert first == second
    assert tower.digest_of(first) == tower.digest_of(second)


def test_thrown_mapping_order_does_not_matter(game_contents):
    a = drop(game_contents, {3: 4, 1: 5}, seed("order"))
    b = drop(game_contents, {1: 5, 3: 4}, seed("order"))
    assert a == b


def test_different_seeds_give_different_drops(game_contents):
    digests = {tower.digest_of(drop(game_contents, {2: 8}, seed(f"s{i}"))) for i in range(5)}
    assert len(digests) > 1


_DIGEST_SCRIPT = """
import hashlib, json, sys
sys.path.insert(0, {root!r})
from sim.tower import drop as tower
s = lambda t: hashlib.sha256(t.encode()).digest()
contents = tower.EMPTY
digests = []
for i, thrown in enumerate([{{0: 7, 1: 7, 2: 7, 3: 7, 5: 10}}, {{1: 9}}, {{2: 4, 5: 1}}, {{0: 12, 4: 3}}]):
    r = tower.drop(contents, thrown, s("proc %d" % i), record=(i == 2))
    digests.append(tower.digest_of(r))
    contents = r.contents
print(json.dumps([digests, tower.self_test_digest(), tower.canary_digest()]))
"""


def _digests_in_subprocess(hash_seed: str) -> list:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT.format(root=str(ROOT))],
                         env=env, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout)


def test_two_processes_with_different_hash_seeds_agree():
    first = _digests_in_subprocess("1")
    second = _digests_in_subprocess("4242")
    assert first == second
    assert first[1] == tower.self_test_digest()
    assert first[2] == tower.canary_digest()


def test_contacts_get_the_intended_friction_and_bounce():
    """Chipmunk multiplies the two shapes' coefficients: the shape values are derived so
    that the products are the intended cube-on-cube and cube-on-wall values."""
    from sim.tower import physics as P
    assert P.CUBE_FRICTION * P.CUBE_FRICTION == pytest.approx(P.CUBE_ON_CUBE_FRICTION)
    assert P.CUBE_FRICTION * P.WALL_FRICTION == pytest.approx(P.CUBE_ON_WALL_FRICTION)
    assert P.CUBE_ELASTICITY ** 2 == pytest.approx(P.CUBE_ON_CUBE_ELASTICITY)
    assert P.CUBE_ELASTICITY * P.WALL_ELASTICITY == pytest.approx(P.CUBE_ON_WALL_ELASTICITY)
    space = P.build_space()
    _, cube = P.add_cube(space, 50.0, 150.0, 0.0)
    wall = next(s for s in space.static_body.shapes if not s.sensor)
    assert cube.friction * wall.friction == pytest.approx(P.CUBE_ON_WALL_FRICTION)
    # a cube slides down the 30-degree ramp on its own: tan 30 > cube-on-wall friction
    assert P.CUBE_ON_WALL_FRICTION < 0.577


def test_the_fingerprint_covers_geometry_settings_and_versions(monkeypatch):
    from sim.tower import physics as P
    fingerprint = tower.physics_fingerprint()
    assert msgpack.unpackb(msgpack.packb(fingerprint)) == fingerprint
    assert fingerprint["pymunk"] == tower.pymunk.version
    assert fingerprint["geometry"] == G
    before = tower.self_test_digest()
    monkeypatch.setattr(P, "ITERATIONS", P.ITERATIONS + 1)
    assert tower.self_test_digest() != before


def test_the_canary_sees_a_tiny_change_the_quantised_outcome_may_not(monkeypatch):
    """The canary hashes raw floats: nudging gravity by one part in 10**12 changes it
    (with the settings' own digest held fixed, so only the floats can differ)."""
    from sim.tower import physics as P
    monkeypatch.setattr(P, "fingerprint_digest", lambda: "same settings")
    before = tower.canary_digest()
    assert tower.canary_digest() == before
    monkeypatch.setattr(P, "GRAVITY", P.GRAVITY * (1 + 1e-12))
    assert tower.canary_digest() != before


def test_self_test_digest_is_stable_hex():
    digest = tower.self_test_digest()
    assert digest == tower.self_test_digest()
    assert len(digest) == 64 and int(digest, 16) >= 0


# --- conservation, walls, termination -------------------------------------------------

@pytest.mark.parametrize("i, thrown", [
    (0, {0: 10}), (1, {1: 3}), (2, {2: 15, PEASANT: 2}), (3, {}), (4, {4: 1}),
    (5, {0: 20, 1: 20}), (6, {0: 10, 1: 10, 2: 10, 3: 10, 4: 10, PEASANT: 10}),
])
def test_no_cube_lost_or_outside_the_walls(game_contents, i, thrown):
    result = drop(game_contents, thrown, seed(f"conserve {i}"))
    assert total(thrown) + len(game_contents) == total(result.out) + len(result.contents)
    for colour in range(PEASANT + 1):
        before = game_contents.counts().get(colour, 0) + thrown.get(colour, 0)
        after = result.out.get(colour, 0) + result.contents.counts().get(colour, 0)
        assert before == after
    assert all(n > 0 for n in result.out.values())
    for cube in result.contents.cubes:
        assert_inside_walls(cube.x / tower.POS_SCALE, cube.y / tower.POS_SCALE)
    assert 0 < result.steps <= tower.STEP_CAP


def test_sixty_cubes_into_a_full_tower(game_contents):
    result = drop(game_contents, {0: 15, 1: 15, 2: 15, PEASANT: 15}, seed("sixty"))
    assert total(result.out) + len(result.contents) == 60 + len(game_contents)
    assert result.steps < tower.STEP_CAP


def test_a_jam_is_shaken_loose_and_the_recording_shows_when():
    """120 cubes at once jam the funnel now and then: the tower is shaken (no cube is
    counted out that did not leave through the exit), and the recording says when."""
    fill = drop(EMPTY, FILL, seed("jam fill")).contents
    for k in range(40):
        result = drop(fill, {0: 40, 1: 40, 2: 40}, seed(f"jam {k}"), record=True)
        if result.shakes:
            break
    else:
        pytest.fail("no drop of 120 cubes needed a shake")
    rec = result.recording
    assert len(rec.shakes) == result.shakes and result.spilled == 0 and rec.spilled == ()
    exited = sum(1 for e in rec.exited if e is not None)
    assert exited == total(result.out)
    assert len(rec.colours) == len(fill) + 120
    f = rec.shakes[0]
    assert 0 < f < len(rec.frames) - 1
    moved = [i for i, (a, b) in enumerate(zip(rec.frames[f], rec.frames[min(f + 6, len(rec.frames) - 1)]))
             if a and b and abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1.0]
    assert len(moved) >= 5                    # the kick moves the jammed cubes


def test_thrown_must_be_valid():
    with pytest.raises(ValueError, match="colour"):
        drop(EMPTY, {7: 1}, seed("bad"))
    with pytest.raises(ValueError, match="count"):
        drop(EMPTY, {1: -2}, seed("bad"))
    with pytest.raises(ValueError):
        drop(EMPTY, {1: 2}, b"short")


def test_a_stored_tower_releases_nothing_when_nothing_is_thrown(game_contents):
    """The settle pass makes the stored contents a resting pile: dropping nothing into it
    changes nothing (the many-towers version is in test_stats.py)."""
    result = drop(game_contents, {}, seed("settle"))
    assert result.out == {} and result.released == 0
    assert result.contents == game_contents


def test_settle_is_the_outcome_of_drop(game_contents):
    thrown = {2: 6, 4: 3, PEASANT: 1}
    settled = tower.outcome(game_contents, thrown, seed("settled"))
    full = drop(game_contents, thrown, seed("settled"))
    out, contents = settled
    assert (out, contents) == (full.out, full.contents)
    assert tower.digest_of(settled) == tower.digest_of(full)


def test_origin_follows_each_cube(game_contents):
    result = drop(game_contents, {1: 7, 3: 2}, seed("origin"))
    kept = [i for i in result.origin if i is not None]
    assert len(result.origin) == len(result.contents)
    assert len(kept) == len(set(kept)) == len(game_contents) - result.released
    for new, old in zip(result.contents.cubes, result.origin):
        if old is not None:
            assert new.colour == game_contents.cubes[old].colour
    thrown_in = sum(1 for i in result.origin if i is None)
    assert thrown_in == 9 - (total(result.out) - result.released)


# --- recording -----------------------------------------------------------------------

def test_recording_never_changes_the_outcome(game_contents):
    for i, thrown in enumerate([{2: 8}, {0: 20, 1: 20}, {PEASANT: 3}]):
        plain = drop(game_contents, thrown, seed(f"rec {i}"))
        recorded = drop(game_contents, thrown, seed(f"rec {i}"), record=True)
        assert plain.recording is None
        assert (recorded.out, recorded.contents, recorded.steps, recorded.released) == \
            (plain.out, plain.contents, plain.steps, plain.released)


def test_recording_shows_the_drop(game_contents):
    thrown = {1: 6, 3: 5}
    result = drop(game_contents, thrown, seed("show"), record=True)
    rec = result.recording
    n = len(rec.colours)
    assert rec.fps == 60 and rec.inside_before == len(game_contents)
    assert n == len(game_contents) + total(thrown) - len(rec.spilled)
    assert all(len(frame) == n for frame in rec.frames)
    assert len(rec.frames) >= (result.steps - result.settle_steps) // tower.FRAME_EVERY
    exited = [i for i in range(n) if rec.exited[i] is not None]
    out_by_colour: dict[int, int] = {}
    for i in exited:
        out_by_colour[rec.colours[i]] = out_by_colour.get(rec.colours[i], 0) + 1
    for colour in rec.spilled:
        out_by_colour[colour] = out_by_colour.get(colour, 0) + 1
    assert out_by_colour == result.out
    for i in range(n):
        first = rec.entered[i] or 0
        last = rec.exited[i] if rec.exited[i] is not None else len(rec.frames)
        for f, frame in enumerate(rec.frames):
            assert (frame[i] is not None) == (first <= f < last)
            if frame[i] is not None:
                assert_inside_walls(frame[i][0], frame[i][1])
    # the last frame is the final state: its cubes are the new contents
    final = sorted((rec.colours[i], round(p[0] * 100), round(p[1] * 100))
                   for i, p in enumerate(rec.frames[-1]) if p is not None)
    assert [(c.colour, c.x, c.y) for c in result.contents.cubes] == [
        (c, min(max(x, 0), tower.MAX_X), y) for c, x, y in final]


def test_cubes_the_settle_pass_releases_are_out_and_shown_leaving():
    """Now and then a pile that came to rest is not at rest once rebuilt from its
    quantised poses: what falls out then is out of this drop, and the recording shows it
    after `settle_frame`."""
    contents = drop(EMPTY, FILL, seed("settle fill")).contents
    for k in range(60):
        result = drop(contents, {k % 4: 6, (k + 1) % 4: 4}, seed(f"settle {k}"), record=True)
        if result.settle_released:
            break
        contents = result.contents
    else:
        pytest.fail("no settle pass released a cube in 60 drops")
    rec = result.recording
    assert rec.settle_frame is not None
    late = [i for i, f in enumerate(rec.exited) if f is not None and f >= rec.settle_frame]
    assert len(late) == result.settle_released
    assert sum(1 for f in rec.exited if f is not None) == total(result.out)
    plain = drop(contents, {k % 4: 6, (k + 1) % 4: 4}, seed(f"settle {k}"))
    assert (plain.out, plain.contents) == (result.out, result.contents)


def test_geometry_is_plain_data():
    encoded = msgpack.packb(G)
    assert msgpack.unpackb(encoded) == json.loads(json.dumps(G))
    for (x1, y1), (x2, y2) in G["segments"]:
        assert all(type(v) is int for v in (x1, y1, x2, y2))
    assert set(G["parts"]) == {"walls", "funnel", "ribs", "floor_1", "floor_2", "ramp"}
