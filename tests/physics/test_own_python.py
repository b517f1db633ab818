"""The verified tower on the Python a player already has (issue 53).

A copy of the checkout (its tracked files, as a fresh clone has them) is set up by the
project's own `tools/ensure-env --tower` under every Python 3.11+ this machine has
(Debian's /usr/bin/python3, 3.11.2, whose tarfile has no `extractall(filter=)`, and
pyenv's), each in a new venv from nothing; `main.py tower --selftest` (what `./shogun
tower --selftest` runs) must then print the golden digest. Once more with libffi's headers
hidden (a private mount namespace where the folder holding ffi.h is a copy without it)
and an empty pip cache, so no cffi built here earlier can stand in: only pymunk may be
built from source. And a Python below 3.11 is told in words what is needed.

Downloads are shared between the interpreters (pip's own cache; one `SHOGUN_CACHE` for the
pymunk sdist, fetched once before the builds start); only pymunk and msgpack are installed,
not the game's whole set.

Each build is one process with one core's work (a compiler run after another): the set-ups
of the tests that were selected all start together in the module's first such test, two at
a time (`SET_UPS_AT_ONCE`), and each test then waits for its own and checks it. Every set-up
is its own fresh checkout and venv, as before; only the waiting is shared.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

import pytest

from sim.tower.build import DETERMINISTIC_DIGEST

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = f"physics: deterministic  digest {DETERMINISTIC_DIGEST}"
# a build takes about a minute of CPU; on a busy machine several times that in wall time
# (every selected set-up starts at once, two at a time: the last waits for the others)
BUILD_TIMEOUT = pytest.mark.timeout(1800)
SET_UPS_AT_ONCE = 2


def _version(python: str) -> tuple[int, ...] | None:
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d %d %d' % sys.version_info[:3])"],
                              capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return tuple(map(int, done.stdout.split())) if done.returncode == 0 else None


def _pythons() -> list[tuple[str, tuple[int, ...]]]:
    """Every interpreter here: Debian's own, then pyenv's (realpaths, no repeats)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = [Path("/usr/bin/python3")] + sorted(pyenv.glob("*/bin/python"))
    seen: dict[str, tuple[str, tuple[int, ...]]] = {}
    for path in found:
        if path.exists() and str(path.resolve()) not in seen:
            version = _version(str(path))
            if version is not None:
                seen[str(path.resolve())] = (str(path), version)
    return list(seen.values())


PYTHONS = _pythons()
NEW_ENOUGH = [(path, v) for path, v in PYTHONS if v >= (3, 11)]
TOO_OLD = [(path, v) for path, v in PYTHONS if (3, 0) <= v < (3, 11)]


def _label(python: tuple[str, tuple[int, ...]]) -> str:
    return f"{'.'.join(map(str, python[1]))}-{'system' if python[0].startswith('/usr/') else 'pyenv'}"


def fresh_checkout(into: Path, only: tuple[str, ...] = ()) -> Path:
    """The tracked files of this checkout as they are now (a fresh clone of this tree)."""
    if only:
        names = list(only)
    else:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
        if listed.returncode != 0:
            pytest.skip("not a git checkout: cannot tell which files a clone has")
        names = [n for n in listed.stdout.decode().split("\0") if n]
    for name in names:
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "CC", "CFLAGS")}
    env.update(extra)
    return env


