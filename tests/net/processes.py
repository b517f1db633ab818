"""Headless peers as real processes on 127.0.0.1 (for loopback tests and the benchmark).

Every child runs with a deadline and is killed if anything goes wrong; ports are free
ephemeral ports on 127.0.0.1; zeroconf is off.

Used by the tests that run peers as processes (tests/net/table/test_loopback.py, tests/net/reach/, tests/client/sessions/test_net_window.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
CODE = "LOOP5"
STARTUP_CAP = 60.0      # seconds a host may take to say it listens (an upper bound, no delay)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    def __init__(self, name: str, args: list[str], workdir: Path, env: dict | None = None,
                 script: Path = ROOT / "main.py", preexec: Callable[[], None] | None = None):
        self.name = name
        self.out = workdir / f"{name}.out"
        self.err = workdir / f"{name}.err"
        self.stats = workdir / f"{name}.stats.json"
        full_env = {**os.environ, "SHOGUN_NET_INTERFACE": "127.0.0.1",
                    "SHOGUN_NET_DISCOVERY": "off", "SHOGUN_NET_STATS": str(self.stats),
                    "PYTHONUNBUFFERED": "1", **(env or {})}
        self.args = [PYTHON, "-X", "faulthandler", str(script), *args]
        self.proc = subprocess.Popen(self.args, cwd=ROOT, env=full_env,
                                     stdout=open(self.out, "w"), stderr=open(self.err, "w"),
                                     preexec_fn=preexec)

    def text(self) -> str:
        return self.out.read_text() if self.out.exists() else ""

    def errors(self) -> str:
        return self.err.read_text() if self.err.exists() else ""

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise TimeoutError(f"{self.name}: no {pattern!r} in output:\n{self.text()}\n"
                           f"{self.errors()[-2000:]}")

    def wait_for_error(self, text: str, timeout: float) -> None:
        """Wait until `text` is in the process's log (stderr), while it runs."""
        end = time.monotonic() + timeout
        while text not in self.errors():
            assert time.monotonic() < end and self.proc.poll() is None, \
                f"{self.name}: no {text!r} in its log:\n" + self.text()[-1000:] + self.errors()[-2000:]
            time.sleep(0.1)

    def final_hash(self) -> str | None:
        m = re.search(r"final state hash ([0-9a-f]{64})", self.text())
        return m.group(1) if m else None

    def load_stats(self) -> dict:
        return json.loads(self.stats.read_text())

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)


def host(workdir: Path, players: int, bots: int = 0, port: int | None = None,
         timeout: float = 120.0, extra: Sequence[str] = (), env: dict | None = None,
         preexec: Callable[[], None] | None = None) -> tuple[Peer, int]:
    port = port or free_port()
    peer = Peer("host", ["host", "--headless", "--port", str(port), "--code", CODE,
                         "--players", str(players), "--bots", str(bots),
                         "--rejoin-timeout", str(timeout),
                         "--save", str(workdir / "host.save"), *extra], workdir, env,
                preexec=preexec)
    try:
        # event-driven: returns at the readiness line; the cap only ends a host that never
        # opens (60 s, as tests/net/wormhole_servers.py: a loaded CI machine starts slowly)
        peer.wait_for(r"table open on port", STARTUP_CAP)
    except TimeoutError:
        peer.kill()          # not left running for the rest of the run (its caller has no handle)
        raise
    return peer, port


def join(workdir: Path, port: int, name: str, timeout: float = 120.0, extra: Sequence[str] = (),
         env: dict | None = None, preexec: Callable[[], None] | None = None) -> Peer:
    return Peer(name, ["join", f"127.0.0.1:{port}", "--code", CODE, "--headless",
                       "--rejoin-timeout", str(timeout), "--save", str(workdir / f"{name}.save"),
                       *extra], workdir, env, preexec=preexec)


def watch(workdir: Path, port: int, name: str = "watcher") -> Peer:
    return Peer(name, ["watch", f"127.0.0.1:{port}", "--code", CODE, "--headless"], workdir)


def resume(workdir: Path, name: str, timeout: float = 120.0) -> Peer:
    return Peer(name + "-resumed", ["join", "--headless", "--resume",
                                    str(workdir / f"{name}.save"),
                                    "--rejoin-timeout", str(timeout)], workdir)


def wait_all(peers: list[Peer], timeout: float) -> None:
    """Wait for every peer to exit; kill them all if the deadline passes."""
    end = time.monotonic() + timeout
    try:
        for p in peers:
            left = end - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(p.args, timeout)
            p.proc.wait(left)
    except subprocess.TimeoutExpired:
        for p in peers:
            p.kill()
        details = "\n".join(f"--- {p.name}\n{p.text()[-1500:]}\n{p.errors()[-1500:]}"
                            for p in peers)
        raise AssertionError(f"peers did not finish within {timeout} s\n{details}")


def kill_all(peers: list[Peer]) -> None:
    for p in peers:
        p.kill()


def play(workdir: Path, players: int, bots: int = 0, timeout: float = 180.0,
         watchers: int = 0, extra: Sequence[str] = (),
         preexec_for: Callable[[str], Callable[[], None] | None] = lambda name: None,
         ) -> list[Peer]:
    """A whole game: host + joiners (+ spectators); returns the finished peers.

    `preexec_for(name)` may give a function each peer process runs before it starts
    (the benchmark uses it to put each peer in its own CPU share)."""
    peers: list[Peer] = []
    try:
        h, port = host(workdir, players, bots, extra=extra, preexec=preexec_for("host"))
        peers.append(h)
        for i in range(watchers):
            peers.append(watch(workdir, port, f"watcher{i}"))
        for i in range(players - bots - 1):
            name = f"guest{i}"
            peers.append(join(workdir, port, name, extra=extra, preexec=preexec_for(name)))
        wait_all(peers, timeout)
        return peers
    finally:
        kill_all(peers)
