"""Machines that round differently: their drops may differ, the canary tells, the
handshake digest does not refuse them (issue 11).

Each environment runs `tests.support.tower_probe` in its own process from the same
integer starting towers: this process's pymunk as installed, the same under
`GLIBC_TUNABLES` (glibc's non-FMA sin/cos), and pymunk 6.9.0 built from source with
FMA contraction (`tests.support.fma_pymunk`, built once into a cache folder; skipped
with a clear message where no C compiler exists).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.tower import build, stats as tower_stats
from tests.support import fma_pymunk

ROOT = Path(__file__).resolve().parents[3]
DROPS = 100


@pytest.fixture(scope="module")
def starts() -> str:
    game = tower_stats.play_game(0, battles=10, base="probe")
    return json.dumps([t.to_wire() for t in game.towers])


def probe(env: dict, starts: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.support.tower_probe", str(DROPS),
                           starts], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def reference(starts) -> dict:
    return probe(dict(os.environ), starts)


def changed(a: dict, b: dict) -> int:
    return sum(x != y for x, y in zip(a["drops"], b["drops"]))


@pytest.mark.slow
def test_the_same_build_agrees_with_itself(reference, starts):
    again = probe(dict(os.environ, PYTHONHASHSEED="99"), starts)
    assert again == reference


@pytest.mark.slow
def test_an_fma_build_changes_drops_and_the_canary_but_not_the_handshake(reference, starts):
    path = fma_pymunk.pythonpath()
    fma = probe(fma_pymunk.env_with(path), starts)
    assert fma["pymunk"].startswith(str(path))          # the other build really ran
    n = changed(reference, fma)
    print(f"FMA build: {n} of {DROPS} forty-cube drops changed")
    assert n > 0
    assert fma["canary"] != reference["canary"]
    assert fma["self_test"] == reference["self_test"]


@pytest.mark.slow
def test_another_libm_changes_the_canary_only_on_the_platform_build(reference, starts):
    """glibc's non-FMA sin/cos round differently; the deterministic pymunk calls no libm
    (issue 25), so there the canary must not move at all."""
    if not sys.platform.startswith("linux"):
        pytest.skip("GLIBC_TUNABLES is a glibc (Linux) feature")
    if "fma" not in Path("/proc/cpuinfo").read_text():
        pytest.skip("this CPU has no FMA, so glibc has no other sin/cos to pick")
    libm = probe(dict(os.environ, **fma_pymunk.DIFFERENT_LIBM_ENV), starts)
    print(f"GLIBC_TUNABLES: {changed(reference, libm)} of {DROPS} forty-cube drops changed")
    if build.physics_build() == build.DETERMINISTIC:
        assert libm["canary"] == reference["canary"]
    else:
        assert libm["canary"] != reference["canary"]
    assert libm["self_test"] == reference["self_test"]


def test_without_a_c_compiler_the_build_is_skipped_with_the_reason(monkeypatch, tmp_path):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(fma_pymunk.shutil, "which", lambda name: None)
    monkeypatch.setenv("SHOGUN_CACHE", str(tmp_path))
    assert fma_pymunk.missing_tools() == "no C compiler (cc, gcc or clang) on PATH"
    with pytest.raises(fma_pymunk.CannotBuild, match="no C compiler"):
        fma_pymunk.build()
    with pytest.raises(pytest.skip.Exception, match="no C compiler"):
        fma_pymunk.pythonpath()
