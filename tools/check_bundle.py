"""Check a built download as a player's machine would run it (issue 38), on any system.

    python tools/check_bundle.py dist/shogun-0.1.0-linux-x86_64.tar.gz [--no-window]

Unpacks the archive into a temporary folder far from the clone and starts the game there
with a player's environment (Linux/macOS: only HOME, and DISPLAY for the window; Windows:
only what any Windows program needs), so no virtual environment or PYTHONPATH can help it:

* `headless --seed 3` ends with the same final state hash as this clone's Python;
* `tower --selftest` reports the deterministic build and the golden digest
  (`sim.tower.build.DETERMINISTIC_DIGEST`);
* `smoke --out FILE.png` draws the window and writes a screenshot that is not blank, and
  Arcade knows its version (issue 2837);
* a LAN table on loopback, the bundle hosting (with a bot seat) and this clone joining,
  ends with one final state hash.

The Linux slow tests (tests/tools/test_bundle.py) call these same checks; the Windows
and macOS jobs of .github/workflows/bundle.yml run this script. Exit status 0 when every
check passed, 1 otherwise (each failure says what was seen).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from typing import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sim.tower.build import DETERMINISTIC_DIGEST  # noqa: E402  (the clone's golden value)

EXE = "shogun.exe" if sys.platform == "win32" else "shogun"
LAN_CODE = "BNDL5"
# what every Windows program needs from its environment (a player's session has more)
_WINDOWS_ESSENTIALS = ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "TEMP", "TMP", "COMSPEC")


class CheckFailed(AssertionError):
    """A check of the bundle failed (the message says what was seen)."""


def unpack(archive: Path, into: Path) -> Path:
    """The archive unpacked into `into`; the game's folder `shogun/`."""
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            z.extractall(into)
    else:
        with tarfile.open(archive) as t:
            t.extractall(into, filter="tar")
    folder = into / "shogun"
    if not (folder / EXE).is_file():
        raise CheckFailed(f"{archive.name} holds no shogun/{EXE}")
    if sys.platform != "win32":
        (folder / EXE).chmod(0o755)      # a zip loses the mode; a tarball keeps it
    return folder


def player_env(home: Path, **extra: str) -> dict[str, str]:
    """An otherwise empty environment with a home of its own (as `env -i HOME=...`)."""
    home.mkdir(parents=True, exist_ok=True)
    if sys.platform == "win32":
        base = {k: os.environ[k] for k in _WINDOWS_ESSENTIALS if k in os.environ}
        base.update(USERPROFILE=str(home), APPDATA=str(home / "AppData" / "Roaming"),
                    LOCALAPPDATA=str(home / "AppData" / "Local"))
    else:
        base = {"HOME": str(home)}
    return {**base, **extra}


WINDOW_VARIABLES = ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY",   # the X/Wayland display
                    "GALLIUM_DRIVER")       # Mesa's renderer where CI installs one (Windows)


def window_env() -> dict[str, str]:
    """What the window needs from this session (on Linux the display)."""
    return {k: os.environ[k] for k in WINDOW_VARIABLES if k in os.environ}


def run_bundled(folder: Path, args: list[str], env: dict[str, str], timeout: float = 600,
                ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(folder / EXE), *args], cwd=folder.parent, env=env,
                          capture_output=True, text=True, timeout=timeout)


def final_hash(text: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith("final state hash ")]
    if not lines:
        raise CheckFailed(f"no final state hash in:\n{text[-2000:]}")
    return lines[-1].split()[-1]


def _ok(done: subprocess.CompletedProcess[str], what: str) -> str:
    if done.returncode != 0:
        raise CheckFailed(f"{what} exited {done.returncode}:\n{done.stdout[-2000:]}\n"
                          f"{done.stderr[-3000:]}")
    return done.stdout


def check_headless(folder: Path, home: Path, seed: int = 3) -> str:
    """The bundle's bots-only game ends as the clone's does; returns the hash."""
    args = ["headless", "--seed", str(seed), "--quiet"]
    clone = subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True,
                           text=True, timeout=600)
    theirs = final_hash(_ok(clone, "the clone's headless game"))
    mine = final_hash(_ok(run_bundled(folder, args, player_env(home)), "bundled headless"))
    if mine != theirs:
        raise CheckFailed(f"headless --seed {seed}: the bundle ends at {mine}, the clone at {theirs}")
    return mine


def check_selftest(folder: Path, home: Path) -> str:
    out = _ok(run_bundled(folder, ["tower", "--selftest"], player_env(home), 120), "tower --selftest")
    if "physics: deterministic" not in out or DETERMINISTIC_DIGEST not in out:
        raise CheckFailed(f"the bundled tower is not the deterministic build with the golden "
                          f"digest {DETERMINISTIC_DIGEST}:\n{out}")
    return out.strip()


