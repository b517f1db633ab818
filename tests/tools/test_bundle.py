"""The download, run as a player's machine would (issue 38): built by tools/build_bundle.py,
unpacked into another folder and started there with an empty environment (only HOME, and
DISPLAY for the window: no virtual environment, no PYTHONPATH). It must play the same game
as the clone, run the deterministic tower, draw its window and sit at a LAN table with a
clone. The checks are tools/check_bundle.py's, which the Windows and macOS jobs of
.github/workflows/bundle.yml run too.

Slow: the build takes minutes. The session builds it once into a temporary folder;
`SHOGUN_BUNDLE_DIST=dist` (what .ci/run sets after `tools/bundle`) uses that one instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tools import build_bundle, check_bundle

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800),
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="the Linux download (the others: .github/workflows/bundle.yml)")]
BUILD_TIMEOUT = 1500


@pytest.fixture(scope="session")
def archive(tmp_path_factory) -> Path:
    given = os.environ.get("SHOGUN_BUNDLE_DIST")
    dist = Path(given).resolve() if given else tmp_path_factory.mktemp("dist")
    if not given:
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "build_bundle.py"),
                               "--dist", str(dist)], capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    path = dist / build_bundle.archive_name()
    assert path.is_file(), f"no {path}"
    return path


@pytest.fixture(scope="session")
def unpacked(archive, tmp_path_factory) -> Path:
    """The archive unpacked where a player would: a folder far from the clone."""
    return check_bundle.unpack(archive, tmp_path_factory.mktemp("downloads"))


def test_the_archive_holds_one_folder_with_the_game_and_its_menu_entry(archive, unpacked):
    assert archive.stat().st_size <= build_bundle.MAX_ARCHIVE_BYTES
    with tarfile.open(archive) as t:
        tops = {Path(name).parts[0] for name in t.getnames()}
    assert tops == {"shogun"}
    assert os.access(unpacked / "shogun", os.X_OK)
    inside = unpacked / "_internal"
    assert build_bundle.compiled_libraries(unpacked) == [
        next((inside / "pymunk").glob("_chipmunk*"))]
    assert (inside / "arcade" / "VERSION").is_file()
    for lang in ("nl", "ro"):
        assert (inside / "lang" / "locale" / lang / "LC_MESSAGES" / "shogun.mo").is_file()
    assert not list(inside.rglob("*.po")) and not (inside / "babel").exists()
    assert (inside / "assets" / "icon.png").read_bytes() == (ROOT / "assets" / "icon.png").read_bytes()
    assert not list(inside.rglob("*readline*"))          # GNU readline is GPL-3: left out
    licences = unpacked / "licenses"
    assert (licences / "python" / "LICENSE.txt").is_file()
    assert (licences / "pyinstaller" / "COPYING.txt").is_file()     # the bootloader exception
    assert (licences / "pymunk").is_dir() and (licences / "zeroconf").is_dir()
    entry = (unpacked / "shogun.desktop").read_text()
    assert "Icon=shogun" in entry and os.access(unpacked / "add-to-menu", os.X_OK)


def test_a_headless_game_ends_with_the_clones_final_hash(unpacked, tmp_path):
    assert len(check_bundle.check_headless(unpacked, tmp_path / "home")) == 64


def test_the_tower_selftest_reports_the_deterministic_build_and_the_golden_digest(unpacked, tmp_path):
    check_bundle.check_selftest(unpacked, tmp_path / "home")


def test_smoke_draws_the_window_and_arcade_knows_its_version(unpacked, tmp_path):
    """Under the test run's Xvfb (pytest-xvfb). Arcade 3.3.3's own hook made the bundled game
    print "Unable to load version number" (its VERSION bundled as a folder)."""
    if not os.environ.get("DISPLAY"):
        pytest.skip("no display: run under Xvfb (./run-tests installs it)")
    said = check_bundle.check_smoke(unpacked, tmp_path / "home", tmp_path / "screen.png")
    assert "menu drawn after" in said


@pytest.mark.network
def test_a_lan_table_of_the_bundle_hosting_and_a_clone_joining_ends_with_one_hash(unpacked, tmp_path):
    """Loopback only: the bundle hosts (with a bot seat), a clone's `.venv` joins."""
    assert len(check_bundle.check_lan_table(unpacked, tmp_path / "lan")) == 64


def test_the_workflows_steps_run_here_as_written(archive, tmp_path):
    """.github/workflows/bundle.yml unpacks with --unpack-only, then runs every check with
    --keep on that folder: the same two commands on Linux (the window under Xvfb)."""
    keep = tmp_path / "player"
    script = str(ROOT / "tools" / "check_bundle.py")
    unpacked = subprocess.run([sys.executable, script, str(archive), "--keep", str(keep),
                               "--unpack-only"], capture_output=True, text=True, timeout=300)
    assert unpacked.returncode == 0, unpacked.stderr
    assert Path(unpacked.stdout.strip()) == keep.resolve() / "shogun"
    window = [] if os.environ.get("DISPLAY") else ["--no-window"]
    done = subprocess.run([sys.executable, script, str(archive), "--keep", str(keep), *window],
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line.split(":")[0] for line in done.stdout.splitlines() if line.startswith("ok ")]
    assert said == ["ok headless", "ok selftest"] + (["ok smoke"] if not window else []) + ["ok lan table"]
