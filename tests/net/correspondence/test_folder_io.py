"""The folder's I/O: hostile names, kinds and sizes; a write complete or absent
(net/correspondence/folder_io.py, net/correspondence/folder_reader.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.correspondence import folder_io
from net.correspondence.folder_io import SeatWriter, list_folder, read_file
from net.correspondence.folder_reader import FolderReader
from net.correspondence.seat_record import parse_file
from net.correspondence.seat_trust import FindingKind as K
from net.trust.seat_keys import SeatKey
from tests.net.correspondence.seat_writers import TABLE, Writer

ROOT = Path(__file__).resolve().parents[3]


def test_a_symlink_is_never_followed(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"my private key")
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "seat-1.shogun").symlink_to(secret)
    assert read_file(folder, "seat-1.shogun").refused == "a symbolic link (never followed)"
    reading = FolderReader(folder, TABLE, {1: Writer(seat=1).public}).poll()
    assert [f.kind for f in reading.findings] == [K.FORGED]
    assert "symbolic link" in reading.findings[0].sentence


def test_a_fifo_or_a_directory_is_not_read_and_nothing_blocks(tmp_path):
    os.mkfifo(tmp_path / "seat-1.shogun")
    (tmp_path / "seat-2.shogun").mkdir()
    started = time.monotonic()
    assert read_file(tmp_path, "seat-1.shogun").refused == "not a regular file"
    assert read_file(tmp_path, "seat-2.shogun").refused
    assert time.monotonic() - started < 5


def test_names_that_are_no_plain_name_are_refused(tmp_path):
    for name in ("../x", "", ".", ".."):
        assert read_file(tmp_path, name).refused == "not a plain name"
    assert read_file(tmp_path, "seat-3.shogun").missing


def test_a_huge_file_is_read_up_to_the_cap_and_said(tmp_path, monkeypatch):
    monkeypatch.setattr(folder_io, "MAX_FILE", 1000)
    w = Writer(seat=1)
    while len(w.file()) < 3000:
        w.write(b"x" * 100)
    (tmp_path / "seat-1.shogun").write_bytes(w.file())
    read = read_file(tmp_path, "seat-1.shogun")
    assert read.cut and len(read.data) == 1000
    reader = FolderReader(tmp_path, TABLE, {1: w.public})
    reading = reader.poll()
    assert 0 < len(reader.accepted[1]) < len(w.records)
    assert reader.accepted[1] == tuple(w.records[:len(reader.accepted[1])])
    assert K.CHANGED in {f.kind for f in reading.findings}


def test_a_listing_reads_a_bounded_number_of_names(tmp_path, monkeypatch):
    monkeypatch.setattr(folder_io, "MAX_NAMES", 50)
    for i in range(120):
        (tmp_path / f"junk-{i}").write_bytes(b"")
    listing = list_folder(tmp_path)
    assert len(listing.names) == 50 and listing.more


def test_hostile_names_are_shown_without_control_characters(tmp_path):
    (tmp_path / "note\x1b]0;pwned\x07.txt").write_bytes(b"")
    w = Writer(seat=1)
    w.write(b"a")
    (tmp_path / "seat-1\x1b[2J.shogun").write_bytes(b"not a record")
    reading = FolderReader(tmp_path, TABLE, {1: w.public}).poll()
    for text in reading.skipped + tuple(f.sentence for f in reading.findings):
        assert "\x1b" not in text and "\x07" not in text
    assert reading.skipped and reading.findings


def test_the_writer_cuts_its_torn_tail_before_it_appends(tmp_path):
    w = Writer(seat=0)
    for i in range(3):
        w.write(b"step %d" % i)
    extra = w.next_record(b"half written")
    (tmp_path / "seat-0.shogun").write_bytes(w.file() + extra.raw[:17])
    writer = SeatWriter(tmp_path, 0, tuple(w.records))
    assert writer.repaired == "cut a torn tail of 17 bytes"
    writer.append(w.write(b"step 3"))
    assert parse_file((tmp_path / "seat-0.shogun").read_bytes()).records == tuple(w.records)


def test_the_writer_puts_back_what_a_sync_took_from_its_file(tmp_path):
    w = Writer(seat=0)
    for i in range(4):
        w.write(b"step %d" % i)
    (tmp_path / "seat-0.shogun").write_bytes(w.file(2))           # an old version came back
    writer = SeatWriter(tmp_path, 0, tuple(w.records))
    assert writer.repaired.startswith("put back 4 records")
    assert (tmp_path / "seat-0.shogun").read_bytes() == w.file()
    assert not [n for n in os.listdir(tmp_path) if n != "seat-0.shogun"]


def test_the_writer_refuses_a_symlink_in_place_of_its_file(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"")
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "seat-0.shogun").symlink_to(target)
    with pytest.raises(OSError):
        SeatWriter(folder, 0, ())
    assert target.read_bytes() == b""


APPENDER = """
import sys
from pathlib import Path
from net.correspondence.folder_io import SeatWriter
from net.correspondence.folder_reader import FolderReader
from net.trust.seat_keys import SeatKey
from tests.net.correspondence.seat_writers import TABLE, Writer
folder = Path(sys.argv[1])
w = Writer(seat=0, key=SeatKey(b"k" * 32))
reader = FolderReader(folder, TABLE, {0: w.public})
reader.poll()
w.records = list(reader.accepted.get(0, ()))
writer = SeatWriter(folder, 0, tuple(w.records))
print("ready", len(w.records), flush=True)
while True:
    writer.append(w.write(b"p" * 5000))
"""


@pytest.mark.slow
def test_a_writer_killed_at_random_points_leaves_a_whole_prefix_and_goes_on(tmp_path):
    """kill -9 mid-append, again and again: every reading is the writer's records in
    order (a torn tail ignored), and the next writer process goes on from there."""
    key = SeatKey(b"k" * 32)
    counts = []
    for round_ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", APPENDER, str(tmp_path)], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("ready"), line
        time.sleep(0.05 + 0.03 * round_)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        reader = FolderReader(tmp_path, TABLE, {0: key.public})
        reading = reader.poll()
        records = reader.accepted.get(0, ())
        assert [r.seq for r in records] == list(range(len(records)))
        assert all(f.kind is K.TORN for f in reading.findings), reading.findings
        counts.append(len(records))
    assert counts == sorted(counts) and counts[-1] > counts[0]
