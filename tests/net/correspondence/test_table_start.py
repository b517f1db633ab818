"""The code, the start record and the seating, row by row (net/correspondence/table_start.py)."""

from __future__ import annotations

import struct
from typing import Any
import zlib

import pytest

from net.correspondence.table_start import (CodeError, SeatEntry, Seating, SeatingKind,
                                            StartKind, TableCode, TableStart, check_seating,
                                            check_start, make_door, make_seating, make_start)
from net.trust.seat_keys import SeatKey

HOST = SeatKey(b"h" * 32)
FRIEND = SeatKey(b"f" * 32)
OTHER = SeatKey(b"o" * 32)


def start(**changes: Any) -> TableStart:
    from dataclasses import replace
    return replace(TableStart(HOST.public, "Aiko", 3, "sun", "beginner", 1, "normal",
                              1_700_000_000), **changes)


CODE = TableCode.new(HOST.public)
WRONG = TableCode.new(HOST.public)


def refit(data: bytes, at: int) -> bytes:
    """`data` with byte `at` of its body flipped and the checksum mended (an edit)."""
    raw = bytearray(data)
    raw[at] ^= 0x01
    body = bytes(raw[8:-4])
    raw[-4:] = struct.pack(">I", zlib.crc32(body))
    return bytes(raw)


def test_a_code_reads_back_from_its_text_and_names_its_host_only():
    code = TableCode.parse(CODE.text)
    assert code == CODE and len(code.text.replace("-", "")) == 52
    assert TableCode.parse(CODE.text.upper().replace("-", " ")) == CODE
    assert code.names_host(HOST.public) and not code.names_host(OTHER.public)
    assert CODE.table != WRONG.table and CODE.join_key != WRONG.join_key


def case_id(value: object) -> str | None:
    """A case's name in the tests' ids that is the same in every process: the records and
    claim files here hold keys made afresh at import, and pytest-xdist's two workers must
    collect the same names (these files run in ./run-tests' shared part)."""
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("latin-1")
        return text if text.isascii() and text.isprintable() else "record"
    if isinstance(value, str) and value.startswith("join-"):
        return "claim-file"
    return None


@pytest.mark.parametrize("text, says", [
    ("7-guitarist-revenge", "52 letters"),
    ("a" * 51, "this one has 51"),
    ("1" * 52, "only the letters a-z and the digits 2-7"),
])
def test_a_text_that_is_no_code_is_refused_with_a_sentence(text, says):
    with pytest.raises(CodeError, match=says):
        TableCode.parse(text)


GOOD = make_start(HOST, CODE, start())
FORGED = make_start(OTHER, CODE, start(host_public=OTHER.public))     # knows the code


