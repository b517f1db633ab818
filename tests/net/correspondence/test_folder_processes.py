"""Correspondence tables as real processes over a plain shared directory: no two players'
programs ever run at once (each starts, plays what it can, exits); an attacker process
edits, replays and cuts the other seats' files between sessions; a forker process forks
its own seat's file; a sayer process says two plans for one step in its own file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run_session(folder: Path, local: Path, seat: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.folder_player",
                           str(folder), str(local / f"player-{seat}"), str(seat)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def attack(folder: Path, victim: int, mode: str) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.folder_attacker",
                           str(folder), str(victim), mode],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]


def play(folder: Path, local: Path, attacks: dict[int, list[tuple[int, str]]] | None = None
         ) -> tuple[dict[int, dict], list[dict]]:
    ended: dict[int, dict] = {}
    said: list[dict] = []
    turn = 0
    while len(ended) < 3:
        assert turn < 120, f"not over after {turn} sessions"
        for victim, mode in (attacks or {}).get(turn, []):
            attack(folder, victim, mode)
        seat = turn % 3
        out = run_session(folder, local, seat)
        said.append({"turn": turn, "seat": seat, **out})
        if out["ended"]:
            ended[seat] = out
        turn += 1
    return ended, said


@pytest.mark.slow
def test_three_processes_taking_turns_over_a_folder_finish_with_one_hash(tmp_path):
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    ended, said = play(folder, local)
    assert len({out["hash"] for out in ended.values()}) == 1
    assert all(not s["named"] and not s["offences"] and not s["proofs"] for s in said), said


@pytest.mark.slow
def test_a_player_editing_replaying_and_cutting_other_seats_files_is_named_and_gains_nothing(tmp_path):
    """Before seat 0's sixth session the attacker edits seat 2's record 1 (a whole record,
    no longer seat 2's) and appends seat 1's record 0 again; before seat 1's tenth it cuts
    seat 0's file to one record. Every other reader that had read those records names the
    file, and so does the victim, whose next session puts its file back from its own
    copy; the game ends
    with one hash."""
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    ended, said = play(folder, local, {6: [(2, "edit"), (1, "replay")], 10: [(0, "truncate")]})
    assert len({out["hash"] for out in ended.values()}) == 1
    named = {s["turn"]: " | ".join(s["named"]) for s in said}
    assert "seat-2.shogun was changed after it was read: record 1 differs" in named[6], said
    assert "seat-1.shogun: record 4 is out of order" in named[6], said
    assert "seat-2.shogun was changed after it was read" in named[7], said
    assert "seat-2.shogun was changed after it was read" in named[8]      # the victim itself
    assert not named[9], "seat 2's session did not put its file back"
    for turn in (10, 11, 12):                                            # 12: the victim
        assert "seat-0.shogun holds 1 of the" in named[turn], said
    assert not named[13] and not named[14], "seat 0's session did not put its file back"
    assert all(not s["proofs"] for s in said)


@pytest.mark.slow
def test_sessions_killed_at_random_points_lose_nothing_and_the_game_ends_with_one_hash(tmp_path):
    """Every other session is killed with SIGKILL at a random moment (while it reads, plays
    or writes); the next sessions go on from the folder and each player's own copy."""
    import random
    import signal
    import time
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    rng = random.Random(51)
    ended: dict[int, dict] = {}
    said: list[dict] = []
    kills = turn = 0
    lasted = 0.5     # how long a whole session took, the last one that ran to its end: the
    # kills land inside a session on a quiet machine (sessions of 0.2 s) and a loaded one
    while len(ended) < 3:
        assert turn < 200, f"not over after {turn} sessions"
        seat = turn % 3
        turn += 1
        if turn % 2:
            proc = subprocess.Popen([sys.executable, "-m", "tests.net.correspondence.folder_player",
                                     str(folder), str(local / f"player-{seat}"), str(seat)],
                                    cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0.2, 0.95) * lasted)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.communicate()
            continue
        started = time.monotonic()
        out = run_session(folder, local, seat)
        lasted = time.monotonic() - started
        said.append(out)
        if out["ended"]:
            ended[seat] = out
    assert kills >= 5, f"only {kills} sessions were killed before they ended"
    assert len({out["hash"] for out in ended.values()}) == 1
    assert all(not s["offences"] and not s["proofs"] for s in said), said
    named = [n for s in said for n in s["named"]]
    assert all("incomplete" in n for n in named), named


