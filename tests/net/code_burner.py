"""A stranger's burner on the mailbox (issue 47, finding 2), run as a real process.

Run: python tests/net/code_burner.py MAILBOX_URL OUT.json [--app-id ID] [--every 0.25]
     [--guesses N]

It binds the game's public application id (what any stranger can read in the source),
lists the open nameplates every `--every` seconds and claims each new one at once with a
wrong guess (`NAMEPLATE-` and random words of magic-wormhole's list): the wormhole then
fails on both sides, which spoiled the host's code before issue 47. If a guess were right
it would receive the host's Offer: the table's own code and addresses; it writes them
down. With `--guesses N` it also tries N hidden namespaces a second (three random words,
as `net.reach.invite_codes` hides a code): the rate at which a stranger can look for
tables (benchmarks/reach/bench_code_burner.py prints it).

OUT.json (rewritten every second): lists answered, distinct nameplates seen, claims,
their outcomes (wrong, crowded, other), the offers learned, namespaces probed and found.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mailbox")
    parser.add_argument("out")
    parser.add_argument("--app-id", default=None)
    parser.add_argument("--every", type=float, default=0.25)
    parser.add_argument("--guesses", type=float, default=0.0)
    args = parser.parse_args()

    import wormhole
    from twisted.internet import reactor as the_reactor
    from twisted.internet import task
    from wormhole.errors import WrongPasswordError

    from net.reach.invite_codes import WORDS, InviteCode, list_nameplates
    from net.reach.rendezvous import APP_ID
    reactor: Any = the_reactor
    app_id = args.app_id or APP_ID
    stats: dict = {"app_id": app_id, "lists": 0, "seen": [], "claims": 0, "wrong": 0,
                   "crowded": 0, "other": 0, "learned": [], "probes": 0, "found": 0,
                   "started": time.time(), "elapsed": 0.0}
    busy: set[str] = set()        # nameplates with a claim of ours under way
    last_claim: dict[str, float] = {}
    rng = random.Random()

    def claim(nameplate: str) -> None:
        busy.add(nameplate)
        stats["claims"] += 1
        w = wormhole.create(app_id, args.mailbox, reactor)
        guess = "-".join(rng.choice(WORDS) for _ in range(2))
        w.set_code(f"{nameplate}-{guess}")

        def learned(data: bytes) -> None:
            stats["learned"].append(data.decode(errors="replace"))

        def failed(failure) -> None:
            if failure.check(WrongPasswordError):
                stats["wrong"] += 1
            elif "crowded" in str(failure.value):
                stats["crowded"] += 1
            else:
                stats["other"] += 1

        def done(_: object) -> None:
            if nameplate not in busy:
                return
            busy.discard(nameplate)
            last_claim[nameplate] = time.monotonic()
            w.close().addErrback(lambda f: None)
        w.get_message().addCallbacks(learned, failed).addBoth(done)
        reactor.callLater(30, lambda: None if nameplate not in busy else done(None))

    lister = wormhole.create(app_id, args.mailbox, reactor)

    def probe_namespace() -> None:
        """One guess at a hidden namespace: bind three random words' application id
        and list it (what a stranger must do to find a table hidden by its code)."""
        code = InviteCode(tuple(rng.choice(WORDS) for _ in range(6)))
        w = wormhole.create(code.app_id(app_id), args.mailbox, reactor)

        def listed(nameplates: set[str]) -> None:
            stats["probes"] += 1
            if nameplates:
                stats["found"] += 1
        list_nameplates(w, 10.0, reactor).addCallbacks(listed, lambda f: None).addBoth(
            lambda _: w.close().addErrback(lambda f: None))

    def save() -> None:
        stats["elapsed"] = time.time() - stats["started"]
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(stats, f)
        os.replace(tmp, args.out)

    _run_loop(lister, args, stats, claim, busy, last_claim, task)
    if args.guesses > 0:
        task.LoopingCall(probe_namespace).start(1.0 / args.guesses, now=False)
    task.LoopingCall(save).start(1.0)
    reactor.run()


def _run_loop(lister, args, stats, claim, busy, last_claim, task) -> None:
    """List every `--every` seconds on one connection; claim what is new."""
    helper = lister.input_code()
    inp = helper._input
    got = inp.got_nameplates

    def received(nameplates: set[str]) -> None:
        got(nameplates)
        stats["lists"] += 1
        for n in sorted(nameplates):
            if n not in stats["seen"]:
                stats["seen"].append(n)
            if n not in busy and time.monotonic() - last_claim.get(n, -1e9) > 0.5:
                claim(n)
    inp.got_nameplates = received
    task.LoopingCall(helper.refresh_nameplates).start(args.every)


if __name__ == "__main__":
    main()


# ---------------------------------------------------- for the test and the benchmark
SHOWN = r"(?:join with|joins with): \./shogun join (\S+)"


def start(mailbox: str, workdir: Path, name: str = "burner", guesses: float = 0.0,
          every: float = 0.25):
    """The burner as a child process; its figures in `workdir/NAME.json`."""
    import subprocess
    out = workdir / f"{name}.json"
    log = open(workdir / f"{name}.log", "w")
    proc = subprocess.Popen([sys.executable, str(Path(__file__)), mailbox, str(out),
                             "--every", str(every), "--guesses", str(guesses)],
                            cwd=ROOT, stdout=log, stderr=log)
    return proc, out


def figures(out: Path, timeout: float = 30.0) -> dict:
    """The burner's latest figures (it must have answered at least one list)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            stats = json.loads(out.read_text())
            if stats["lists"] > 0:
                return stats
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the burner never listed the mailbox ({out})")


def latest_code(host) -> str | None:
    import re
    found = re.findall(SHOWN, host.text())
    return found[-1] if found else None


def friend_joins(host, name: str, where: list[str], workdir: Path, env: dict,
                 within: float = 30.0, used: set[str] | None = None
                 ) -> tuple[float | None, int, object]:
    """A friend who types the code the host shows now (not one in `used`, which another
    friend took), and again the code shown then if told it failed, until `within`
    seconds: (seconds until it reached the table or None, attempts, the last friend
    process, still running when it got in). The code it got in with joins `used`."""
    from tests.net import processes as P
    used = set() if used is None else used
    began = time.monotonic()
    attempts, friend = 0, None
    while time.monotonic() - began < within:
        code = latest_code(host)
        if code is None or code in used:
            time.sleep(0.1)
            continue
        attempts += 1
        friend = P.Peer(f"{name}-{attempts}", ["join", code, "--headless", *where], workdir,
                        {**env, "SHOGUN_NET_RENDEZVOUS_WAIT": str(max(1.0, within))})
        while time.monotonic() - began < within and friend.proc.poll() is None:
            if "reached the table by code" in friend.text():
                used.add(code)
                return time.monotonic() - began, attempts, friend
            time.sleep(0.1)
        if "reached the table by code" in friend.text():
            used.add(code)
            return time.monotonic() - began, attempts, friend
        if friend.proc.poll() is None:
            break
    return None, attempts, friend
