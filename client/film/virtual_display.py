"""A virtual X display for rendering without a screen (a film made on a server or in CI).

Why its own: `./shogun replay SAVE --film N` must work where no desktop runs; when
DISPLAY is unset and `Xvfb` is installed, one is started for this process (24-bit: Mesa's
GLX hangs on pytest-xvfb's 16-bit default) and stopped when the process ends.

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess


class NoDisplay(RuntimeError):
    """No display to render on, and none could be started."""


def ensure_display(size: tuple[int, int] = (1920, 1080)) -> None:
    """Make sure DISPLAY names a running X server, starting Xvfb if needed."""
    if os.environ.get("DISPLAY"):
        return
    start_xvfb(size)


def start_xvfb(size: tuple[int, int]) -> None:
    """Start a 24-bit Xvfb of `size` for this process and point DISPLAY at it (replacing
    any DISPLAY: the client tests use it over pytest-xvfb's 16-bit one); it is stopped when
    the process ends. NoDisplay when Xvfb is missing or does not start."""
    if not shutil.which("Xvfb"):
        raise NoDisplay("no display (DISPLAY is not set) and Xvfb is not installed: "
                        "install the xvfb package or run under xvfb-run")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0",
                             f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as f:
        while not number.endswith(b"\n"):
            ch = f.read(1)
            if not ch:
                break
            number += ch
    if not number.strip():
        proc.kill()
        raise NoDisplay("Xvfb did not start")
    os.environ["DISPLAY"] = f":{int(number)}"
    atexit.register(proc.kill)
