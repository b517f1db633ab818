"""The host's memory and CPU under a stranger's flood (issue 26, BENCHMARKS.md).

A real host process (`main.py host --headless`, 3 seats) of the checkout ROOT is flooded
from 127.0.0.1 by a stranger who never proves the join code, one flood at a time:

- `slowloris`: 300 connections, each a 1 MiB length prefix and all of the frame but a
  byte, then nothing, held for the flood's time;
- `idle`: 500 connections that send nothing, held;
- `guesses`: wrong join codes, 29 a second, each from a new 127.x source address (a real
  SPAKE2 exchange, `tests/net/raw_dialer.py` of this checkout, key offer first — a host
  before protocol 6 sends its Welcomed first, read all the same — then a sealed Hello
  the host cannot open: one guess checked);
- `connect`: bare TCP connections from rotating 127.x addresses, 500 a second, each
  closed at once: the host's CPU per stranger who never sends a byte (issue 34);
- `offers`: one well-formed key offer per connection from rotating addresses, as fast as
  one process sends them, never followed by a Hello: the costliest first message.

And `game+connect`, `game+offers`, `game+burn`, `game`: a whole 3-player game (the host and two
joiners, all bots) with that flood on the host from the moment the game starts, or none:
the host's game time and its median round trip of the steps that need everyone (its
stats file), so a flood's effect on a game in progress shows as a ratio. `burn` floods
nothing: its child only keeps one core busy, as the offer flood's own process does, so
the share of a slowdown that is the attacker's CPU on a small machine is told from the
host's.

For each it prints the host's resident memory before and at its peak, the CPU seconds it
spent during the flood (user + system, from /proc) and that as a share of one core, the
connections still open at the end (slowloris, idle) or the guesses the host checked
(its key exchanges finished, from the guesser's side: a `Refused` after the Hello, versus
turned away before the key exchange). Linux only (/proc).

Run: `.venv/bin/python benchmarks/bench_flood.py [--root CHECKOUT] [--seconds 20]
[--floods connect,offers,game,game+connect,game+offers]`; the "before" figures come from a
worktree of the code before the fix (issue 26: `git worktree add /tmp/before f627205^1`;
issue 34: the commit before the admission branch), then `--root /tmp/before`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
from tests.net.trust.flood_attacker import PARTIAL, PREFIX, still_open  # noqa: E402
from tests.net.raw_dialer import RawDialer, hello  # noqa: E402

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


def rotating(i: int) -> str:
    return f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"


def guesser(port: int, rate: float, seconds: float) -> None:
    """Run in a child process: wrong codes from rotating addresses."""
    checked = turned = 0
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        due = time.monotonic() + 1 / rate
        i += 1
        source = f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=(source, 0))
            dialer = RawDialer("WRONGCOD")
            s.sendall(dialer.offer())
            first = dialer.read(s.recv(65536))[0]
            if first.get("type") != "Welcomed":
                turned += 1
            else:
                dialer.welcomed(first)
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


def connector(port: int, seconds: float, rate: float = 500.0) -> None:
    """Run in a child process: bare connections from rotating addresses."""
    n = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        due = time.monotonic() + 1 / rate
        n += 1
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1,
                                     source_address=(rotating(n), 0)).close()
        except OSError:
            pass
        time.sleep(max(0.0, due - time.monotonic()))
    print(f"{n} connections", flush=True)


def offerer(port: int, seconds: float) -> None:
    """Run in a child process: one key offer (always the same, computed once) per
    connection from rotating addresses, as fast as it goes, never a Hello."""
    offer = RawDialer("WRONGCOD").offer()
    n = answered = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        n += 1
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2,
                                          source_address=(rotating(n), 0)) as s:
                s.sendall(offer)
                s.settimeout(2)
                answered += b"Welcomed" in s.recv(65536)
        except OSError:
            pass
    print(f"{n} key offers, {answered} answered", flush=True)


def burner(seconds: float) -> None:
    """Run in a child process: one core busy, nothing sent (what an attacker's own CPU
    takes from the peers on a small machine, without touching the host)."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    print(f"burned {n}", flush=True)


def child(kind: str, port: int, seconds: float, workdir: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--child", kind, str(port),
                             str(seconds)], stdout=open(workdir / f"{kind}.out", "w"),
                            text=True, cwd=HERE)


def start_peer(root: Path, args: list[str], name: str, workdir: Path) -> subprocess.Popen:
    env = {**os.environ, "SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_DISCOVERY": "off",
           "PYTHONUNBUFFERED": "1", "SHOGUN_NET_STATS": str(workdir / f"{name}.stats.json")}
    return subprocess.Popen([sys.executable, str(root / "main.py"), *args], cwd=root, env=env,
                            stdout=open(workdir / f"{name}.out", "w"),
                            stderr=open(workdir / f"{name}.err", "w"))


def game(root: Path, kind: str, workdir: Path) -> str:
    """A 3-player bot game (always the same: seed 7); the flood (if any) on the host from
    its start to the end."""
    port = free_port()
    base = ["--headless", "--rejoin-timeout", "120"]
    host = start_peer(root, ["host", "--port", str(port), "--code", "FLOODCOD", "--players",
                             "3", "--seed", "7", "--save", str(workdir / "host.save"), *base],
                      "host", workdir)
    peers = [host]
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and "table open" not in (workdir / "host.out").read_text():
            time.sleep(0.1)
        for name in ("bo", "cy"):
            peers.append(start_peer(root, ["join", f"127.0.0.1:{port}", "--code", "FLOODCOD",
                                           "--save", str(workdir / f"{name}.save"), *base],
                                    name, workdir))
        end = time.monotonic() + 120
        while time.monotonic() < end and "game started" not in (workdir / "host.out").read_text():
            time.sleep(0.05)
        attacker = child(kind.split("+")[1], port, 300, workdir) if "+" in kind else None
        for p in peers:
            p.wait(600)
        if attacker is not None:
            attacker.kill()
        stats = json.loads((workdir / "host.stats.json").read_text())
        trips = stats["round_trips"]
        median = statistics.median(trips) * 1000 if trips else float("nan")
        return (f"{kind:12}  host: game {stats['game_seconds']:.1f} s, CPU {stats['game_cpu']:.2f} s, "
                f"{1000 * stats['game_seconds'] / max(1, len(trips)):.0f} ms per timed step, "
                f"median round trip {median:.0f} ms over {len(trips)} steps, hash "
                f"{(stats['hash'] or 'none')[:12]}")
    finally:
        for p in peers:
            if p.poll() is None:
                p.kill()


# ---------------------------------------------------------------- one flood
def flood(root: Path, kind: str, seconds: float, workdir: Path) -> str:
    if kind.startswith("game"):
        return game(root, kind, workdir)
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
            attacker = child(kind, port, seconds, workdir)
            while attacker.poll() is None:
                peak = max(peak, rss(host.pid))
                time.sleep(0.1)
            time.sleep(3.0)                  # what the host still closes
            note = (workdir / f"{kind}.out").read_text().strip()
            found = re.match(r"(\d+) (connections|key offers)", note)
            if found:
                spent_now = cpu(host.pid) - cpu0
                note += f"; {1000 * spent_now / int(found.group(1)):.2f} ms of host CPU each"
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
    parser.add_argument("--child", nargs=3, metavar=("KIND", "PORT", "SECONDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, port, seconds = args.child
        {"guesses": lambda: guesser(int(port), 29.0, float(seconds)),
         "connect": lambda: connector(int(port), float(seconds)),
         "offers": lambda: offerer(int(port), float(seconds)),
         "burn": lambda: burner(float(seconds))}[kind]()
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
