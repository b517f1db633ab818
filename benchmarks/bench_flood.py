"""The host's memory and CPU under a stranger's flood (issue 26, BENCHMARKS.md).

A real host process (`main.py host --headless`, 3 seats) of the checkout ROOT is flooded
from 127.0.0.1 by a stranger who never proves the join code, one flood at a time:

- `slowloris`: 300 connections, each a 1 MiB length prefix and all of the frame but a
  byte, then nothing, held for the flood's time;
- `idle`: 500 connections that send nothing, held;
- `guesses`: wrong join codes, 29 a second, each from a new 127.x source address (a real
  SPAKE2 exchange, `tests/net/raw_dialer.py` of ROOT, then a sealed Hello the host cannot
  open: one guess checked).

For each it prints the host's resident memory before and at its peak, the CPU seconds it
spent during the flood (user + system, from /proc) and that as a share of one core, the
connections still open at the end (slowloris, idle) or the guesses the host checked
(its key exchanges finished, from the guesser's side: a `Refused` after the Hello, versus
turned away before the key exchange). Linux only (/proc).

Run: `.venv/bin/python benchmarks/bench_flood.py [--root CHECKOUT] [--seconds 20]`; the
"before" figures come from a worktree of the code before issue 26
(`git worktree add /tmp/before f627205^1`, then `--root /tmp/before`).
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
from tests.net.trust.flood_attacker import PARTIAL, PREFIX, still_open  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> int:
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(found.group(1)) * 1024 if found else 0


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK      # utime + stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_host(root: Path, port: int, workdir: Path) -> subprocess.Popen:
    env = {**os.environ, "SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_DISCOVERY": "off",
           "PYTHONUNBUFFERED": "1"}
    out = open(workdir / "host.out", "w")
    proc = subprocess.Popen([sys.executable, str(root / "main.py"), "host", "--headless",
                             "--port", str(port), "--code", "FLOOD", "--players", "3",
                             "--save", str(workdir / "host.save")], cwd=root, env=env,
                            stdout=out, stderr=open(workdir / "host.err", "w"))
    end = time.monotonic() + 30
    while time.monotonic() < end and "table open" not in (workdir / "host.out").read_text():
        time.sleep(0.1)
    time.sleep(1.0)                      # settled: its imports done
    return proc


# ---------------------------------------------------------------- the strangers (in this process)
def hold_connections(port: int, count: int, slow: bool) -> list[socket.socket]:
    held = []
    for _ in range(count):
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", port))
            if slow:
                s.settimeout(5.0)
                s.sendall(PREFIX + PARTIAL)
        except OSError:
            pass
        held.append(s)
    return held


def guesser(root: str, port: int, rate: float, seconds: float) -> None:
    """Run in a child process with ROOT's code: wrong codes from rotating addresses."""
    sys.path.insert(0, root)
    for name in [m for m in sys.modules if m == "tests" or m.startswith("tests.")]:
        del sys.modules[name]           # ROOT's own tests package and code, not this one's
    from tests.net.raw_dialer import RawDialer, hello
    checked = turned = 0
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        due = time.monotonic() + 1 / rate
        i += 1
        source = f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=(source, 0))
            dialer = RawDialer("WRONG")
            first = dialer.read(s.recv(65536))[0]
            if first.get("type") != "Welcomed":
                turned += 1
            else:
                s.sendall(dialer.answer(first))
                s.sendall(dialer.seal(hello({}, b"g" * 16)))
                try:
                    s.recv(65536)
                except OSError:
                    pass
                checked += 1
            s.close()
        except (OSError, IndexError):
            turned += 1
        time.sleep(max(0.0, due - time.monotonic()))
    print(f"guesses {i}: {checked} reached the key check, {turned} turned away", flush=True)


# ---------------------------------------------------------------- one flood
def flood(root: Path, kind: str, seconds: float, workdir: Path) -> str:
    port = free_port()
    host = start_host(root, port, workdir)
    try:
        before_rss, peak = rss(host.pid), rss(host.pid)
        cpu0, t0 = cpu(host.pid), time.monotonic()
        note = ""
        if kind in ("slowloris", "idle"):
            held = hold_connections(port, 300 if kind == "slowloris" else 500,
                                    kind == "slowloris")
            while time.monotonic() - t0 < seconds:
                peak = max(peak, rss(host.pid))
                time.sleep(0.1)
            note = f"{sum(still_open(s) for s in held)} of {len(held)} open after {seconds:g} s"
            for s in held:
                s.close()
        else:
            child = subprocess.Popen([sys.executable, __file__, "--guesser", str(root),
                                      str(port), str(seconds)], stdout=subprocess.PIPE,
                                     text=True, cwd=root)
            while child.poll() is None:
                peak = max(peak, rss(host.pid))
                time.sleep(0.1)
            note = (child.stdout.read() if child.stdout else "").strip()
        spent, wall = cpu(host.pid) - cpu0, time.monotonic() - t0
        return (f"{kind:9}  RSS {before_rss >> 20} -> peak {peak >> 20} MiB   "
                f"CPU {spent:.2f} s in {wall:.0f} s ({100 * spent / wall:.0f}% of a core)   "
                f"{note}")
    finally:
        host.kill()
        host.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(HERE), help="the checkout whose host is flooded")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--floods", default="slowloris,idle,guesses")
    parser.add_argument("--guesser", nargs=3, metavar=("ROOT", "PORT", "SECONDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.guesser:
        root, port, seconds = args.guesser
        guesser(root, int(port), 29.0, float(seconds))
        return
    import tempfile
    root = Path(args.root).resolve()
    commit = subprocess.run(["git", "-C", str(root), "log", "--oneline", "-1"],
                            capture_output=True, text=True).stdout.strip()
    print(f"host of {root} ({commit[:70]})")
    for kind in args.floods.split(","):
        with tempfile.TemporaryDirectory(prefix="bench-flood-") as workdir:
            print(flood(root, kind, args.seconds, Path(workdir)), flush=True)


if __name__ == "__main__":
    main()