@pytest.mark.parametrize("data, code, kind, says", ids=case_id, argvalues=[
    (GOOD, CODE, StartKind.START, ""),
    (None, CODE, StartKind.NO_TABLE, "no table in this folder"),
    (GOOD[:30], CODE, StartKind.NOT_WHOLE, "not whole yet"),
    (b"", CODE, StartKind.NOT_WHOLE, "not whole yet"),
    (b"junk" * 20, CODE, StartKind.DAMAGED, "damaged"),
    (GOOD + b"x", CODE, StartKind.DAMAGED, "damaged"),
    (GOOD, WRONG, StartKind.WRONG_CODE, "does not open the table"),
    (refit(GOOD, len(GOOD) - 4 - 70), CODE, StartKind.CHANGED, "was changed"),   # sealed bytes
    (refit(GOOD, len(GOOD) - 4 - 2), CODE, StartKind.CHANGED, "signature"),      # the signature
    (FORGED, CODE, StartKind.FORGED, "forged"),
    (make_start(HOST, CODE, start(players=7)), CODE, StartKind.MALFORMED, "out of range"),
    (make_start(HOST, CODE, start(bot_level="god")), CODE, StartKind.MALFORMED, "out of range"),
    (make_start(HOST, CODE, start(turn_timer=2 * 86400)), CODE, StartKind.START, ""),
    (make_start(HOST, CODE, start(turn_timer=91 * 86400)), CODE, StartKind.MALFORMED,
     "out of range"),
    (make_start(HOST, CODE, start(turn_timer=-1)), CODE, StartKind.MALFORMED, "out of range"),
    (make_start(OTHER, CODE, start(host_public=OTHER.public, turn_timer=5)), CODE,
     StartKind.FORGED, "forged"),                  # another's timer: not the host's start
    (make_door(HOST, "start", CODE.table, CODE.sealing, start().payload()[:8]), CODE,
     StartKind.START, ""),                         # a start from before the timer
    (make_door(HOST, "start", CODE.table, CODE.sealing, start().payload()[:8] + ["2d"]),
     CODE, StartKind.MALFORMED, "holds no start record"),
    (make_door(HOST, "start", CODE.table, CODE.sealing, [1, 2]), CODE, StartKind.MALFORMED,
     "holds no start record"),
    (make_seating(HOST, CODE, Seating(())), CODE, StartKind.DAMAGED, "holds no start record"),
])
def test_a_start_record(data, code, kind, says):
    verdict = check_start(code, data)
    assert verdict.kind is kind, verdict.sentence
    assert says in verdict.sentence
    assert (verdict.start is not None) == (kind is StartKind.START)
    assert verdict.names_someone == (kind in (StartKind.DAMAGED, StartKind.CHANGED,
                                              StartKind.FORGED, StartKind.MALFORMED))


def test_a_start_record_reads_back_whole():
    assert check_start(CODE, GOOD).start == start()
    timed = make_start(HOST, CODE, start(turn_timer=36 * 3600))
    assert check_start(CODE, timed).start == start(turn_timer=36 * 3600)


SEATS = Seating((SeatEntry(0, "human", HOST.public, "Aiko"),
                 SeatEntry(1, "human", FRIEND.public, "Kenji"),
                 SeatEntry(2, "bot", b"", "")))


@pytest.mark.parametrize("data, mine, kind, says", ids=case_id, argvalues=[
    (make_seating(HOST, CODE, SEATS), FRIEND.public, SeatingKind.SEATED, ""),
    (None, FRIEND.public, SeatingKind.NOT_SEALED, ""),
    (make_seating(HOST, CODE, SEATS)[:20], FRIEND.public, SeatingKind.NOT_SEALED, ""),
    (make_seating(OTHER, CODE, SEATS), FRIEND.public, SeatingKind.REFUSED, "not signed by the host"),
    (make_seating(HOST, WRONG, SEATS), FRIEND.public, SeatingKind.REFUSED, "another table"),
    (make_seating(HOST, CODE, Seating(SEATS.seats[:2])), FRIEND.public, SeatingKind.REFUSED,
     "its seats are not the start's"),
    (make_seating(HOST, CODE, Seating((SEATS.seats[1], SEATS.seats[0], SEATS.seats[2]))),
     FRIEND.public, SeatingKind.REFUSED, "its seats are not"),
    (make_seating(HOST, CODE, Seating((SeatEntry(0, "human", OTHER.public, "x"),) + SEATS.seats[1:])),
     FRIEND.public, SeatingKind.REFUSED, "its seats are not"),
    (make_seating(HOST, CODE, Seating(SEATS.seats[:2] + (SeatEntry(2, "human", FRIEND.public, ""),))),
     FRIEND.public, SeatingKind.REFUSED, "its seats are not"),
    (make_seating(HOST, CODE, SEATS), OTHER.public, SeatingKind.REFUSED, "no seat with my key"),
])
def test_a_seating(data, mine, kind, says):
    verdict = check_seating(CODE, start(), data, mine)
    assert verdict.kind is kind, verdict.sentence
    assert says in verdict.sentence
    assert (verdict.my_seat == 1) == (kind is SeatingKind.SEATED)
