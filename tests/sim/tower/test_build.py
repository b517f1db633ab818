"""sim.tower.build: which pymunk computes the tower, and the selftest digest (issue 25).

The golden digest is checked here whenever the deterministic build is the one imported;
tests/physics/test_build_physics.py builds it at two optimisation levels and checks it
under two libms whatever is installed.
"""

from __future__ import annotations

import re

import pytest

from sim.tower import build
from tests.support import physics_probe


@pytest.fixture(scope="module")
def seen() -> dict:
    return physics_probe.coverage()


def test_the_build_is_named_by_the_imported_pymunk():
    name = build.build_name()
    assert build.physics_build() == (build.DETERMINISTIC if name.startswith("deterministic")
                                     else build.PLATFORM)


def test_the_selftest_line_names_the_build_and_the_digest(seen):
    line = build.selftest_line()
    assert re.fullmatch(r"physics: (deterministic|platform)  digest [0-9a-f]{64}", line)
    assert line == f"physics: {seen['build']}  digest {seen['digest']}"   # repeatable


def test_the_selftest_touches_every_reachable_part_and_shakes_both_ways(seen):
    if seen["build"] != build.DETERMINISTIC:
        pytest.skip("the drops are chosen for the deterministic build (a platform build "
                    "may round its way out of a jam)")
    assert set(map(tuple, seen["untouched"])) == physics_probe.UNREACHABLE
    assert seen["jam_shakes"] >= 1 and seen["clog_shakes"] >= 1
    assert seen["exits"] > 100 and seen["steps"] > 1000


def test_the_deterministic_build_gives_the_golden_digest(seen):
    if seen["build"] != build.DETERMINISTIC:
        pytest.skip("pymunk here is the platform build (tools/build_physics.py --install)")
    assert seen["digest"] == build.DETERMINISTIC_DIGEST


def test_the_verdict_tells_the_player_what_the_build_means():
    """Issue 53: `tower --selftest` says in words whether this computer runs the verified
    tower, and how to get it when it does not."""
    def test(build_name: str, digest: str) -> build.SelfTest:
        return build.SelfTest(build_name, digest, 1, 1, 1, 1)
    golden = build.selftest_verdict(test(build.DETERMINISTIC, build.DETERMINISTIC_DIGEST))
    assert "runs the verified tower" in golden
    wheel = build.selftest_verdict(test(build.PLATFORM, "6" * 64))
    assert "not the verified tower" in wheel and "sudo apt install gcc python3-dev" in wheel
    odd = build.selftest_verdict(test(build.DETERMINISTIC, "1" * 64))
    assert "not the verified one" in odd and "build_physics.py --install" in odd
