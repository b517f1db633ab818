"""The download, run as a player's machine would (issue 38): built by tools/build_bundle.py,
unpacked into another folder and started there with an empty environment (`env -i`: no
virtual environment, no PYTHONPATH; only HOME, and for the window DISPLAY). It must play
the same game as the clone, run the deterministic tower, draw its window and sit at a LAN
table with a clone.

Slow: the build takes minutes. The session builds it once into a temporary folder;
`SHOGUN_BUNDLE_DIST=dist` uses a bundle already built there by `tools/bundle` instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from sim.tower.build import DETERMINISTIC_DIGEST
from tests.client.test_smoke import assert_a_game_screen
from tests.net import processes as P

ROOT = Path(__file__).resolve().parents[2]
from tools import build_bundle

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
    place = tmp_path_factory.mktemp("downloads")
    with tarfile.open(archive) as t:
        t.extractall(place, filter="tar")
    return place / "shogun"


def _player_env(home: Path, **extra: str) -> dict[str, str]:
    """`env -i` with a home: what a double-click on a fresh account starts with."""
    home.mkdir(parents=True, exist_ok=True)
    return {"HOME": str(home), **extra}


def _run(unpacked: Path, args: list[str], env: dict[str, str], timeout: float = 600,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(unpacked / "shogun"), *args], cwd=unpacked.parent, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _final_hash(text: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith("final state hash ")]
    assert lines, text[-2000:]
    return lines[-1].split()[-1]


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
    entry = (unpacked / "shogun.desktop").read_text()
    assert "Icon=shogun" in entry and os.access(unpacked / "add-to-menu", os.X_OK)


def test_a_headless_game_ends_with_the_clones_final_hash(unpacked, tmp_path):
    clone = subprocess.run([sys.executable, str(ROOT / "main.py"), "headless", "--seed", "3",
                            "--quiet"], capture_output=True, text=True, timeout=600)
    assert clone.returncode == 0, clone.stderr
    bundled = _run(unpacked, ["headless", "--seed", "3", "--quiet"], _player_env(tmp_path / "home"))
    assert bundled.returncode == 0, bundled.stderr
    assert _final_hash(bundled.stdout) == _final_hash(clone.stdout)


def test_the_tower_selftest_reports_the_deterministic_build_and_the_golden_digest(unpacked, tmp_path):
    done = _run(unpacked, ["tower", "--selftest"], _player_env(tmp_path / "home"), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "physics: deterministic" in done.stdout
    assert DETERMINISTIC_DIGEST in done.stdout


def test_smoke_draws_the_window_and_arcade_knows_its_version(unpacked, tmp_path):
    """Under the test run's Xvfb (pytest-xvfb). Arcade 3.3.3's own hook made the bundled game
    print "Unable to load version number" (its VERSION bundled as a folder)."""
    display = os.environ.get("DISPLAY")
    if not display:
        pytest.skip("no display: run under Xvfb (./run-tests installs it)")
    extra = {"DISPLAY": display}
    if os.environ.get("XAUTHORITY"):
        extra["XAUTHORITY"] = os.environ["XAUTHORITY"]
    out = tmp_path / "screen.png"
    done = _run(unpacked, ["smoke", "--out", str(out)], _player_env(tmp_path / "home", **extra),
                timeout=300)
    assert done.returncode == 0, done.stderr
    assert "menu drawn after" in done.stdout
    assert "Unable to load version number" not in done.stderr + done.stdout
    assert_a_game_screen(out)


@pytest.mark.network
def test_a_lan_table_of_the_bundle_hosting_and_a_clone_joining_ends_with_one_hash(unpacked, tmp_path):
    """Loopback only: the bundle hosts (with a bot seat), a clone's `.venv` joins."""
    port = P.free_port()
    net = {"SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_DISCOVERY": "off"}
    host_out = tmp_path / "host.out"
    with host_out.open("w") as out:
        host = subprocess.Popen(
            [str(unpacked / "shogun"), "host", "--headless", "--port", str(port), "--code", P.CODE,
             "--players", "3", "--bots", "1", "--save", str(tmp_path / "host.save")],
            cwd=unpacked.parent, env=_player_env(tmp_path / "home", **net),
            stdout=out, stderr=subprocess.STDOUT)
    guest = None
    try:
        _wait_for(host_out, "table open on port", host, 60)
        guest = P.join(tmp_path, port, "guest0")
        P.wait_all([guest], 900)
        host.wait(120)
        assert host.returncode == 0, host_out.read_text()[-3000:]
        assert guest.proc.returncode == 0, guest.errors()[-3000:]
        assert guest.final_hash() is not None, guest.text()[-2000:]
        assert _final_hash(host_out.read_text()) == guest.final_hash()
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        if guest is not None:
            guest.kill()


def _wait_for(path: Path, text: str, proc: subprocess.Popen[bytes], seconds: float) -> None:
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if text in path.read_text():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"no {text!r} from the bundled host:\n{path.read_text()[-3000:]}")
