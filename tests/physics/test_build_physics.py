"""tools/build_physics.py: one digest whatever the flags and the libm (issue 25).

The deterministic pymunk is built at -O0 and at -O3 for this CPU with FMA
(`-march=native -mfma`), and with clang at -O3 -march=native -ffast-math where clang is
installed; each build runs under this machine's glibc routines and its non-FMA ones (`DIFFERENT_LIBM_ENV`): every run gives `sim.tower.build.DETERMINISTIC_DIGEST`
(the golden value: it fails if the physics changes unintentionally). The PyPI wheel
under the two libms is the bug being fixed (an expected failure where the CPU has FMA).
Builds go to the cache (`~/.cache/shogun/pymunk-deterministic/`), once per flag set; a
second compiler (clang) is used where installed, never required.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.tower import build
from tests.support import physics_probe
from tests.support.fma_pymunk import DIFFERENT_LIBM_ENV
from tools import build_physics

ROOT = Path(__file__).resolve().parents[2]
X86 = platform.machine().lower() in ("x86_64", "amd64")
# (CC, CFLAGS): None is the compiler Python was built with; clang is optional
BUILDS = {"O0": (None, "-O0"),
          "O3-native-fma": (None, "-O3 -march=native" + (" -mfma" if X86 else "")),
          "clang-O3-native-fastmath": ("clang", "-O3 -march=native -ffast-math")}
LIBMS = {"libm": {}, "non-FMA libm": DIFFERENT_LIBM_ENV}
LIBM_FUNCTIONS = {"sin", "cos", "sincos", "tan", "acos", "asin", "atan", "atan2", "exp",
                  "log", "pow", "fmod", "floor", "ceil"}


def build_with(name: str) -> Path:
    cc, cflags = BUILDS[name]
    env = dict(os.environ, CFLAGS=cflags)
    if cc is not None:
        if shutil.which(cc) is None:
            pytest.skip(f"no {cc}: a second compiler is welcome, not required")
        env["CC"] = cc
    reason = build_physics.missing_tools()
    if reason:
        pytest.skip(f"cannot build pymunk here: {reason}")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "build_physics.py")],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip().splitlines()[-1])


def probe(env: dict) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.support.physics_probe"], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def with_pymunk(path: Path | None, extra: dict) -> dict:
    env = dict(os.environ, **extra)
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return env


@pytest.mark.slow
@pytest.mark.parametrize("libm", LIBMS)
@pytest.mark.parametrize("flags", BUILDS)
def test_every_build_and_libm_gives_the_golden_digest(flags, libm):
    path = build_with(flags)
    seen = probe(with_pymunk(path, LIBMS[libm]))
    assert seen["pymunk"].startswith(str(path))          # that build really ran
    assert seen["build"] == build.DETERMINISTIC
    assert set(map(tuple, seen["untouched"])) == physics_probe.UNREACHABLE
    assert seen["jam_shakes"] >= 1 and seen["clog_shakes"] >= 1
    print(f"{flags}, {libm}: {seen['digest']}")
    assert seen["digest"] == build.DETERMINISTIC_DIGEST


@pytest.mark.slow
@pytest.mark.parametrize("flags", BUILDS)
def test_the_build_calls_no_libm_function_but_sqrt(flags):
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("no nm (binutils) to list the module's symbols")
    path = build_with(flags)
    module = next((path / "pymunk").glob("_chipmunk*.so"))
    listed = subprocess.run([nm, "-D", "--undefined-only", str(module)], capture_output=True,
                            text=True, check=True).stdout
    called = {line.split()[-1].split("@")[0] for line in listed.splitlines() if line.strip()}
    assert not called & LIBM_FUNCTIONS


@pytest.mark.slow
@pytest.mark.xfail(reason="issue 25: the PyPI wheel's raw floats depend on the libm (glibc's "
                          "FMA and non-FMA routines differ)", strict=False)
def test_the_pypi_wheel_is_not_deterministic():
    if "fma" not in Path("/proc/cpuinfo").read_text():
        pytest.skip("this CPU has no FMA, so glibc has no other routines to pick")
    seen = [probe(with_pymunk(None, LIBMS[libm])) for libm in LIBMS]
    if seen[0]["build"] != build.PLATFORM:
        pytest.skip("the deterministic build is installed: there is no wheel to show")
    print("wheel:", {libm: s["digest"] for libm, s in zip(LIBMS, seen)})
    assert seen[0]["digest"] == seen[1]["digest"] == build.DETERMINISTIC_DIGEST


def test_determinism_flags_come_after_the_requested_ones(monkeypatch):
    if build_physics.missing_tools():
        pytest.skip(f"no compiler: {build_physics.missing_tools()}")
    monkeypatch.setenv("CFLAGS", "-O3 -ffast-math -ffp-contract=fast")
    flags = build_physics.build_env()["CFLAGS"].split()
    assert flags[:3] == ["-O3", "-ffast-math", "-ffp-contract=fast"]
    assert flags[3] == build_physics.REQUIRED_FLAG and "-fno-fast-math" in flags[3:]


def test_without_a_compiler_it_says_so_and_builds_nothing(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert build_physics.main(["--target", str(tmp_path / "out")]) == 2
    said = capsys.readouterr().err
    assert "cannot be built on this computer: no C compiler" in said
    assert "runs with pymunk's PyPI wheel" in said and "sudo apt install gcc python3-dev" in said
    assert not (tmp_path / "out").exists()


def test_install_falls_back_to_the_wheel_without_failing(monkeypatch, capsys):
    """What tools/ensure-env relies on: exit 0 and a sentence, no half-done install."""
    def cannot() -> None:
        raise build_physics.CannotBuild("no C compiler (cc is not on PATH)")
    monkeypatch.setattr(build_physics, "install", cannot)
    assert build_physics.main(["--install"]) == 0
    assert "runs with pymunk's PyPI wheel" in capsys.readouterr().err


def test_can_build_says_why_not_in_a_sentence(monkeypatch, tmp_path, capsys):
    """What tools/ensure-env asks before building: exit 2 and what it means, how to get it."""
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert build_physics.main(["--can-build"]) == 2
    said = capsys.readouterr().err
    assert "no C compiler" in said and "lobby shows everyone" in said and "Traceback" not in said
    monkeypatch.delenv("CC")
    if build_physics.missing_tools() is None:
        assert build_physics.main(["--can-build"]) == 0


def _tar_with(tmp_path: Path, name: str) -> Path:
    import io
    import tarfile
    path = tmp_path / "t.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo(name)
        info.size = 2
        archive.addfile(info, io.BytesIO(b"hi"))
    return path


@pytest.mark.parametrize("data_filter", [True, False], ids=["3.11.4+", "3.11.0-3.11.3"])
def test_unpacking_works_with_and_without_extractall_filter(monkeypatch, tmp_path, data_filter):
    """Issue 53: Debian 12's Python 3.11.2 has no `extractall(filter=)` (3.11.4+); the
    same checks are made by hand there: a path out of the folder is refused."""
    import tarfile
    if not data_filter:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    elif not hasattr(tarfile, "data_filter"):
        pytest.skip("this Python has no extractall(filter=)")
    with tarfile.open(_tar_with(tmp_path, "pkg/ok.txt")) as archive:
        build_physics._extract(archive, tmp_path / "out")
    assert (tmp_path / "out" / "pkg" / "ok.txt").read_bytes() == b"hi"
    with tarfile.open(_tar_with(tmp_path, "../evil.txt")) as archive, pytest.raises(Exception):
        build_physics._extract(archive, tmp_path / "out2")
    assert not (tmp_path / "evil.txt").exists()


# -- the other systems' compilers (built by .github/workflows/bundle.yml, not here) --------

def test_windows_builds_with_msvc_and_macos_with_the_gcc_like_flags():
    assert build_physics.toolchain("win32") is build_physics.MSVC
    assert build_physics.toolchain("darwin") is build_physics.GCC_LIKE     # Apple clang
    assert build_physics.toolchain("linux") is build_physics.GCC_LIKE


def test_msvc_gets_fp_strict_after_whatever_cl_was_asked_for(monkeypatch):
    """cl.exe appends `_CL_` after its command line and the later /fp model wins, so a
    /fp:fast asked for (in _CL_ or CL) cannot bring contractions back."""
    monkeypatch.setenv("_CL_", "/O2 /fp:fast")
    env = build_physics.build_env(build_physics.MSVC)
    flags = env["_CL_"].split()
    assert flags[:2] == ["/O2", "/fp:fast"]
    fp_models = [f for f in flags if f in ("/fp:fast", "/fp:precise", "/fp:strict")]
    assert fp_models[-1] == "/fp:strict"
    assert "/fp:contract" not in flags and "/DNDEBUG" in flags
    assert env.get("CFLAGS") == os.environ.get("CFLAGS")      # setuptools ignores it for MSVC


def test_gcc_like_compilers_get_contraction_off_last(monkeypatch):
    if build_physics.missing_tools():
        pytest.skip(f"no compiler: {build_physics.missing_tools()}")
    monkeypatch.setenv("CFLAGS", "-O3 -ffast-math -ffp-contract=fast")
    flags = build_physics.build_env(build_physics.GCC_LIKE)["CFLAGS"].split()
    assert flags[:3] == ["-O3", "-ffast-math", "-ffp-contract=fast"]
    assert flags.index("-ffp-contract=off") > flags.index("-ffp-contract=fast")
    assert "-fno-fast-math" in flags[3:]
