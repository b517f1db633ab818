"""The door of a correspondence table as real processes (`main.py host|join --folder`,
`tables`) and an attacker process that changes the door's files: a wrong code, an edited
or forged start record, a forged seating (net/correspondence/table_door.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from net.correspondence.table_start import SEATING_FILE, START_FILE

ROOT = Path(__file__).resolve().parents[3]
CODE = re.compile(r"^\s+([a-z2-7]{4}(?:-[a-z2-7]{1,4}){12})$", re.M)


def shogun(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "SHOGUN_HOME": str(home), "PYTHONPATH": str(ROOT),
           "HOME": str(home)}
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args, "--lang", "en"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


def attack(mode: str, folder: Path, *code: str) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.net.correspondence.door_attacker",
                           mode, str(folder), *code],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]


def open_table(tmp_path: Path, *extra: str) -> tuple[Path, str]:
    folder = tmp_path / "shared"
    done = shogun(tmp_path / "aiko", "host", "--folder", str(folder), "--players", "3",
                  "--bots", "1", "--name", "Aiko", *extra)
    assert done.returncode == 0, done.stderr
    found = CODE.search(done.stdout)
    assert found, done.stdout
    assert "waiting for 1 more player to join" in done.stdout
    return folder, found.group(1)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_join_with_a_wrong_code_is_refused_and_writes_nothing(tmp_path):
    folder, code = open_table(tmp_path)
    wrong = ("b" if code[0] != "b" else "c") + code[1:]
    before = names(folder)
    done = shogun(tmp_path / "eve", "join", "--folder", str(folder), wrong, "--name", "Eve")
    assert done.returncode == 1
    assert "this code does not open the table in this folder" in done.stderr
    assert names(folder) == before
    bad = shogun(tmp_path / "eve", "join", "--folder", str(folder), "7-guitarist-revenge")
    assert bad.returncode == 2 and "52 letters" in bad.stderr


@pytest.mark.slow
def test_a_claim_written_with_a_wrong_code_is_refused_and_named_by_the_host(tmp_path):
    folder, code = open_table(tmp_path)
    attack("wrong-claim", folder)
    host = shogun(tmp_path / "aiko", "host", "--folder", str(folder))
    assert re.search(r"refused: join-[0-9a-f]{16}\.shogun does not prove the table's code",
                     host.stderr), host.stderr
    assert "waiting for 1 more player to join" in host.stdout
    assert SEATING_FILE not in names(folder)
    kenji = shogun(tmp_path / "kenji", "join", "--folder", str(folder), code, "--name", "Kenji")
    assert kenji.returncode == 0, kenji.stderr
    host = shogun(tmp_path / "aiko", "host", "--folder", str(folder))
    assert SEATING_FILE in names(folder)
    kenji = shogun(tmp_path / "kenji", "tables")
    assert "Aiko" in kenji.stdout and "no seat" not in kenji.stdout, kenji.stdout


@pytest.mark.slow
@pytest.mark.parametrize("mode, says", [
    ("edit-start", "table.shogun was changed"),
    ("forge-start", "table.shogun is forged: it is signed by a key the code does not name"),
])
def test_an_edited_or_forged_start_record_is_refused_by_a_joiner_and_put_back_by_the_host(
        tmp_path, mode, says):
    folder, code = open_table(tmp_path)
    attack(mode, folder, code)
    before = names(folder)
    kenji = shogun(tmp_path / "kenji", "join", "--folder", str(folder), code, "--name", "Kenji")
    assert kenji.returncode == 1, kenji.stdout
    assert says in kenji.stderr, kenji.stderr
    assert names(folder) == before                    # no claim written
    host = shogun(tmp_path / "aiko", "host", "--folder", str(folder))
    assert "table.shogun was changed in the folder: put back from the host's copy" in host.stderr
    kenji = shogun(tmp_path / "kenji", "join", "--folder", str(folder), code, "--name", "Kenji")
    assert kenji.returncode == 0, kenji.stderr
    assert "You asked Aiko for a seat" in kenji.stdout


@pytest.mark.slow
def test_a_seating_forged_by_a_friend_is_refused_and_replaced_by_the_host(tmp_path):
    folder, code = open_table(tmp_path)
    kenji = shogun(tmp_path / "kenji", "join", "--folder", str(folder), code, "--name", "Kenji")
    assert kenji.returncode == 0
    attack("forge-seating", folder, code)
    kenji = shogun(tmp_path / "kenji", "tables")
    assert "seating.shogun is forged or changed: it is not signed by the host" in kenji.stdout
    host = shogun(tmp_path / "aiko", "host", "--folder", str(folder))
    assert "the host seats the table itself" in host.stderr, host.stderr
    kenji = shogun(tmp_path / "kenji", "tables")
    assert "not signed by the host" not in kenji.stdout, kenji.stdout


@pytest.mark.slow
def test_a_table_opened_and_joined_by_processes_plays_on_by_turns(tmp_path):
    """Aiko hosts 3 players with a bot, Kenji joins; each program starts, plays what it can
    (a bot makes their choices: --headless), exits; never two at once. The game moves on at
    every turn and nobody is named. (To its end with the protocol-test game:
    test_table_door.py; with the real rules a session replays the game from its start, so a
    whole game of processes takes too long here.)"""
    folder, code = open_table(tmp_path, "--headless")
    sizes: list[int] = []
    for turn in range(6):
        who = ("kenji", "aiko")[turn % 2]
        if who == "aiko":
            done = shogun(tmp_path / who, "host", "--folder", str(folder), "--headless")
        else:
            done = shogun(tmp_path / who, "join", "--folder", str(folder), code, "--headless")
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr and "refused" not in done.stderr, done.stderr
        sizes.append(sum((folder / f"seat-{s}.shogun").stat().st_size
                         for s in (0, 1) if (folder / f"seat-{s}.shogun").exists()))
    assert SEATING_FILE in names(folder) and START_FILE in names(folder)
    assert all(a < b for a, b in zip(sizes[1:], sizes[2:])), sizes      # written at every turn
    listed = shogun(tmp_path / "kenji", "tables")
    assert "awaited since" in listed.stdout or "your" in listed.stdout, listed.stdout
