"""Hand-over by agreement as real processes over one shared directory (no two programs at
once; each starts, plays what it can, exits): seat 2 stops playing, the turn timer (1 s
here) runs out on the others' clocks, each writes its claim in its own session, and the
game ends with one hash and one take-over step. An attacker that writes a claim alone, at
once, changes nothing: the claimed seat plays on and the game ends with no take-over."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TIMER = 1
ABSENT = 2


def session(folder: Path, local: Path, seat: int, *mode: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.handover_player",
                           str(folder), str(local / f"player-{seat}"), str(seat), str(TIMER),
                           *mode], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def finish(folder: Path, local: Path, seats: tuple[int, ...]) -> dict[int, dict]:
    ended: dict[int, dict] = {}
    for turn in range(60):
        seat = seats[turn % len(seats)]
        out = session(folder, local, seat)
        if out["ended"]:
            ended[seat] = out
        if len(ended) == len(seats):
            return ended
    raise AssertionError(f"not over: {sorted(ended)} ended")


def until_waiting_for_the_absent(folder: Path, local: Path) -> None:
    for turn in range(3):                                  # a session each
        session(folder, local, turn % 3)
    for turn in range(12):
        outs = [session(folder, local, s) for s in (0, 1)]
        if all(o["waiting"] == [ABSENT] for o in outs):
            return
    raise AssertionError(f"never waiting for seat {ABSENT} alone: {outs}")


@pytest.mark.slow
def test_the_others_hand_a_silent_seat_to_a_bot_after_the_timer_and_finish_with_one_hash(
        tmp_path: Path) -> None:
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    until_waiting_for_the_absent(folder, local)
    time.sleep(TIMER + 0.2)     # (not yet run out: test_folder_handover.py, in-process)
    zero = session(folder, local, 0, "claim")
    assert zero["claimed"] == [ABSENT] and zero["handed"] == {}
    one = session(folder, local, 1)                        # one claim: still waits
    assert one["waiting"] == [ABSENT] and one["handed"] == {}
    one = session(folder, local, 1, "claim")
    assert one["claimed"] == [ABSENT] and list(one["handed"]) == [str(ABSENT)]
    step = one["handed"][str(ABSENT)]
    ended = finish(folder, local, (0, 1, ABSENT))
    assert len({out["hash"] for out in ended.values()}) == 1, ended
    assert all(out["takeovers"] == [[step, ABSENT]] for out in ended.values()), ended


@pytest.mark.slow
def test_a_claim_written_alone_changes_nothing(tmp_path: Path) -> None:
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    until_waiting_for_the_absent(folder, local)
    lone = session(folder, local, 1, "lone", str(ABSENT))  # seat 1 decides alone, at once
    assert lone["claimed"] == [ABSENT] and lone["handed"] == {}
    assert lone["waiting"] == [ABSENT]
    outs = []
    for turn in range(9):                                  # the seat comes back and plays
        outs.append(session(folder, local, (ABSENT + turn) % 3))
        if outs[-1]["step"] > lone["step"] + 1:
            break
    for out in outs:
        assert out["handed"] == {} and out["takeovers"] == [] and not out["offences"], out
    assert outs[-1]["step"] > lone["step"] + 1, outs      # the table went on with seat 2
