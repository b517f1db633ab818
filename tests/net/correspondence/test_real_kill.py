"""Issue 51, "Done when": a 4-player correspondence game of the real rules, three scripted
humans and a bot, each human's program its own process with the table open (reading the
folder every 50 ms, as players playing live do), killed with SIGKILL at random moments
and started again; the game finishes with one hash for the three players and for a
fourth program that replays the finished folder alone from the first step (the folder
is the save journal: nothing else is needed to reach the end)."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HUMANS = (0, 1, 2)


def start(folder: Path, local: Path, seat: int, saves: bool = True) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.net.correspondence.real_player",
                             str(folder), str(local / f"player-{seat}"), str(seat),
                             ",".join(map(str, HUMANS)), "1" if saves else "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_four_players_killed_at_random_moments_finish_with_one_hash(tmp_path):
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    rng = random.Random(51)
    procs = {s: start(folder, local, s) for s in HUMANS}
    ended: dict[int, dict] = {}
    kills: dict[int, int] = {s: 0 for s in HUMANS}
    began = time.monotonic()
    next_kill = began + rng.uniform(1.0, 4.0)
    while len(ended) < len(HUMANS):
        assert time.monotonic() - began < 240, f"not over after 240 s; killed {kills}"
        for seat, proc in list(procs.items()):
            if proc.poll() is None:
                continue
            out, err = proc.communicate()
            if proc.returncode == -signal.SIGKILL:
                procs[seat] = start(folder, local, seat)     # the player opens it again
                continue
            assert proc.returncode == 0, err[-3000:]
            ended[seat] = json.loads(out.strip().splitlines()[-1])
            del procs[seat]
        now = time.monotonic()
        if now >= next_kill and procs and sum(kills.values()) < 15:
            seat = rng.choice(sorted(procs))
            procs[seat].send_signal(signal.SIGKILL)
            kills[seat] += 1
            next_kill = now + rng.uniform(0.5, 4.0)
        time.sleep(0.02)
    assert sum(kills.values()) >= 8 and all(kills.values()), kills
    # a program started again began from its own saved replay, not from the first step
    assert any(ended[s]["restored_from"] for s in HUMANS), ended
    fresh = start(folder, tmp_path / "fresh", 0, saves=False)
    out, err = fresh.communicate(timeout=240)
    assert fresh.returncode == 0, err[-3000:]
    ended[len(HUMANS)] = json.loads(out.strip().splitlines()[-1])
    assert ended[len(HUMANS)]["restored_from"] is None
    assert len({o["hash"] for o in ended.values()}) == 1, ended
    assert len({o["step"] for o in ended.values()}) == 1 and ended[0]["step"] > 400, ended
    assert all(not o["offences"] and not o["proofs"] for o in ended.values()), ended
    named = [n for o in ended.values() for n in o["named"]]
    assert not named, named
