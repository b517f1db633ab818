"""A player's local save, its command log, and desync reports.

Why a save: a peer killed mid-game must be able to rejoin as the same seat and say
exactly what it already said (its plan and nonce, its last command) and keep revealing
its beacon chain. The save holds those secrets; the command log beside it is a record
(a rejoin catches up from the other players).

Tests: tests/store/test_table_save.py, tests/net/table/test_session.py.
"""

from __future__ import annotations

import json
import os
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import msgpack

from store.save_error import SaveError as SaveError   # re-exported: callers import it here

SAVE_VERSION = 1
_KEYS = ("start", "seat", "peer", "name", "code", "secret", "token", "plans", "addresses")


def default_save_path(name: str) -> str:
    """Where a player's save goes without --save: the user data dir (platformdirs)."""
    try:
        from platformdirs import user_data_dir
        base = Path(user_data_dir("shogun", appauthor=False)) / "net"
    except Exception:
        base = Path.home() / ".shogun" / "net"
    return str(base / f"{name}-{os.getpid()}.save")


class SaveJournal:
    """My save, written as a journal: each new save is one record appended to the file.

    Why not rewrite the file and rename it over the old one each time: a peer saves before
    every choice it sends (~50 times a game), and on ext4 a rename over an existing file
    also starts writing the new file's data out, which cost a peer ~10 ms of its game's CPU
    (BENCHMARKS.md). An append is one `write`. It is as safe against a crash: a record
    carries its length and a checksum, and `read_save` takes the last whole record, so a
    crash mid-write leaves the previous save. The first save of a process, and any save
    once the file passes `COMPACT_AT` bytes, starts the file afresh with the old
    write-and-rename, so the file holds at most one game's saves of one process."""

    COMPACT_AT = 1 << 20

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self._file: Any = None

    def write(self, save: dict[str, Any]) -> None:
        record = _record(msgpack.packb({"version": SAVE_VERSION, **save}, use_bin_type=True))
        if self._file is None or self._file.tell() + len(record) > self.COMPACT_AT:
            self._start_afresh(record)
        else:
            self._file.write(record)
            self._file.flush()

    def _start_afresh(self, record: bytes) -> None:
        """Atomically: a crash leaves the old save or the new one, never half of one."""
        self.close()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        with open(tmp, "wb") as f:
            f.write(JOURNAL_MAGIC + record)
        os.replace(tmp, self.path)
        self._file = open(self.path, "ab")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


JOURNAL_MAGIC = b"shogun net save journal\n"
_RECORD_HEAD = struct.Struct(">II")          # length of the body, its CRC-32


def _record(body: bytes) -> bytes:
    return _RECORD_HEAD.pack(len(body), zlib.crc32(body)) + body


def _last_record(data: bytes) -> bytes | None:
    """The last whole record of a journal (a torn or damaged tail is ignored)."""
    at, last = len(JOURNAL_MAGIC), None
    while at + _RECORD_HEAD.size <= len(data):
        length, crc = _RECORD_HEAD.unpack_from(data, at)
        body = data[at + _RECORD_HEAD.size: at + _RECORD_HEAD.size + length]
        if len(body) != length or zlib.crc32(body) != crc:
            break
        last, at = body, at + _RECORD_HEAD.size + length
    return last


def write_save(path: str, save: dict[str, Any]) -> None:
    """One save in a file of its own (a journal of one record)."""
    journal = SaveJournal(path)
    journal.write(save)
    journal.close()


def read_save(path: str) -> dict[str, Any]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SaveError(f"cannot read the save {path}: {exc.strerror}") from None
    if data.startswith(JOURNAL_MAGIC):
        body = _last_record(data)
        if body is None:
            raise SaveError(f"{path} is not a net save (damaged? no whole record)")
        data = body
    try:
        save = msgpack.unpackb(data, raw=False, strict_map_key=False, max_ext_len=0)
    except Exception as exc:
        raise SaveError(f"{path} is not a net save (damaged? {type(exc).__name__})") from None
    if not isinstance(save, dict) or save.get("version") != SAVE_VERSION:
        raise SaveError(f"{path} is not a net save of version {SAVE_VERSION}")
    missing = [k for k in _KEYS if k not in save]
    if missing:
        raise SaveError(f"{path} lacks {', '.join(missing)}")
    if not isinstance(save["secret"], bytes) or len(save["secret"]) != 32 \
            or not isinstance(save["seat"], int):
        raise SaveError(f"{path} has a damaged secret or seat")
    return save


class CommandLog:
    """`<save>.log`: one msgpack log entry appended (and flushed) per step."""

    def __init__(self, path: str, earlier: list[dict[str, Any]]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "wb")
        for entry in earlier:
            self._file.write(msgpack.packb(entry, use_bin_type=True))

    def append(self, entry: dict[str, Any]) -> None:
        self._file.write(msgpack.packb(entry, use_bin_type=True))
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_command_log(path: str) -> list[dict[str, Any]]:
    unpacker = msgpack.Unpacker(open(path, "rb"), raw=False, strict_map_key=False)
    return [entry for entry in unpacker]


def jsonable(obj: Any) -> Any:
    if isinstance(obj, bytes):
        return obj.hex()
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(x) for x in obj]
    return obj


def write_desync_report(directory: str, report: dict[str, Any]) -> str:
    """`desync-<step>-<seat>-<pid>.json`: both hashes, the step, the log, versions."""
    base = Path(directory)
    base.mkdir(parents=True, exist_ok=True)
    path = base / f"desync-{report['step']}-{report['seat']}-{os.getpid()}.json"
    body = {**report, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    path.write_text(json.dumps(jsonable(body), indent=1))
    return str(path)