def screen_problem(path: Path) -> str | None:
    """Why the screenshot is not a drawn game screen, or None."""
    from PIL import Image
    with Image.open(path) as shot:
        if shot.width < 900 or shot.height < 600:
            return f"only {shot.width}x{shot.height} pixels"
        rgb = shot.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20) or []
    if len(colours) <= 500:
        return f"{len(colours)} colours: a blank or nearly blank screen"
    if max(count for count, _ in colours) >= 0.5 * rgb.width * rgb.height:
        return "one colour covers half the screen"
    return None


def check_smoke(folder: Path, home: Path, out: Path) -> str:
    done = run_bundled(folder, ["smoke", "--out", str(out)], player_env(home, **window_env()), 300)
    said = _ok(done, "smoke")
    if "Unable to load version number" in done.stdout + done.stderr:
        raise CheckFailed(f"Arcade cannot read its version in the bundle (issue 2837):\n{done.stderr}")
    if not out.is_file():
        raise CheckFailed(f"smoke wrote no {out}")
    problem = screen_problem(out)
    if problem:
        raise CheckFailed(f"the smoke screenshot {out}: {problem}")
    return said.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(path: Path, text: str, proc: subprocess.Popen[bytes], seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if text in path.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise CheckFailed(f"no {text!r} from the bundled host:\n{path.read_text(errors='replace')[-3000:]}")


def check_lan_table(folder: Path, workdir: Path, timeout: float = 900) -> str:
    """The bundle hosts a 3-seat table on loopback (one bot seat), the clone joins; both end
    with one final state hash, which is returned."""
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    net = {"SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_DISCOVERY": "off"}
    host_out, guest_out = workdir / "bundle-host.out", workdir / "clone-guest.out"
    with host_out.open("w") as out:
        host = subprocess.Popen(
            [str(folder / EXE), "host", "--headless", "--port", str(port), "--code", LAN_CODE,
             "--players", "3", "--bots", "1", "--save", str(workdir / "host.save")],
            cwd=folder.parent, env=player_env(workdir / "host-home", **net),
            stdout=out, stderr=subprocess.STDOUT)
    guest: subprocess.Popen[bytes] | None = None
    try:
        _wait_for(host_out, "table open on port", host, 60)
        with guest_out.open("w") as out:
            guest = subprocess.Popen(
                [sys.executable, str(ROOT / "main.py"), "join", f"127.0.0.1:{port}", "--code",
                 LAN_CODE, "--headless", "--save", str(workdir / "guest.save")],
                cwd=ROOT, env={**os.environ, **net}, stdout=out, stderr=subprocess.STDOUT)
        guest.wait(timeout)
        host.wait(120)
        for proc, path, who in ((host, host_out, "the bundled host"), (guest, guest_out, "the clone")):
            if proc.returncode != 0:
                raise CheckFailed(f"{who} exited {proc.returncode}:\n{path.read_text()[-3000:]}")
        hosted, joined = final_hash(host_out.read_text()), final_hash(guest_out.read_text())
        if hosted != joined:
            raise CheckFailed(f"the table split: the bundle ended at {hosted}, the clone at {joined}")
        return hosted
    except subprocess.TimeoutExpired as late:
        raise CheckFailed(f"the LAN game did not end within {late.timeout} s") from late
    finally:
        for left in (host, guest):
            if left is not None and left.poll() is None:
                left.kill()
                left.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--no-window", action="store_true", help="leave out the smoke check")
    parser.add_argument("--keep", type=Path, default=None,
                        help="unpack and write the screenshot here instead of a temporary folder")
    parser.add_argument("--unpack-only", action="store_true",
                        help="only unpack into --keep (CI then puts an OpenGL beside the game)")
    args = parser.parse_args(argv)
    if args.unpack_only:
        if args.keep is None:
            parser.error("--unpack-only needs --keep DIR")
        args.keep.mkdir(parents=True, exist_ok=True)
        print(unpack(args.archive.resolve(), args.keep.resolve()))
        return 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="shogun-player-") as tmp:
        place = (args.keep or Path(tmp)).resolve()
        place.mkdir(parents=True, exist_ok=True)
        folder = unpack(args.archive.resolve(), place)
        checks: list[tuple[str, Callable[[], str]]] = [
                  ("headless", lambda: check_headless(folder, place / "home")),
                  ("selftest", lambda: check_selftest(folder, place / "home")),
                  ("lan table", lambda: check_lan_table(folder, place / "lan"))]
        if not args.no_window:
            checks.insert(2, ("smoke", lambda: check_smoke(folder, place / "home",
                                                           place / "smoke.png")))
        for name, check in checks:
            try:
                print(f"ok {name}: {check()}", flush=True)
            except CheckFailed as why:
                failed += 1
                print(f"FAILED {name}: {why}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
