"""A correspondence table's code, its start record and its seating: what a joiner checks.

Why: a correspondence table has no host online to ask. What the table is (its options,
its host's key, later who sits where) must be read from the folder, which anyone who
holds it can write. So everything is anchored in the code the host hands to friends: the
code gives the table id and the keys, and names the host's key (`pin`), so a start record
counts only if the code's pin names its signer, and a seating only if the start's host
signed it. The code is 32 bytes (192 random bits and the pin): whoever holds the folder
can test guesses offline, one decryption each, so no short code would do.

Door records (`table.shogun`, `seating.shogun`, and the claims of `net.correspondence.
seat_claim`) are one framed record each: `"SHGT"`, a length, the body, a CRC-32; the body
is msgpack `[version, kind, table id, sealed, signature]`. `check_start` and
`check_seating` are pure decisions over the bytes read (table-driven tests).

| `table.shogun` | `check_start` |
|---|---|
| missing | no table yet (said; tried again) |
| cut short at its end | not whole yet (said; tried again) |
| no door record, or not a start | damaged: named |
| another table id | the code does not open this table (a wrong code, or another folder) |
| does not open with the code's key, or its signature fails | changed: named |
| signed by a key the code's pin does not name | forged: named |
| options out of range | malformed: named |
| all of the above hold | the start |

| `seating.shogun` (given the start) | `check_seating` |
|---|---|
| missing, or cut short | not sealed yet |
| another table id, damaged, not a seating | named |
| does not open, or not signed by the start's host key | forged: named |
| seats not 0..players-1 each once, seat 0 not the host, a human seat without a key, a key on two seats, the wrong number of bots | malformed: named |
| no human seat with my key, or my key on a bot's seat | refused: no seat for me (as `net.trust.own_seat`) |
| all hold | the seating, and my seat |

Tests: tests/net/correspondence/test_table_start.py; real processes in
tests/net/correspondence/test_door_processes.py. docs/net.md, "Correspondence tables".
"""

from __future__ import annotations

import base64
import hashlib
import os
import struct
import zlib
from dataclasses import dataclass
from enum import StrEnum

import msgpack

from net.correspondence.seat_record import TABLE_BYTES, FolderKey, FolderKeyError
from net.correspondence.turn_timer import timer_problem
from net.trust.peer_text import shown
from net.trust.seat_keys import PUBLIC_BYTES, SIGNATURE_BYTES, SeatKey, verify

CODE_BYTES = 32
NONCE_BYTES = 24
PIN_BYTES = CODE_BYTES - NONCE_BYTES
CODE_LETTERS = 52                        # base32 of CODE_BYTES, without padding
DOOR_MAGIC = b"SHGT"
DOOR_VERSION = 1
MAX_DOOR = 1 << 16                       # a start, a claim or a seating: far less
MAX_NAME = 40
START_FILE = "table.shogun"
SEATING_FILE = "seating.shogun"
SIDES = ("sun", "moon")
SETUPS = ("beginner", "draft")
BOT_LEVELS = ("easy", "normal", "hard", "random", "heuristic", "hard_2025", "hard_2026")
_HEADER = struct.Struct(">4sI")
_TRAILER = struct.Struct(">I")


class CodeError(ValueError):
    """A text that is no correspondence code (the message says what is wrong)."""


# ------------------------------------------------------------------ the code
@dataclass(frozen=True)
class TableCode:
    """The 32 bytes handed to friends: everything about a table comes from them."""
    raw: bytes

    @classmethod
    def new(cls, host_public: bytes) -> TableCode:
        nonce = os.urandom(NONCE_BYTES)
        return cls(nonce + _pin(nonce, host_public))

    @classmethod
    def parse(cls, text: str) -> TableCode:
        letters = "".join(c for c in text.strip().upper() if c not in "- \t")
        if len(letters) != CODE_LETTERS:
            raise CodeError("a correspondence code has 52 letters and digits; "
                            f"this one has {len(letters)}")
        try:
            raw = base64.b32decode(letters + "=" * (-len(letters) % 8))
        except (ValueError, TypeError):
            raise CodeError("a correspondence code holds only the letters a-z and the "
                            "digits 2-7") from None
        return cls(raw)

    @property
    def text(self) -> str:
        letters = base64.b32encode(self.raw).decode().rstrip("=").lower()
        return "-".join(letters[i:i + 4] for i in range(0, len(letters), 4))

    @property
    def table(self) -> bytes:
        return hashlib.blake2b(b"", key=self.raw, person=b"shogun-table",
                               digest_size=TABLE_BYTES).digest()

    @property
    def sealing(self) -> FolderKey:
        return FolderKey.for_table(self.raw)

    @property
    def join_key(self) -> bytes:
        return hashlib.blake2b(b"", key=self.raw, person=b"shogun-join").digest()[:32]

    def names_host(self, public: bytes) -> bool:
        return _pin(self.raw[:NONCE_BYTES], public) == self.raw[NONCE_BYTES:]


