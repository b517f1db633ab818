"""Build the deterministic pymunk: 6.9.0 from its sdist, no libm, no contraction (issue 25).

Why: the PyPI wheel rounds as its C library and compiler do (glibc even picks other
sin/cos on CPUs without FMA), so two honest peers can compute two different drops. This
build is the same pymunk version with two changes, applied to the sdist as a small patch:

* Chipmunk's maths macros (`cpfsin`, `cpfcos`, `cpfpow`, `cpfexp`, `cpfatan2`, `cpfacos`,
  `cpffloor`, `cpfceil`, `cpfmod` in `chipmunk_types.h`) call the project's own
  `physics/portable_math.c` (only + - * / and sqrt; `cpfsqrt` stays `sqrt`, which IEEE 754
  rounds correctly everywhere). Chipmunk's only direct libm calls are `floor` in
  cpSpaceHash.c (the spatial hash, which the tower does not use) and `fabs` in
  cpPolyline.c: both exact in every C library, and compiled inline here.
* The compiled module gains `shogun_physics_build()`, which `sim.tower.build` reads to
  say "deterministic"; the distribution's version becomes `6.9.0+shogun.deterministic`
  (what `pip list` shows; `pymunk.version` stays "6.9.0", and `==6.9.0` still matches).

The compiler and flags come from the environment (`CC`, `CFLAGS`, as for any Python
extension; without CFLAGS, Python's own build flags, e.g. -O3); the flags determinism
needs (`DETERMINISM_FLAGS`: contraction off, no fast-math, SSE2 arithmetic on x86) are
added after them so they win, and the result is the same whatever was asked for
(tests/physics/test_build_physics.py builds at -O0 and at -O3 -march=native -mfma).
Where no C compiler or no Python headers exist, the build says so and the PyPI wheel
stays (platform physics).

Each family of compilers is a `Toolchain`: how it is told to keep the arithmetic as
written, and where setuptools' compiler reads flags from.

* GCC and clang, Apple clang on macOS included (`GCC_LIKE`): the flags above, through
  CFLAGS. Apple clang fuses `a*b+c` into one `fmadd` by default on arm64
  (`-ffp-contract=on`), so `-ffp-contract=off` is the flag that matters there.
* MSVC on Windows (`MSVC`): `/fp:strict`, the one /fp model under which Microsoft's
  documentation says no contractions are generated (under `/fp:precise` they may be
  before Visual Studio 2022, and `/fp:contract` adds them); no reassociation and no
  fast-math transformations either; x64 code does its double arithmetic in SSE2. setuptools
  ignores CFLAGS for MSVC, so the flags go into `_CL_`, which cl.exe appends after its
  command line: when two /fp models are given the later one wins, so a `/fp:fast` in
  `CL` loses. cl.exe reads no source from stdin, so nothing is probed: the proof is the
  selftest digest of the built module (`shogun tower --selftest`), which the Windows job
  of .github/workflows/bundle.yml compares with `sim.tower.build.DETERMINISTIC_DIGEST`.

Usage:

    python tools/build_physics.py                # build into the cache, print the folder
    python tools/build_physics.py --target DIR   # build into DIR (put it first on PYTHONPATH)
    python tools/build_physics.py --install      # build a wheel and install it into the
                                                 # environment of this Python (ensure-env)
    python tools/build_physics.py --can-build    # can it be built here? (else: why, and
                                                 # how to get it, in a sentence)

The sdist is fetched once with pip (checked against `SDIST_SHA256`) into
`~/.cache/shogun/sdist/` (or `$SHOGUN_CACHE/sdist/`); cache builds go to
`.../pymunk-deterministic/<python>-<machine>-<key>/`, where the key hashes the sdist, the
patch, the maths sources, CC and CFLAGS. Exit status: 0 built (or, with --install, the
wheel kept for want of a compiler), 2 cannot build here, 1 the build failed.

It runs on every Python the project allows (3.11.0 on; Debian 12's 3.11.2 unpacks the
sdist without `extractall(filter=)`, which came in 3.11.4) and needs no libffi headers:
only pymunk comes as source, its build requirements (cffi: at the installed version)
come as wheels (`pip_env`).

Tests: tests/physics/test_build_physics.py, tests/physics/test_own_python.py (every
Python this machine has, from a clean venv; a build with libffi's headers hidden).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
MATH_DIR = ROOT / "physics"
MATH_SOURCE = "portable_math.c"
MATH_HEADERS = ("portable_math.h", "portable_math_constants.h")
PYMUNK_VERSION = "6.9.0"
SDIST = f"pymunk-{PYMUNK_VERSION}.tar.gz"
SDIST_SHA256 = "765f7c561a859a1b565bc517a47cc3992d6258e860f9174c533033c218af63c3"
BUILD_FUNCTION = "shogun_physics_build"
DISTRIBUTION_VERSION = f"{PYMUNK_VERSION}+shogun.deterministic"

# Last on the command line, so they override whatever CFLAGS asked for. A flag the
# compiler does not know is left out, except contraction off, without which there is no
# deterministic build.
REQUIRED_FLAG = "-ffp-contract=off"
DETERMINISM_FLAGS = (
    REQUIRED_FLAG,                   # a*b+c stays two roundings, never one fused
    "-fno-fast-math",                # undoes -ffast-math / -Ofast ...
    "-fno-unsafe-math-optimizations",
    "-fno-associative-math",         # ... no reordering of sums
    "-fno-reciprocal-math",          # ... x/y stays a division
    "-fno-finite-math-only",
    "-fsigned-zeros",
    "-fexcess-precision=standard",   # GCC: rounds to double at every assignment
    "-DNDEBUG",                      # release build: no debug banner on stdout
)
X86_FLAGS = ("-msse2", "-mfpmath=sse")    # never the x87 unit's 80-bit registers
# MSVC: see the docstring; /DNDEBUG as above
MSVC_FLAGS = ("/fp:strict", "/DNDEBUG")


@dataclass(frozen=True)
class Toolchain:
    """A family of C compilers: where setuptools reads extra flags from, and whether a
    flag can be probed (a GCC-like compiler compiles a line from stdin, cl.exe cannot)."""
    name: str
    flags_variable: str
    probes_flags: bool


GCC_LIKE = Toolchain("gcc-like", "CFLAGS", probes_flags=True)     # GCC, clang, Apple clang
MSVC = Toolchain("msvc", "_CL_", probes_flags=False)             # cl.exe appends _CL_


def toolchain(system: str = sys.platform) -> Toolchain:
    """The compiler family setuptools builds extensions with on `system`."""
    return MSVC if system == "win32" else GCC_LIKE


@dataclass(frozen=True)
class Patch:
    """One exact replacement in the sdist; it must match exactly once."""
    path: str
    old: str
    new: str


# Chipmunk's maths macros (double precision) and the libm function each one names
_MACROS = {"cpfsin": "sin", "cpfcos": "cos", "cpfacos": "acos", "cpfatan2": "atan2",
           "cpfmod": "fmod", "cpfexp": "exp", "cpfpow": "pow", "cpffloor": "floor",
           "cpfceil": "ceil"}
PATCHES = (
    Patch("Chipmunk2D/include/chipmunk/chipmunk_types.h",
          "".join(f"\t#define {macro} {libm}\n" for macro, libm in _MACROS.items()),
          '\t#include "portable_math.h"  /* Shogun: no libm decides a drop */\n'
          + "".join(f"\t#define {macro} pm_{libm}\n" for macro, libm in _MACROS.items())),
    Patch("pymunk_cffi/extensions_cdef.h", "typedef enum pmBatchableBodyFields\n",
          f"const char *{BUILD_FUNCTION}(void);\n\ntypedef enum pmBatchableBodyFields\n"),
    Patch("pymunk_cffi/extensions.c", '#include "chipmunk/chipmunk_private.h"\n',
          '#include "chipmunk/chipmunk_private.h"\n\n'
          "/* Shogun: names this build (sim.tower.build reads it). */\n"
          f'const char *{BUILD_FUNCTION}(void) {{ return "@BUILD_ID@"; }}\n'),
    Patch("pyproject.toml", f'version = "{PYMUNK_VERSION}"', f'version = "{DISTRIBUTION_VERSION}"'),
)


class CannotBuild(RuntimeError):
    """No deterministic build here (the message says why)."""


def cache_root() -> Path:
    return Path(os.environ.get("SHOGUN_CACHE", Path.home() / ".cache" / "shogun"))


def compiler() -> list[str]:
    """The C compiler setuptools will use: $CC, else the one Python was built with
    (on Windows always MSVC's cl.exe, found by setuptools)."""
    if toolchain() is MSVC:
        return ["cl"]
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def _vswhere() -> Path:
    return Path(os.environ.get("ProgramFiles(x86)", r"C:\Program Files (x86)"),
                "Microsoft Visual Studio", "Installer", "vswhere.exe")


def missing_tools() -> str | None:
    """Why this machine cannot build, or None."""
    if toolchain() is MSVC:
        if not shutil.which("cl") and not _vswhere().exists():
            return "no MSVC (cl.exe is not on PATH and Visual Studio's vswhere.exe is missing)"
    else:
        cc = compiler()
        if not cc or not shutil.which(cc[0]):
            return f"no C compiler ({' '.join(cc) or 'cc'} is not on PATH)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers} is missing)"
    return None


def _accepted(flag: str) -> bool:
    probe = subprocess.run(compiler() + [flag, "-Werror", "-x", "c", "-c", "-o", os.devnull, "-"],
                           input="int shogun_probe;\n", capture_output=True, text=True)
    return probe.returncode == 0


def determinism_flags(chain: Toolchain | None = None) -> list[str]:
    """The flags added after the requested ones: MSVC's, or those of `DETERMINISM_FLAGS`
    this GCC-like compiler knows."""
    if (chain or toolchain()) is MSVC:
        return list(MSVC_FLAGS)
    if not _accepted(REQUIRED_FLAG):
        raise CannotBuild(f"{' '.join(compiler())} does not accept {REQUIRED_FLAG}")
    wanted = list(DETERMINISM_FLAGS)
    if platform.machine().lower() in ("x86_64", "amd64", "i386", "i486", "i586", "i686", "x86"):
        wanted += X86_FLAGS
    return [flag for flag in wanted if flag == REQUIRED_FLAG or _accepted(flag)]


def sources_digest() -> str:
    """What the build's arithmetic is made of: the sdist, the patch and the maths."""
    h = hashlib.sha256(SDIST_SHA256.encode())
    h.update(repr(PATCHES).encode())
    for name in (MATH_SOURCE,) + MATH_HEADERS:
        h.update((MATH_DIR / name).read_bytes())
    return h.hexdigest()


def build_id() -> str:
    """What `shogun_physics_build()` returns: "deterministic", the version, the sources."""
    return f"deterministic pymunk {PYMUNK_VERSION} sources {sources_digest()[:16]}"


def cache_dir() -> Path:
    key = hashlib.sha256(" ".join([sources_digest(), shlex.join(compiler()),
                                   requested_flags()]).encode()).hexdigest()[:12]
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    return cache_root() / "pymunk-deterministic" / f"{py}-{platform.machine()}-{key}"


def _run(cmd: list[str], what: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise RuntimeError(f"{what} failed:\n{tail}")


def sdist() -> Path:
    """The pymunk sdist, fetched with pip once and checked against its known hash."""
    folder = cache_root() / "sdist"
    path = folder / SDIST
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        # `--no-binary pymunk`, not `:all:`: pip prepares the sdist's metadata in an
        # isolated environment with pymunk's build requirements, and `:all:` would build
        # cffi there from source too (minutes, and it fails without libffi's headers)
        _run([sys.executable, "-m", "pip", "--disable-pip-version-check", "download",
              f"pymunk=={PYMUNK_VERSION}", "--no-binary", "pymunk", "--prefer-binary",
              "--no-deps", "-d", str(folder)], "downloading the pymunk sdist", pip_env())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise RuntimeError(f"{path} has sha256 {digest}, expected {SDIST_SHA256}")
    return path


def _extract(archive: tarfile.TarFile, into: Path) -> None:
    """Unpack plain files and folders inside `into`. `extractall(filter="data")` does that
    from Python 3.11.4 (and 3.8.17, 3.9.17, 3.10.12) on; before (Debian 12 has 3.11.2) the
    same checks are made here: no absolute path, no `..`, no link or device."""
    if hasattr(tarfile, "data_filter"):
        archive.extractall(into, filter="data")
        return
    members = archive.getmembers()
    for member in members:
        parts = Path(member.name).parts
        plain = member.isfile() or member.isdir()
        if member.name.startswith(("/", "\\")) or ".." in parts or not plain:
            raise RuntimeError(f"the sdist holds {member.name!r}, which is not a plain file "
                               "or folder inside it")
    archive.extractall(into, members)


def pip_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a pip that builds or prepares pymunk: its build requirements
    (setuptools, wheel, cffi) come as wheels, cffi at the version installed here when
    there is one (the module is built against the cffi it will run with). A constraints
    file passed in `PIP_CONSTRAINT` reaches the pip that fills the isolated build
    environment; a build of cffi from source would need libffi's headers."""
    env = dict(os.environ if base is None else base)
    env["PIP_PREFER_BINARY"] = "1"
    try:
        from importlib.metadata import PackageNotFoundError, version
        installed = version("cffi")
    except (ImportError, PackageNotFoundError):
        return env
    pins = cache_root() / "build-constraints" / f"cffi-{installed}.txt"
    if any(c.isspace() for c in str(pins)):
        return env          # pip splits PIP_CONSTRAINT at spaces: the newest cffi wheel
    pins.parent.mkdir(parents=True, exist_ok=True)
    pins.write_text(f"cffi=={installed}\n")
    env["PIP_CONSTRAINT"] = " ".join(filter(None, [env.get("PIP_CONSTRAINT", ""), str(pins)]))
    return env


def patched_source(into: Path) -> Path:
    """Unpack the sdist into `into`, apply `PATCHES`, add the maths; return the tree."""
    with tarfile.open(sdist()) as archive:
        _extract(archive, into)
    tree = into / f"pymunk-{PYMUNK_VERSION}"
    for patch in PATCHES:
        path = tree / patch.path
        text = path.read_bytes().decode("utf-8")
        eol = "\r\n" if "\r\n" in text else "\n"      # the sdist's files have CRLF
        old = patch.old.replace("\n", eol)
        if text.count(old) != 1:
            raise RuntimeError(f"the patch for {patch.path} does not fit this sdist")
        new = patch.new.replace("\n", eol).replace("@BUILD_ID@", build_id())
        path.write_bytes(text.replace(old, new).encode("utf-8"))
    shutil.copy(MATH_DIR / MATH_SOURCE, tree / "Chipmunk2D" / "src")
    for header in MATH_HEADERS:          # for chipmunk_types.h and for portable_math.c
        shutil.copy(MATH_DIR / header, tree / "Chipmunk2D" / "include" / "chipmunk")
        shutil.copy(MATH_DIR / header, tree / "Chipmunk2D" / "src")
    return tree


def requested_flags(chain: Toolchain | None = None) -> str:
    """$CFLAGS, else Python's own (setting CFLAGS replaces those, optimisation included);
    for MSVC what `_CL_` holds already (setuptools' own /O2 stays on its command line)."""
    if (chain or toolchain()) is MSVC:
        return os.environ.get("_CL_", "")
    return os.environ.get("CFLAGS") or sysconfig.get_config_var("CFLAGS") or "-O2"


def build_env(chain: Toolchain | None = None) -> dict[str, str]:
    """The environment of the build: the toolchain's flags variable holds the requested
    flags, then the determinism flags (last: they win)."""
    chain = chain or toolchain()
    flags = [requested_flags(chain)] + determinism_flags(chain)
    return pip_env(dict(os.environ, **{chain.flags_variable: " ".join(f for f in flags if f)}))


@contextmanager
def _exclusive(lock: IO[str]) -> Iterator[None]:
    """Hold an exclusive lock on the open file `lock` (fcntl; msvcrt on Windows)."""
    if sys.platform == "win32":
        import msvcrt
        while True:
            try:
                msvcrt.locking(lock.fileno(), msvcrt.LK_LOCK, 1)
                break
            except OSError:         # LK_LOCK gives up after 10 s: keep waiting
                continue
        try:
            yield
        finally:
            lock.seek(0)
            msvcrt.locking(lock.fileno(), msvcrt.LK_UNLCK, 1)
    else:
        import fcntl
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield       # closing the file releases the lock


def _built(target: Path) -> bool:
    marker = target / "SHOGUN_BUILD"
    return marker.exists() and marker.read_text().startswith(build_id())


def build_once(target: Path, built: Callable[[Path], bool],
               make: Callable[[Path], None]) -> Path:
    """Run `make(target)` unless `built(target)`; return `target`. A file lock beside it
    keeps two processes (two test runs, a test and ensure-env) from building into one
    folder at once: the second waits, then finds it built."""
    if built(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f"{target.name}.lock", "w") as lock, _exclusive(lock):
        if not built(target):
            shutil.rmtree(target, ignore_errors=True)
            make(target)
    return target


def build(target: Path | None = None) -> Path:
    """Build into `target` (a folder for PYTHONPATH), once; return it."""
    target = target or cache_dir()
    if _built(target):
        return target
    reason = missing_tools()
    if reason:
        raise CannotBuild(reason)
    return build_once(target, _built, _make)


def _make(target: Path) -> None:
    env = build_env()
    with tempfile.TemporaryDirectory(prefix="pymunk-deterministic-") as tmp:
        tree = patched_source(Path(tmp))
        _run([sys.executable, "-m", "pip", "--disable-pip-version-check", "install",
              "--no-deps", "--no-cache-dir", "--target", str(target), str(tree)],
             "building pymunk", env)
    found = imported_build(dict(os.environ, PYTHONPATH=str(target)))
    if found != build_id():
        raise RuntimeError(f"the build in {target} imports as {found!r}")
    variable = toolchain().flags_variable
    (target / "SHOGUN_BUILD").write_text(
        f"{build_id()}\nCC={shlex.join(compiler())}\n{variable}={env[variable]}\n")


def imported_build(env: dict[str, str] | None = None) -> str:
    """What the pymunk a Python with `env` imports says it is ("" for a platform build)."""
    code = ("import pymunk._chipmunk_cffi as c; "
            f"f = getattr(c.lib, {BUILD_FUNCTION!r}, None); "
            "print(c.ffi.string(f()).decode() if f else '')")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""     # "": no pymunk at all


def install() -> None:
    """Build a wheel and install it over the pymunk of this Python's environment."""
    if imported_build() == build_id():
        print(f"build_physics: {build_id()} is installed already", file=sys.stderr)
        return
    reason = missing_tools()
    if reason:
        raise CannotBuild(reason)
    with tempfile.TemporaryDirectory(prefix="pymunk-deterministic-") as tmp:
        tree = patched_source(Path(tmp) / "src")
        wheels = Path(tmp) / "wheels"
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        _run(pip + ["wheel", "--no-deps", "--no-cache-dir", "-w", str(wheels), str(tree)],
             "building the pymunk wheel", build_env())
        wheel = next(wheels.glob("pymunk-*.whl"))
        _run(pip + ["install", "--no-deps", "--force-reinstall", str(wheel)],
             "installing the pymunk wheel")
    if imported_build() != build_id():
        raise RuntimeError("the installed pymunk does not report the deterministic build")
    print(f"build_physics: installed {build_id()}", file=sys.stderr)


HOW_TO_GET_IT = ("install a C compiler and Python's headers, then start Shogun again "
                 "(Debian, Ubuntu: sudo apt install gcc python3-dev; Fedora: sudo dnf "
                 "install gcc python3-devel; macOS: xcode-select --install; Windows: "
                 "Visual Studio's Build Tools with C++)")


def cannot_build_sentence(why: str) -> str:
    """What a player is told at set-up when the deterministic build cannot be made."""
    return (f"The verified tower physics cannot be built on this computer: {why}. Shogun "
            "runs with pymunk's PyPI wheel instead: its tower drops may differ from other "
            "computers', so at a table with others the tower's results are agreed by vote, "
            "and the lobby shows everyone that your seat does not run the verified tower. "
            f"To get it, {HOW_TO_GET_IT}.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--target", type=Path, help="build into this folder")
    where.add_argument("--install", action="store_true",
                       help="install into this Python's environment (falls back to the wheel)")
    where.add_argument("--can-build", action="store_true",
                       help="exit 0 if the build can be made here; else say why, exit 2")
    args = parser.parse_args(argv)
    try:
        if args.can_build:
            reason = missing_tools()
            if reason:
                raise CannotBuild(reason)
        elif args.install:
            install()
        else:
            print(build(args.target))
    except CannotBuild as why:
        print(f"build_physics: {cannot_build_sentence(str(why))}", file=sys.stderr)
        return 0 if args.install else 2
    except RuntimeError as failure:
        print(f"build_physics: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
