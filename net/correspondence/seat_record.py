"""One record of a seat's file in a correspondence folder: framing, sealing, signing, chain.

Why records of their own and not the wire's frames: a file in a synced folder has no
connection around it. Nobody seals it per connection, nobody numbers it, and whatever a
sync tool delivers may be cut short. So each record carries what a connection gave for
free: the table, the seat and its number (`seq`), the hash of the record before it
(`prev`, so a record names the whole history before it), the seat's signature over all
of it, and a checksum that tells an accident (a record cut short by a crash or an
unfinished sync) from a whole record that is not the seat's (an edit).

A record in the file: `"SHGR"`, a 4-byte big-endian length, the body, a CRC-32 of the
body. The body is msgpack `[version, table, seat, seq, prev, kind, sealed, signature]`;
the signature is the seat's Ed25519 key over `"shogun-folder/"` and the body without it.
`sealed` is the payload in a SecretBox: the table's folder key for what the table reads
(`KIND_TABLE`) and for a proof that another seat forked its file (`KIND_PROOF`,
`net.correspondence.fork_proof`) and for a claim that a seat waited past the turn
timer (`KIND_HAND`, `net.correspondence.seat_handover`), a key only the seat holds for
its own secrets (`KIND_OWN`). Parsing
checks shape only; whose record it is, and whether it follows the one before, is the
trust decision's (`net.correspondence.seat_trust`). docs/net.md, "Correspondence tables".

Tests: tests/net/correspondence/test_seat_record.py.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass
from enum import StrEnum

import msgpack
from nacl.secret import SecretBox
from nacl.exceptions import CryptoError

from net.trust.seat_keys import PUBLIC_BYTES, SIGNATURE_BYTES, SeatKey, verify

MAGIC = b"SHGR"
VERSION = 1
HEADER = struct.Struct(">4sI")          # magic, body length
TRAILER = struct.Struct(">I")           # CRC-32 of the body
MAX_BODY = 1 << 20                      # as a wire frame (net.transport.framing)
TABLE_BYTES = 16
DIGEST_BYTES = 32
MAX_SEQ = (1 << 32) - 1
KIND_TABLE = 0                          # sealed with the table's folder key
KIND_OWN = 1                            # sealed with a key only the seat holds
KIND_PROOF = 2                          # another seat's fork, sealed with the table's key
KIND_HAND = 3                           # a hand-over claim (`seat_handover`), the table's key
KINDS = frozenset({KIND_TABLE, KIND_OWN, KIND_PROOF, KIND_HAND})
SECRET_BYTES = 32                       # the table secret: the correspondence code
_SIGNED_PREFIX = b"shogun-folder/"


class FolderKeyError(ValueError):
    """A sealed payload that does not open with the key (not this table's, or altered)."""


@dataclass(frozen=True)
class SeatRecord:
    """One whole record as it stands in a file (its checksum held; shape checked)."""
    table: bytes
    seat: int
    seq: int
    prev: bytes
    kind: int
    sealed: bytes
    sig: bytes
    raw: bytes                  # the framed bytes, exactly as in the file

    @property
    def digest(self) -> bytes:
        """What the next record's `prev` must be."""
        return hashlib.sha256(_body_of(self.raw)).digest()

    def signed_by(self, public: bytes | None) -> bool:
        return verify(public, _signed_bytes(self.table, self.seat, self.seq, self.prev,
                                            self.kind, self.sealed), self.sig)


def first_prev(table: bytes, seat: int) -> bytes:
    """The `prev` of a seat's first record: binds record 0 to the table and the seat."""
    return hashlib.sha256(b"shogun-folder/first/" + table + bytes([seat])).digest()


def _signed_bytes(table: bytes, seat: int, seq: int, prev: bytes, kind: int,
                  sealed: bytes) -> bytes:
    packed: bytes = msgpack.packb([VERSION, table, seat, seq, prev, kind, sealed],
                                  use_bin_type=True)
    return _SIGNED_PREFIX + packed


def _body_of(raw: bytes) -> bytes:
    return raw[HEADER.size:len(raw) - TRAILER.size]


def make_record(key: SeatKey, table: bytes, seat: int, seq: int, prev: bytes, kind: int,
                sealed: bytes) -> SeatRecord:
    """A new record signed with `key` (the caller keeps `seq` and `prev`)."""
    sig = key.sign(_signed_bytes(table, seat, seq, prev, kind, sealed))
    body: bytes = msgpack.packb([VERSION, table, seat, seq, prev, kind, sealed, sig],
                                use_bin_type=True)
    if len(body) > MAX_BODY:
        raise FolderKeyError(f"a record of {len(body)} bytes is over {MAX_BODY}")
    raw = HEADER.pack(MAGIC, len(body)) + body + TRAILER.pack(zlib.crc32(body))
    return SeatRecord(table, seat, seq, prev, kind, sealed, sig, raw)


# ------------------------------------------------------------------ sealing
def _derived(secret: bytes, person: bytes) -> bytes:
    if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
        raise FolderKeyError(f"a folder secret must be {SECRET_BYTES} bytes")
    return hashlib.blake2b(b"", key=secret, person=person, digest_size=SecretBox.KEY_SIZE).digest()


class FolderKey:
    """Seals and opens payloads: the table's (from the table secret every player holds) or
    a seat's own (from its seat key's seed, which only that player holds)."""

    def __init__(self, key: bytes) -> None:
        self._box = SecretBox(key)

    @classmethod
    def for_table(cls, table_secret: bytes) -> FolderKey:
        return cls(_derived(table_secret, b"shogun-folder"))

    @classmethod
    def for_own(cls, seat_seed: bytes) -> FolderKey:
        return cls(_derived(seat_seed, b"shogun-own"))

    def seal(self, payload: bytes) -> bytes:
        return bytes(self._box.encrypt(payload))     # a random nonce for every record

    def open(self, sealed: bytes) -> bytes:
        try:
            return bytes(self._box.decrypt(sealed))
        except CryptoError:
            raise FolderKeyError("a sealed payload does not open with this table's key") from None


# ------------------------------------------------------------------ parsing a file
class Stop(StrEnum):
    """Why reading a file stopped before its end."""
    TORN = "torn"               # the last record is cut short or its checksum fails at the end
    DAMAGED = "damaged"         # bytes in the middle are no record, or fail their checksum
    MALFORMED = "malformed"     # a whole record (checksum holds) that is not a seat record


@dataclass(frozen=True)
class FileScan:
    """A file's whole records from its start, and why reading stopped early, if it did."""
    records: tuple[SeatRecord, ...]
    stop: Stop | None = None
    stop_at: int = 0            # byte offset of the first byte not read
    detail: str = ""            # what was wrong there, in words


def _decode(raw: bytes) -> SeatRecord | None:
    try:
        fields = msgpack.unpackb(_body_of(raw), raw=False, strict_map_key=True,
                                 max_bin_len=MAX_BODY, max_str_len=0, max_array_len=8,
                                 max_map_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return None
    if not isinstance(fields, list) or len(fields) != 8:
        return None
    version, table, seat, seq, prev, kind, sealed, sig = fields
    if version != VERSION or type(seat) is not int or type(seq) is not int \
            or type(kind) is not int or kind not in KINDS or not 0 <= seat <= 9 \
            or not 0 <= seq <= MAX_SEQ:
        return None
    for value, size in ((table, TABLE_BYTES), (prev, DIGEST_BYTES), (sig, SIGNATURE_BYTES)):
        if not isinstance(value, bytes) or len(value) != size:
            return None
    if not isinstance(sealed, bytes):
        return None
    return SeatRecord(table, seat, seq, prev, kind, sealed, sig, raw)


def parse_file(data: bytes) -> FileScan:
    """Every whole record from the start of `data`, stopping at the first that is not."""
    records: list[SeatRecord] = []
    at = 0
    end = len(data)
    while at < end:
        left = end - at
        if left < HEADER.size:
            return FileScan(tuple(records), Stop.TORN, at,
                            f"incomplete last record: {left} bytes of a header")
        magic, length = HEADER.unpack_from(data, at)
        if magic != MAGIC or length > MAX_BODY:
            what = "no record begins there" if magic != MAGIC else f"a record of {length} bytes"
            return FileScan(tuple(records), Stop.DAMAGED, at, f"byte {at}: {what}")
        whole = HEADER.size + length + TRAILER.size
        if left < whole:
            return FileScan(tuple(records), Stop.TORN, at,
                            f"incomplete last record: {left} of {whole} bytes")
        body = data[at + HEADER.size:at + HEADER.size + length]
        (crc,) = TRAILER.unpack_from(data, at + HEADER.size + length)
        if crc != zlib.crc32(body):
            if at + whole == end:
                return FileScan(tuple(records), Stop.TORN, at,
                                "the last record is damaged (its checksum fails)")
            return FileScan(tuple(records), Stop.DAMAGED, at,
                            f"byte {at}: a record whose checksum fails")
        record = _decode(data[at:at + whole])
        if record is None:
            return FileScan(tuple(records), Stop.MALFORMED, at,
                            f"byte {at}: a whole record that is not a seat record")
        records.append(record)
        at += whole
    return FileScan(tuple(records), None, at)


__all__ = ["SeatRecord", "FileScan", "Stop", "FolderKey", "FolderKeyError", "make_record",
           "parse_file", "first_prev", "KIND_TABLE", "KIND_OWN", "KIND_PROOF", "KIND_HAND",
           "MAX_BODY",
           "TABLE_BYTES",
           "PUBLIC_BYTES", "SECRET_BYTES"]
