"""A peer's save: written as a journal (one record appended per save), read as its last
whole record, so a crash at any byte leaves the previous save or the new one."""

from __future__ import annotations

import os

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.table_save import JOURNAL_MAGIC, SaveError, SaveJournal, read_save, write_save


def a_save(step: int) -> dict:
    return {"start": {"table": b"t" * 16}, "seat": 1, "peer": b"p" * 16, "name": "guest",
            "code": "ABCDEFGH", "secret": bytes(range(32)), "token": b"k" * 32,
            "seat_key": b"s" * 32, "plans": [[step, b"n" * 16, {"type": "SubmitPlan"}]],
            "outbox": [], "step": step, "addresses": [[0, "127.0.0.1", 4000]],
            "listen_port": 4001}


def test_the_last_save_is_read(tmp_path):
    journal = SaveJournal(str(tmp_path / "me.save"))
    for step in range(5):
        journal.write(a_save(step))
    journal.close()
    assert read_save(str(tmp_path / "me.save"))["step"] == 4


def test_later_saves_are_appended_not_renamed(tmp_path, monkeypatch):
    """The point of the journal: no rename (costly on ext4) after a process's first save."""
    renames = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (renames.append(b), real_replace(a, b)))
    journal = SaveJournal(str(tmp_path / "me.save"))
    for step in range(20):
        journal.write(a_save(step))
    journal.close()
    assert len(renames) == 1
    assert read_save(str(tmp_path / "me.save"))["step"] == 19


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_a_crash_at_any_byte_leaves_the_old_save_or_the_new_one(tmp_path_factory, cut):
    path = tmp_path_factory.mktemp("crash") / "me.save"
    journal = SaveJournal(str(path))
    journal.write(a_save(1))
    whole_first = path.stat().st_size
    journal.write(a_save(2))                # appended: this process has saved before
    journal.close()
    data = path.read_bytes()
    cut = min(cut, len(data) - whole_first) + whole_first   # the crash cuts the second save
    path.write_bytes(data[:cut])
    assert read_save(str(path))["step"] == (2 if cut == len(data) else 1)


def test_a_flipped_byte_in_the_last_record_falls_back_to_the_one_before(tmp_path):
    path = tmp_path / "me.save"
    journal = SaveJournal(str(path))
    journal.write(a_save(1))
    journal.write(a_save(2))
    journal.close()
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    assert read_save(str(path))["step"] == 1


def test_a_big_journal_starts_afresh(tmp_path, monkeypatch):
    monkeypatch.setattr(SaveJournal, "COMPACT_AT", 2_000)
    path = tmp_path / "me.save"
    journal = SaveJournal(str(path))
    for step in range(50):
        journal.write(a_save(step))
    journal.close()
    assert path.stat().st_size <= 2_000
    assert read_save(str(path))["step"] == 49


def test_a_journal_with_no_whole_record_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "me.save"
    path.write_bytes(JOURNAL_MAGIC + b"\x00\x00\x01\x00torn")
    with pytest.raises(SaveError, match="not a net save .damaged. no whole record"):
        read_save(str(path))


def test_a_save_of_the_earlier_format_still_reads(tmp_path):
    """Saves written before the journal: one msgpack map, rewritten each time."""
    path = tmp_path / "old.save"
    path.write_bytes(msgpack.packb({"version": 1, **a_save(7)}, use_bin_type=True))
    assert read_save(str(path))["step"] == 7


def test_write_save_makes_a_readable_file(tmp_path):
    write_save(str(tmp_path / "sub" / "me.save"), a_save(3))
    assert read_save(str(tmp_path / "sub" / "me.save"))["step"] == 3


def test_a_peer_renames_its_save_once_in_a_whole_game(tmp_path, monkeypatch):
    """A peer saves before every choice it sends; only the first save of the process may
    go through a rename (each rename cost ~0.2 ms of CPU on ext4, BENCHMARKS.md)."""
    from collections import Counter

    from net.lockstep.engine import SimEngine
    from tests.net.tables import finished, hashes, open_table

    renamed: Counter = Counter()
    real_replace = os.replace

    def counting_replace(source, target):
        renamed[str(target)] += 1
        return real_replace(source, target)
    monkeypatch.setattr(os, "replace", counting_replace)
    net, engine, sessions = open_table(players=3, engine=SimEngine(), tmp_path=tmp_path)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    for s in sessions:
        s.close()
        assert renamed[s.save_path] == 1, (s.name, renamed[s.save_path])
        assert read_save(s.save_path)["seat"] == s.my_seat