def set_up_and_selftest(tree: Path, env: dict[str, str],
                        wrap: list[str] | None = None) -> tuple[str, str]:
    """`tools/ensure-env --tower` then `main.py tower --selftest`, both under `wrap`;
    returns (the set-up's stderr, the selftest's stdout)."""
    script = ('set -e; tools/ensure-env --tower; echo "--- selftest" >&2; '
              '.venv/bin/python main.py tower --selftest')
    done = subprocess.run((wrap or []) + ["bash", "-c", script], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr, done.stdout


@dataclass(frozen=True)
class SetUp:
    """One test's set-up: a fresh checkout, the environment and the wrapper to run
    `set_up_and_selftest` with."""
    tree: Path
    env: dict[str, str]
    wrap: tuple[str, ...] = ()


class SetUps:
    """The module's set-ups, run in a pool; `result(name)` waits for one."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self.pool = pool
        self.started: dict[str, Future] = {}

    def start(self, name: str, prepare: Callable[[], SetUp | str]) -> None:
        def run() -> tuple[Path, str, str] | str:
            job = prepare()                 # (a string: why the test is skipped)
            if isinstance(job, str):
                return job
            return (job.tree, *set_up_and_selftest(job.tree, job.env, list(job.wrap) or None))
        self.started[name] = self.pool.submit(run)

    def result(self, name: str) -> tuple[Path, str, str]:
        """(the checkout, the set-up's stderr, the selftest's stdout) of set-up `name`."""
        done = self.started[name].result(timeout=1700)
        if isinstance(done, str):
            pytest.skip(done)
        return done


def _sdist_into(cache: Path) -> None:
    """The pymunk sdist fetched once into the shared cache (tools/build_physics.py's own
    download, checked against its hash), so the set-ups running together never write it
    at the same time."""
    done = subprocess.run([sys.executable, "-c",
                           "from tools import build_physics; build_physics.sdist()"],
                          cwd=ROOT, env=dict(os.environ, SHOGUN_CACHE=str(cache)),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def set_ups(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[SetUps]:
    """Start the set-up of every test of this module that this run selected."""
    here = Path(str(request.module.__file__))
    selected = {item.name for item in request.session.items if item.path == here}
    shogun_cache = tmp_path_factory.mktemp("shogun-cache")      # one sdist for every Python
    with ThreadPoolExecutor(max_workers=SET_UPS_AT_ONCE) as pool:
        jobs = SetUps(pool)
        every = [p for p in NEW_ENOUGH
                 if f"test_every_python_here_builds_the_verified_tower[{_label(p)}]" in selected]
        if every:
            _sdist_into(shogun_cache)
        for python in every:
            jobs.start(_label(python), partial(_every_python_job, python, shogun_cache,
                                               tmp_path_factory.mktemp("every-python")))
        if "test_it_builds_without_libffi_headers" in selected:
            jobs.start("no-ffi", partial(_no_ffi_job, tmp_path_factory.mktemp("no-ffi")))
        if "test_without_a_compiler_the_player_is_told_at_set_up_and_in_the_selftest" in selected:
            jobs.start("no-cc", partial(_no_cc_job, tmp_path_factory.mktemp("no-cc")))
        try:
            yield jobs
        finally:
            for future in jobs.started.values():
                future.cancel()


def _every_python_job(python: tuple[str, tuple[int, ...]], shogun_cache: Path,
                      tmp_path: Path) -> SetUp:
    return SetUp(fresh_checkout(tmp_path / "clone"),
                 clean_env(PYTHON=python[0], SHOGUN_CACHE=str(shogun_cache)))


@pytest.mark.slow
@BUILD_TIMEOUT
@pytest.mark.parametrize("python", NEW_ENOUGH, ids=[_label(p) for p in NEW_ENOUGH])
def test_every_python_here_builds_the_verified_tower(python, set_ups, tmp_path):
    path, version = python
    tree, said, out = set_ups.result(_label(python))
    assert "Building the deterministic tower physics" in said
    assert _version(str(tree / ".venv" / "bin" / "python")) == version    # that Python's venv
    line, verdict = out.splitlines()[-2:]
    print(f"{_label(python)}: {line}")
    assert line == GOLDEN, said
    assert "runs the verified tower" in verdict


def _ffi_folder() -> Path | None:
    """The folder the C compiler finds ffi.h in, or None."""
    found = subprocess.run(["cc", "-M", "-x", "c", "-"], input="#include <ffi.h>\n",
                           capture_output=True, text=True)
    if found.returncode != 0:
        return None
    for word in found.stdout.replace("\\\n", " ").split():
        if word.endswith("/ffi.h"):
            return Path(word).resolve().parent
    return None


# Run in a new mount namespace: the folder holding ffi.h is replaced by a copy without
# ffi*.h, and the compiler is asked to prove it no longer finds one.
HIDE_FFI = """set -e
mount --make-rprivate /
copy="$1"; folder="$2"; shift 2
cp -a "$folder/." "$copy"
rm -f "$copy"/ffi*.h
mount --bind "$copy" "$folder"
if printf '#include <ffi.h>\\n' | cc -E -x c - >/dev/null 2>&1; then
  echo "ffi.h is still found" >&2; exit 3
fi
exec "$@"
"""


def _no_ffi_job(tmp_path: Path) -> SetUp | str:
    if not NEW_ENOUGH:
        return "no Python 3.11 or newer here"
    if shutil.which("cc") is None:
        return "no C compiler: nothing to build with"
    env = clean_env(PYTHON=NEW_ENOUGH[0][0], SHOGUN_CACHE=str(tmp_path / "shogun-cache"),
                    PIP_CACHE_DIR=str(tmp_path / "pip-cache"))     # nothing built before
    folder = _ffi_folder()
    wrap: tuple[str, ...] = ()
    if folder is not None:
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            return ("libffi's headers are installed and hiding them needs a mount "
                    "namespace (root and unshare)")
        (tmp_path / "hide").mkdir()
        wrap = ("unshare", "-m", "sh", "-c", HIDE_FFI, "hide-ffi", str(tmp_path / "hide"),
                str(folder))
    return SetUp(fresh_checkout(tmp_path / "clone"), env, wrap)


@pytest.mark.slow
@BUILD_TIMEOUT
def test_it_builds_without_libffi_headers(set_ups):
    """Before issue 53 the sdist was fetched with `--no-binary :all:`, which built cffi
    from source too: "Failed to build cffi" without libffi's headers, and the wheel stayed."""
    _tree, said, out = set_ups.result("no-ffi")
    assert out.splitlines()[-2] == GOLDEN, said
    folder = _ffi_folder()
    assert folder is None or (folder / "ffi.h").exists()      # hidden only in there


@pytest.mark.parametrize("launcher", ["shogun", "run-tests"])
def test_a_python_below_3_11_is_told_what_it_needs(launcher, tmp_path):
    if not TOO_OLD:
        pytest.skip("no Python 3 older than 3.11 here")
    path, version = max(TOO_OLD, key=lambda p: p[1])
    tree = fresh_checkout(tmp_path, ("shogun", "run-tests", "tools/ensure-env", "pyproject.toml"))
    done = subprocess.run([str(tree / launcher)], cwd=tmp_path, env=clean_env(PYTHON=path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    said = done.stderr
    assert said.startswith("Shogun needs Python 3.11 or newer")
    assert f"is Python {'.'.join(map(str, version))}" in said
    for how in ("sudo apt install python3 python3-venv", "pyenv install 3.12",
                "uv python install 3.12", "sudo dnf install", "PYTHON="):
        assert how in said, how
    assert "Traceback" not in said + done.stdout and not (tree / ".venv").exists()


def test_a_missing_python_is_named(tmp_path):
    tree = fresh_checkout(tmp_path, ("shogun", "tools/ensure-env", "pyproject.toml"))
    done = subprocess.run([str(tree / "shogun")], cwd=tmp_path,
                          env=clean_env(PYTHON=str(tmp_path / "no-such-python")),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "there is no " in done.stderr
    assert "Traceback" not in done.stderr and not (tree / ".venv").exists()


def _no_cc_job(tmp_path: Path) -> SetUp | str:
    if not NEW_ENOUGH:
        return "no Python 3.11 or newer here"
    return SetUp(fresh_checkout(tmp_path / "clone"),
                 clean_env(PYTHON=NEW_ENOUGH[-1][0], CC=str(tmp_path / "no-such-cc"),
                           SHOGUN_CACHE=str(tmp_path / "shogun-cache")))


@pytest.mark.slow
@BUILD_TIMEOUT
def test_without_a_compiler_the_player_is_told_at_set_up_and_in_the_selftest(set_ups):
    """No deterministic build can be made: the set-up goes on with the wheel, and says what
    that means and how to get the verified tower; so does `tower --selftest`."""
    _tree, said, out = set_ups.result("no-cc")
    assert "cannot be built on this computer: no C compiler" in said
    assert "sudo apt install gcc python3-dev" in said
    line, verdict = out.splitlines()[-2:]
    assert line.startswith("physics: platform  digest ")
    assert "not the verified tower" in verdict and "sudo apt install" in verdict
