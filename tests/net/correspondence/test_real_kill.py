"""Issue 51, "Done when": a 4-player correspondence game of the real rules, three scripted
humans and a bot, each human's program its own process with the table open (reading the
folder every 50 ms, as players playing live do), killed with SIGKILL at random moments (8
kills, a random seat each, at least ~25 steps of the game apart) and started again, each
new program beginning from its own saved replay; the game finishes with one hash for the
three players and for a fourth program that replays the finished folder alone from the
first step (the folder is the save journal: nothing else is needed to reach the end)."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.correspondence.replay_save import SaveShelf

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
    starts: list[dict] = []            # each program's first line: where its replay began
    began = time.monotonic()
    next_kill = began + rng.uniform(1.0, 4.0)
    killed_at = -1                     # the game's step (by the saves) at the last kill
    while len(ended) < len(HUMANS):
        assert time.monotonic() - began < 240, f"not over after 240 s; killed {kills}"
        for seat, proc in list(procs.items()):
            if proc.poll() is None:
                continue
            out, err = proc.communicate()
            starts += [json.loads(line) for line in out.splitlines() if '"started"' in line]
            if proc.returncode == -signal.SIGKILL:
                procs[seat] = start(folder, local, seat)     # the player opens it again
                continue
            assert proc.returncode == 0, err[-3000:]
            ended[seat] = json.loads(out.strip().splitlines()[-1])
            del procs[seat]
        now = time.monotonic()
        # a kill at a random moment once the game went on ~25 steps since the last one
        # (a program down stalls the table: kills by the clock all fell in its opening)
        reached = max((SaveShelf(local / f"player-{s}" / "saved").steps() or [0])[0]
                      for s in HUMANS)
        if now >= next_kill and procs and sum(kills.values()) < 8 \
                and reached >= killed_at + 25:
            seat = rng.choice(sorted(procs))
            procs[seat].send_signal(signal.SIGKILL)
            kills[seat] += 1
            killed_at = reached
            next_kill = now + rng.uniform(0.2, 2.0)
        time.sleep(0.02)
    assert sum(kills.values()) >= 6 and all(kills.values()), kills
    # programs started again began from their own saved replays, not from the first step
    assert sum(1 for s in starts if s["started"]) >= 3, starts
    assert all("in the folder records the saved hash" in why
               for s in starts for why in s["passed_over"]), starts
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