FORK_AFTER = 22


@pytest.mark.slow
def test_a_seat_that_forks_its_file_is_played_by_a_bot_from_one_step_for_all_processes(tmp_path):
    """After seat 0's eighth session, seat 1's program reads seat 0's newest record and
    plays on it; then seat 0's forker signs another record of that number into a sync
    copy and seat 0 plays no more. Seats 1 and 2 take turns: both expel seat 0, a bot
    plays it from the same step, and the game ends with one hash (before: no end)."""
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    ended: dict[int, dict] = {}
    said: list[dict] = []
    turn, seats = 0, [0, 1, 2]
    while len(ended) < 2:
        assert turn < 120, f"not over after {turn} sessions ({said[-2:]})"
        seat = seats[turn % len(seats)]
        out = run_session(folder, local, seat)
        said.append({"turn": turn, "seat": seat, **out})
        if out["ended"] and seat != 0:
            ended[seat] = out
        if turn == FORK_AFTER:     # seat 1's session after seat 0's eighth
            done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.folder_forker",
                                   str(folder), "0"], cwd=ROOT, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 0, done.stderr[-3000:]
            seats = [1, 2]
        turn += 1
    assert ended[1]["hash"] == ended[2]["hash"]
    assert ended[1]["expelled"] == ended[2]["expelled"] == {"0": ended[1]["expelled"]["0"]}
    taken = [t for t in ended[1]["takeovers"] if t[1] == 0]
    assert len(taken) == 1 and taken == [t for t in ended[2]["takeovers"] if t[1] == 0]
    assert not [s for s in said if s["offences"]], said
    assert said[FORK_AFTER]["step"] > taken[0][0], "seat 1 did not play on past the take-over"


@pytest.mark.slow
def test_a_seat_that_says_two_plans_for_one_step_is_played_by_a_bot_from_one_step_for_all_processes(
        tmp_path):
    """After a session of seat 0 that wrote a plan, seat 0's sayer appends to its own file
    (no fork) a record with another signed plan for that step; seat 0 plays no more. Seats
    1 and 2 take turns: both expel seat 0 from that record, a bot plays it from one step,
    and the game ends with one hash (before: no end)."""
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    ended: dict[int, dict] = {}
    said: list[dict] = []
    turn, seats, void = 0, [0, 1, 2], None
    while len(ended) < 2:
        assert turn < 60, f"not over after {turn} sessions ({said[-2:]})"
        seat = seats[turn % len(seats)]
        out = run_session(folder, local, seat)
        said.append({"turn": turn, "seat": seat, **out})
        if out["ended"] and seat != 0:
            ended[seat] = out
        if seat == 0 and turn > 0 and void is None:
            done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.folder_sayer",
                                   str(folder), "0"], cwd=ROOT, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode in (0, 3), done.stderr[-3000:]
            if done.returncode == 0:
                void = int(done.stdout.split()[-1])
                seats = [1, 2]
                turn = 0
                continue
        turn += 1
    assert ended[1]["hash"] == ended[2]["hash"]
    assert ended[1]["expelled"] == ended[2]["expelled"] == {"0": void}
    taken = [t for t in ended[1]["takeovers"] if t[1] == 0]
    assert len(taken) == 1 and taken == [t for t in ended[2]["takeovers"] if t[1] == 0]
    assert not [o for s in said for o in s["offences"] if not o.startswith("seat 0 ")], said
