"""A seat file's records: framing, checksum, sealing and signature (net/correspondence/seat_record.py)."""

from __future__ import annotations

import struct
import zlib

import msgpack
import pytest

from net.correspondence.seat_record import (HEADER, MAGIC, MAX_BODY, FolderKey, FolderKeyError,
                                            Stop, first_prev, parse_file)
from tests.net.correspondence.seat_writers import SECRET, TABLE, Writer


def three() -> Writer:
    w = Writer(seat=2)
    for i in range(3):
        w.write(f"payload {i}".encode() * (i + 1))
    return w


def test_a_file_of_whole_records_reads_back_whole():
    w = three()
    scan = parse_file(w.file())
    assert scan.stop is None and scan.records == tuple(w.records)
    assert [r.seq for r in scan.records] == [0, 1, 2]
    assert scan.records[0].prev == first_prev(TABLE, 2)
    assert scan.records[1].prev == scan.records[0].digest
    assert all(r.signed_by(w.public) for r in scan.records)
    assert FolderKey.for_table(SECRET).open(scan.records[2].sealed) == b"payload 2" * 3


def test_a_file_cut_at_any_byte_gives_the_whole_records_before_the_cut_and_says_the_tail_is_torn():
    w = three()
    data = w.file()
    ends = {0, len(w.records[0].raw), len(w.file(2)), len(data)}
    for cut in range(len(data) + 1):
        scan = parse_file(data[:cut])
        whole = sum(1 for i in range(1, 4) if len(w.file(i)) <= cut)
        assert scan.records == tuple(w.records[:whole]), cut
        if cut in ends:
            assert scan.stop is None
        else:
            assert scan.stop is Stop.TORN and "incomplete last record" in scan.detail


def test_a_damaged_last_record_is_torn_but_damage_in_the_middle_is_not():
    w = three()
    data = bytearray(w.file())
    data[-6] ^= 1                     # inside the last record's body
    scan = parse_file(bytes(data))
    assert scan.stop is Stop.TORN and len(scan.records) == 2 and "checksum" in scan.detail
    data = bytearray(w.file())
    data[len(w.records[0].raw) + 20] ^= 1       # inside record 1, record 2 follows
    scan = parse_file(bytes(data))
    assert scan.stop is Stop.DAMAGED and len(scan.records) == 1


def test_bytes_that_are_no_record_and_a_huge_length_are_damage():
    w = three()
    scan = parse_file(w.file(1) + b"hello, world" + w.file()[len(w.file(1)):])
    assert scan.stop is Stop.DAMAGED and len(scan.records) == 1
    scan = parse_file(w.file(1) + HEADER.pack(MAGIC, MAX_BODY + 1) + b"x" * 100)
    assert scan.stop is Stop.DAMAGED and len(scan.records) == 1


@pytest.mark.parametrize("body", [
    msgpack.packb([1, 2, 3]),
    msgpack.packb({"seat": 1}),
    msgpack.packb([1, b"T" * 16, 2, 0, b"p" * 32, 7, b"", b"s" * 64]),     # unknown kind
    msgpack.packb([1, b"T" * 15, 2, 0, b"p" * 32, 0, b"", b"s" * 64]),     # short table id
    msgpack.packb([2, b"T" * 16, 2, 0, b"p" * 32, 0, b"", b"s" * 64]),     # another version
    msgpack.packb([1, b"T" * 16, 2, -1, b"p" * 32, 0, b"", b"s" * 64]),    # negative seq
    b"\xc1",                                                               # no msgpack
    b"\x91" * 2000 + b"\x00",                                              # deep nesting
])
def test_a_whole_record_that_is_not_a_seat_record_is_malformed(body):
    raw = HEADER.pack(MAGIC, len(body)) + body + struct.pack(">I", zlib.crc32(body))
    scan = parse_file(three().file(1) + raw)
    assert scan.stop is Stop.MALFORMED and len(scan.records) == 1


def test_the_signature_binds_every_field():
    w = three()
    record = w.records[1]
    other = Writer(seat=2)
    assert record.signed_by(w.public) and not record.signed_by(other.public)
    forged = w.next_record(b"x", key=other.key)
    assert not forged.signed_by(w.public)


def test_sealing_needs_the_right_key_and_a_32_byte_secret():
    table = FolderKey.for_table(SECRET)
    sealed = table.seal(b"a plan commitment")
    assert sealed != table.seal(b"a plan commitment")          # a fresh nonce every time
    assert table.open(sealed) == b"a plan commitment"
    for key in (FolderKey.for_table(b"t" * 32), FolderKey.for_own(SECRET)):
        with pytest.raises(FolderKeyError):
            key.open(sealed)
    with pytest.raises(FolderKeyError):
        FolderKey.for_table(b"short code")
