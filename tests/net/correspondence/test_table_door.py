"""Opening a table, claiming seats and sealing the seating through the folder, then playing
it to its end by visits (net/correspondence/table_door.py, my_tables.py, table_list.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from net.correspondence import my_tables
from net.correspondence.my_tables import MyTable
from net.correspondence.seat_claim import claim_file_name
from net.correspondence.table_door import (DoorError, claim_seat, keep_copy, new_start,
                                           open_table, write_once)
from net.correspondence.table_list import Stage, visit
from net.correspondence.table_start import SEATING_FILE, START_FILE, TableCode
from net.trust.seat_keys import SeatKey
from tests.net.fake_game import FakeEngine

NAMES = ("Aiko", "Kenji", "Mariko")


def bot_choice(engine: FakeEngine):
    def choose(state, decision, seat):
        return engine.choose(state, seat, "x", bytes([seat + 1]) * 32)
    return choose


def open_three(folder: Path, homes: Path, monkeypatch, bots: int = 0) -> list[MyTable]:
    """Aiko hosts a table of 3; Kenji (and Mariko without a bot) claim seats."""
    keys = [SeatKey(bytes([i + 60]) * 32) for i in range(3)]
    code = open_table(folder, keys[0], new_start(keys[0], "Aiko", 3, "sun", "beginner", bots,
                                                 "normal"))
    tables = [MyTable(folder, code, keys[0].seed, "Aiko", True)]
    for i in range(1, 3 - bots):
        given = TableCode.parse(code.text)                 # the code as a friend types it
        claim_seat(folder, given, keys[i], NAMES[i])
        tables.append(MyTable(folder, given, keys[i].seed, NAMES[i], False))
    for i, t in enumerate(tables):
        monkeypatch.setenv("SHOGUN_HOME", str(homes / f"p{i}"))
        my_tables.remember(t)
        if t.host:
            keep_copy(folder, t.home, START_FILE)          # as `host --folder` does
    return tables


def play(tables: list[MyTable], homes: Path, monkeypatch, turns: int = 300):
    engine = FakeEngine(2)
    last = {}
    for turn in range(turns):
        i = turn % len(tables)
        monkeypatch.setenv("SHOGUN_HOME", str(homes / f"p{i}"))
        last[i] = visit(tables[i], engine, bot_choice(engine))
        assert not last[i].named and not last[i].refused, last[i]
        if all(s.stage is Stage.OVER for s in last.values()) and len(last) == len(tables):
            break
    return last


def test_a_table_opened_claimed_and_seated_through_the_folder_plays_to_one_hash(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch)
    engine = FakeEngine(2)
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "p1"))
    first = visit(tables[1], engine)
    assert first.stage is Stage.SEATING and first.host_name == "Aiko"
    assert not (folder / SEATING_FILE).exists()
    last = play(tables, tmp_path, monkeypatch)
    assert (folder / SEATING_FILE).exists()
    assert {s.stage for s in last.values()} == {Stage.OVER}
    assert len({s.hash for s in last.values()}) == 1
    assert sorted(s.my_seat for s in last.values()) == [0, 1, 2]


def test_the_host_alone_with_bots_seals_at_once(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch, bots=2)
    last = play(tables, tmp_path, monkeypatch, turns=20)
    assert last[0].stage is Stage.OVER


def test_a_visit_says_whose_decision_is_awaited_and_mine(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch)
    engine = FakeEngine(2)
    statuses = {}
    for i in (0, 1, 2, 0, 1, 2):
        monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / f"p{i}"))
        statuses[i] = visit(tables[i], engine)              # nobody chooses: it waits
    assert statuses[2].stage is Stage.PLAYING
    assert statuses[2].mine and set(statuses[2].awaited) == {"Aiko", "Kenji"}
    assert statuses[2].plan and statuses[2].since > 0


def test_a_claim_beyond_the_seats_is_left_and_said(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch, bots=1)
    late = SeatKey(b"L" * 32)
    claim_seat(folder, tables[0].code, late, "Late")
    import os
    os.utime(folder / claim_file_name(tables[0].code.table, late.public), (2e9, 2e9))  # later
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "p0"))
    status = visit(tables[0], FakeEngine(2))
    assert status.stage is Stage.PLAYING and status.left == 1
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "late"))
    refused = visit(MyTable(folder, tables[0].code, late.seed, "Late", False), FakeEngine(2))
    assert refused.stage is Stage.REFUSED and "no seat with my key" in refused.problem


def test_a_join_with_a_wrong_code_writes_nothing_and_says_why(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch, bots=2)
    wrong = TableCode.new(SeatKey(None).public)
    before = sorted(p.name for p in folder.iterdir())
    with pytest.raises(DoorError, match="does not open the table"):
        claim_seat(folder, wrong, SeatKey(None), "Eve")
    assert sorted(p.name for p in folder.iterdir()) == before
    assert claim_file_name(wrong.table, b"") not in before and tables


def test_a_folder_holds_one_table(tmp_path):
    key = SeatKey(None)
    open_table(tmp_path, key, new_start(key, "A", 3, "sun", "beginner", 0, "normal"))
    with pytest.raises(DoorError, match="holds a table already"):
        open_table(tmp_path, key, new_start(key, "A", 3, "sun", "beginner", 0, "normal"))
    assert not write_once(tmp_path, START_FILE, b"x")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_my_tables_keep_the_code_and_key_on_this_machine_only(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch)
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "p1"))
    kept, problems = my_tables.my_tables()
    assert kept == [tables[1]] and not problems
    entry = tables[1].home / my_tables.ENTRY
    assert entry.stat().st_mode & 0o077 == 0
    blob = b"".join(p.read_bytes() for p in folder.iterdir())
    assert tables[1].code.raw not in blob and tables[1].seed not in blob


def test_a_folder_that_is_gone_or_unwritable_is_said_not_raised(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    tables = open_three(folder, tmp_path, monkeypatch, bots=1)
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "p0"))
    folder.rename(tmp_path / "elsewhere")
    gone = visit(tables[0], FakeEngine(2))
    assert gone.stage is Stage.BROKEN and "not there" in gone.problem
    (tmp_path / "elsewhere").rename(folder)
    (folder / "table.shogun").unlink()
    (folder / f".table.shogun.tmp-{os.getpid()}").mkdir()    # the host's put-back fails
    stuck = visit(tables[0], FakeEngine(2))
    assert stuck.stage is Stage.BROKEN and "could not be read or written" in stuck.problem