def _pin(nonce: bytes, public: bytes) -> bytes:
    return hashlib.blake2b(public, key=nonce, person=b"shogun-host",
                           digest_size=PIN_BYTES).digest()


# ------------------------------------------------------------------ door records
@dataclass(frozen=True)
class DoorRecord:
    kind: str
    table: bytes
    sealed: bytes
    sig: bytes


class DoorState(StrEnum):
    WHOLE = "whole"
    MISSING = "missing"
    TORN = "torn"               # cut short at its end: not whole yet
    DAMAGED = "damaged"         # no door record


def _signed(kind: str, table: bytes, sealed: bytes) -> bytes:
    return b"shogun-folder-" + kind.encode() + b"/" + table + sealed


def make_door(key: SeatKey, kind: str, table: bytes, sealing: FolderKey, payload: object) -> bytes:
    sealed = sealing.seal(msgpack.packb(payload, use_bin_type=True))
    body: bytes = msgpack.packb([DOOR_VERSION, kind, table, sealed,
                                 key.sign(_signed(kind, table, sealed))], use_bin_type=True)
    return _HEADER.pack(DOOR_MAGIC, len(body)) + body + _TRAILER.pack(zlib.crc32(body))


def parse_door(data: bytes) -> tuple[DoorState, DoorRecord | None, str]:
    """One door record from a file's bytes: (state, the record, what was wrong)."""
    if len(data) < _HEADER.size:
        return (DoorState.TORN, None, f"{len(data)} bytes of a header") if data else \
            (DoorState.TORN, None, "empty")
    magic, length = _HEADER.unpack_from(data)
    if magic != DOOR_MAGIC or length > MAX_DOOR:
        return DoorState.DAMAGED, None, "no record begins there"
    whole = _HEADER.size + length + _TRAILER.size
    if len(data) < whole:
        return DoorState.TORN, None, f"{len(data)} of {whole} bytes"
    body = data[_HEADER.size:_HEADER.size + length]
    if _TRAILER.unpack_from(data, _HEADER.size + length)[0] != zlib.crc32(body) or len(data) > whole:
        return DoorState.DAMAGED, None, "its checksum fails, or bytes follow it"
    try:
        fields = msgpack.unpackb(body, raw=False, max_bin_len=MAX_DOOR, max_str_len=16,
                                 max_array_len=8, max_map_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return DoorState.DAMAGED, None, "not a door record"
    if not isinstance(fields, list) or len(fields) != 5 or fields[0] != DOOR_VERSION:
        return DoorState.DAMAGED, None, "not a door record of this version"
    _, kind, table, sealed, sig = fields
    if not isinstance(kind, str) or not isinstance(table, bytes) or len(table) != TABLE_BYTES \
            or not isinstance(sealed, bytes) or not isinstance(sig, bytes) \
            or len(sig) != SIGNATURE_BYTES:
        return DoorState.DAMAGED, None, "not a door record"
    return DoorState.WHOLE, DoorRecord(kind, table, sealed, sig), ""


def open_door(code: TableCode, record: DoorRecord, public: bytes | None = None) -> list[object] | None:
    """The record's payload (a list) if it opens with the code's key (and, given `public`,
    is signed by it); None otherwise."""
    if public is not None and not verify(public, _signed(record.kind, record.table,
                                                         record.sealed), record.sig):
        return None
    try:
        payload = msgpack.unpackb(code.sealing.open(record.sealed), raw=False,
                                  max_bin_len=MAX_DOOR, max_str_len=4 * MAX_NAME,
                                  max_array_len=16, max_map_len=0, max_ext_len=0)
    except (FolderKeyError, ValueError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError):
        return None
    return payload if isinstance(payload, list) else None


def signed_by(record: DoorRecord, public: bytes) -> bool:
    return verify(public, _signed(record.kind, record.table, record.sealed), record.sig)


def clean_name(name: object) -> str:
    return shown(name if isinstance(name, str) else "")[:MAX_NAME]


# ------------------------------------------------------------------ the start
@dataclass(frozen=True)
class TableStart:
    """The host's start record: who hosts and what game the table plays."""
    host_public: bytes
    host_name: str
    players: int
    side: str
    setup: str
    bots: int                   # bot seats (the last seats)
    bot_level: str
    created: int                # seconds since the epoch
    turn_timer: int = 0         # seconds a decision may wait before the others may hand the
                                # seat to a bot (`net.correspondence.turn_timer`); 0: none

    def payload(self) -> list[object]:
        return [self.host_public, self.host_name, self.players, self.side, self.setup,
                self.bots, self.bot_level, self.created, self.turn_timer]

    @property
    def humans(self) -> int:
        return self.players - self.bots


def start_problem(start: TableStart) -> str:
    """What makes these options no table's, or ""."""
    if not 3 <= start.players <= 5:
        return f"{start.players} players (a table has 3 to 5)"
    if start.side not in SIDES or start.setup not in SETUPS:
        return "an unknown side or setup"
    if not 0 <= start.bots < start.players:
        return f"{start.bots} bot seats of {start.players}"
    if start.bot_level not in BOT_LEVELS:
        return "an unknown bot level"
    if timer_problem(start.turn_timer, short=True):   # a host's own switch, not a reader's
        return timer_problem(start.turn_timer, short=True)
    return ""


def make_start(key: SeatKey, code: TableCode, start: TableStart) -> bytes:
    return make_door(key, "start", code.table, code.sealing, start.payload())


def _start_of(payload: list[object]) -> TableStart | None:
    if len(payload) == 8:
        payload = payload + [0]                  # a start from before the turn timer
    if len(payload) != 9:
        return None
    public, name, players, side, setup, bots, level, created, timer = payload
    if not isinstance(public, bytes) or len(public) != PUBLIC_BYTES or type(players) is not int \
            or type(bots) is not int or type(created) is not int or type(timer) is not int \
            or not all(isinstance(v, str) for v in (side, setup, level)):
        return None
    assert isinstance(side, str) and isinstance(setup, str) and isinstance(level, str)
    return TableStart(public, clean_name(name), players, side, setup, bots, level, created,
                      timer)


class StartKind(StrEnum):
    START = "start"
    NO_TABLE = "no table"
    NOT_WHOLE = "not whole"
    DAMAGED = "damaged"
    WRONG_CODE = "wrong code"
    CHANGED = "changed"
    FORGED = "forged"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class StartVerdict:
    kind: StartKind
    sentence: str = ""
    start: TableStart | None = None

    @property
    def names_someone(self) -> bool:
        return self.kind in (StartKind.DAMAGED, StartKind.CHANGED, StartKind.FORGED,
                             StartKind.MALFORMED)


def check_start(code: TableCode, data: bytes | None) -> StartVerdict:
    """What `table.shogun`'s bytes (None: no such file) are to a holder of `code`."""
    if data is None:
        return StartVerdict(StartKind.NO_TABLE, "there is no table in this folder yet "
                            "(table.shogun is missing)")
    state, record, _ = parse_door(data)
    if state is DoorState.TORN:
        return StartVerdict(StartKind.NOT_WHOLE, "table.shogun is not whole yet; it is read "
                            "again later")
    if record is None or record.kind != "start":
        return StartVerdict(StartKind.DAMAGED, "table.shogun is damaged: it holds no start "
                            "record")
    if record.table != code.table:
        return StartVerdict(StartKind.WRONG_CODE, "this code does not open the table in this "
                            "folder (a wrong code, or another table's folder)")
    payload = open_door(code, record)
    if payload is None:
        return StartVerdict(StartKind.CHANGED, "table.shogun was changed: it does not open "
                            "with the table's code")
    start = _start_of(payload)
    if start is None:
        return StartVerdict(StartKind.MALFORMED, "table.shogun is damaged: it holds no start "
                            "record")
    if not code.names_host(start.host_public):
        return StartVerdict(StartKind.FORGED, "table.shogun is forged: it is signed by a key "
                            "the code does not name (not the host's)")
    if not signed_by(record, start.host_public):
        return StartVerdict(StartKind.CHANGED, "table.shogun was changed: the host's "
                            "signature does not hold")
    problem = start_problem(start)
    if problem:
        return StartVerdict(StartKind.MALFORMED, "table.shogun sets up no table: its options "
                            "are out of range")
    return StartVerdict(StartKind.START, start=start)


# ------------------------------------------------------------------ the seating
@dataclass(frozen=True)
class SeatEntry:
    seat: int
    kind: str                   # "human" | "bot"
    public: bytes               # b"" for a bot
    name: str


@dataclass(frozen=True)
class Seating:
    seats: tuple[SeatEntry, ...]

    def payload(self) -> list[object]:
        return [[e.seat, e.kind, e.public, e.name] for e in self.seats]

    def seat_of(self, public: bytes) -> int | None:
        return next((e.seat for e in self.seats if e.kind == "human" and e.public == public),
                    None)


def make_seating(key: SeatKey, code: TableCode, seating: Seating) -> bytes:
    return make_door(key, "seating", code.table, code.sealing, seating.payload())


def _seating_of(payload: list[object]) -> Seating | None:
    seats = []
    for entry in payload:
        if not isinstance(entry, list) or len(entry) != 4:
            return None
        seat, kind, public, name = entry
        if type(seat) is not int or kind not in ("human", "bot") or not isinstance(public, bytes):
            return None
        assert isinstance(kind, str)
        seats.append(SeatEntry(seat, kind, public, clean_name(name)))
    return Seating(tuple(seats))


def seating_problem(start: TableStart, seating: Seating) -> str:
    seats = seating.seats
    if [e.seat for e in seats] != list(range(start.players)):
        return f"seats other than 0 to {start.players - 1}, each once"
    if seats[0].kind != "human" or seats[0].public != start.host_public:
        return "seat 0 is not the host's"
    if sum(e.kind == "bot" for e in seats) != start.bots:
        return f"not {start.bots} bot seats"
    humans = [e.public for e in seats if e.kind == "human"]
    if any(len(p) != PUBLIC_BYTES for p in humans) or len(set(humans)) != len(humans):
        return "a human seat without a key, or one key on two seats"
    return ""


class SeatingKind(StrEnum):
    SEATED = "seated"
    NOT_SEALED = "not sealed"
    REFUSED = "refused"


@dataclass(frozen=True)
class SeatingVerdict:
    kind: SeatingKind
    sentence: str = ""
    seating: Seating | None = None
    my_seat: int | None = None


def check_seating(code: TableCode, start: TableStart, data: bytes | None,
                  mine: bytes) -> SeatingVerdict:
    """What `seating.shogun`'s bytes are to the holder of public key `mine`."""
    if data is None:
        return SeatingVerdict(SeatingKind.NOT_SEALED)
    state, record, _ = parse_door(data)
    if state is DoorState.TORN:
        return SeatingVerdict(SeatingKind.NOT_SEALED)
    if record is None or record.kind != "seating" or record.table != code.table:
        return SeatingVerdict(SeatingKind.REFUSED, "seating.shogun is damaged, or another "
                              "table's")
    payload = open_door(code, record, start.host_public)
    if payload is None:
        return SeatingVerdict(SeatingKind.REFUSED, "seating.shogun is forged or changed: it "
                              "is not signed by the host")
    seating = _seating_of(payload)
    problem = "no seats" if seating is None else seating_problem(start, seating)
    if seating is None or problem:
        return SeatingVerdict(SeatingKind.REFUSED, "seating.shogun seats no table: its seats "
                              "are not the start's")
    seat = seating.seat_of(mine)
    if seat is None:
        return SeatingVerdict(SeatingKind.REFUSED, "the host's seating has no seat with my key "
                              "(my claim was not taken)", seating=seating)
    return SeatingVerdict(SeatingKind.SEATED, seating=seating, my_seat=seat)
