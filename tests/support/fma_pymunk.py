"""A pymunk that rounds differently: 6.9.0 built from source with FMA contraction.

Why: peers on other CPUs, libms or compilers compute tower drops with different float
rounding. To show (and test) what that does without a second machine, we build the very
same pymunk version from its sdist with `-O2 -mfma -ffp-contract=fast`, so the C compiler
fuses multiply-adds in chipmunk (as clang on macOS or an arm64 build may), and run a peer
or a script with that build first on its PYTHONPATH. The other cheap way to round
differently is `GLIBC_TUNABLES` (`DIFFERENT_LIBM_ENV`): glibc then picks its non-FMA
`sin`/`cos` on a CPU that has FMA.

Usage (a test, or the lead's 4-peer vote test):

    from tests.support import fma_pymunk
    path = fma_pymunk.pythonpath()          # builds once into the cache; skips the test
    env = fma_pymunk.env_with(path)          # if no C compiler / Python headers exist
    subprocess.run([sys.executable, ...], env=env)

The build goes to `~/.cache/shogun/pymunk-fma/<python>-<machine>-<flags hash>/` (or
`$SHOGUN_CACHE/pymunk-fma/...`); building needs a C compiler, the Python headers and
PyPI (pip fetches the sdist and the build requirements setuptools, wheel and cffi). It
takes about 15 s and happens once per cache folder; a file lock keeps two test processes
from building at once.

`-DNDEBUG` is added to the requested flags: without it chipmunk is compiled in debug
mode and prints a banner to stdout when a space is created (the PyPI wheels are release
builds); it removes assertions only and changes no arithmetic.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from tools.build_physics import build_once

PYMUNK_VERSION = "6.9.0"
DIFFERENT_LIBM_ENV = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA"}


class CannotBuild(RuntimeError):
    """This machine cannot build pymunk from source (the message says what is missing)."""


def cflags() -> str:
    """-mfma exists on x86 only; elsewhere (arm64 has FMA always) contraction suffices."""
    fma = "-mfma " if platform.machine().lower() in ("x86_64", "amd64", "i686") else ""
    return f"-O2 {fma}-ffp-contract=fast -DNDEBUG"


def cache_dir() -> Path:
    root = Path(os.environ.get("SHOGUN_CACHE", Path.home() / ".cache" / "shogun"))
    tag = hashlib.sha256(f"{PYMUNK_VERSION} {cflags()}".encode()).hexdigest()[:10]
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    return root / "pymunk-fma" / f"{py}-{platform.machine()}-{tag}"


def missing_tools() -> str | None:
    """Why a build cannot work here, or None."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") \
        or shutil.which("clang")
    if not compiler or not shutil.which(compiler.split()[0]):
        return "no C compiler (cc, gcc or clang) on PATH"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers} is missing)"
    return None


def _built(target: Path) -> bool:
    return (target / "pymunk" / "__init__.py").exists() and (target / "BUILT").exists()


def build(target: Path | None = None) -> Path:
    """Build pymunk with FMA contraction into `target` (once); return the folder."""
    target = target or cache_dir()
    if _built(target):
        return target
    reason = missing_tools()
    if reason:
        raise CannotBuild(f"cannot build pymunk {PYMUNK_VERSION} from source: {reason}")
    return build_once(target, _built, _make)


def _make(target: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="pymunk-fma-") as tmp:
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        _run(pip + ["download", f"pymunk=={PYMUNK_VERSION}", "--no-binary", ":all:",
                    "--no-deps", "-d", tmp], "downloading the pymunk sdist")
        sdist = next(Path(tmp).glob("pymunk-*.tar.gz"))
        env = dict(os.environ, CFLAGS=cflags())
        _run(pip + ["install", "--no-deps", "--no-cache-dir", "--target", str(target),
                    str(sdist)], "building pymunk", env)
    version = subprocess.run(
        [sys.executable, "-c", "import pymunk; print(pymunk.version, pymunk.__file__)"],
        env=env_with(target), capture_output=True, text=True, check=True).stdout.split()
    if version[0] != PYMUNK_VERSION or not version[1].startswith(str(target)):
        raise CannotBuild(f"the build in {target} imports as {version}")
    (target / "BUILT").write_text(f"pymunk {PYMUNK_VERSION} CFLAGS={cflags()}\n")


def _run(cmd: list[str], what: str, env: dict | None = None) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise CannotBuild(f"{what} failed:\n{tail}")


def env_with(path: Path, base: dict | None = None) -> dict:
    """An environment whose Python imports pymunk from `path` first."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(path), env.get("PYTHONPATH")) if p)
    return env


def pythonpath() -> Path:
    """For tests: the built folder, or a pytest skip naming what is missing."""
    import pytest
    reason = missing_tools()
    if reason and not _built(cache_dir()):
        pytest.skip(f"cannot build pymunk from source: {reason}")
    return build()


if __name__ == "__main__":
    print(build())
