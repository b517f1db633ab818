"""The folder's only I/O: listing it, reading a seat's file safely, appending a record.

Why in one place: the folder is written by strangers (every player, the sync provider).
A name may be a symlink to a file of mine, a FIFO that blocks whoever opens it, a device,
a file of ten gigabytes, or one of a hundred thousand names. So a listing reads at most
`MAX_NAMES` names; a file is opened with `O_NOFOLLOW | O_NONBLOCK` and read only if
`fstat` of what was opened says it is a regular file (no window between a check and the
open), and no further than `MAX_FILE`. Names come from the listing and are joined only
to the folder's own path.

A write is complete or absent, even on a crash: `SeatWriter` cuts its own file's torn
tail (a record half written when the program was killed) before it appends, appends each
record with one `write` on an `O_APPEND` descriptor and `fsync`s it before it returns; a
reader ignores a torn tail (`net.correspondence.seat_record.parse_file`). When the file in
the folder lacks records the writer wrote (a sync tool brought back an old version), the
writer puts the whole file back from its own records: written beside it, `fsync`ed, then
renamed over it.

Tests: tests/net/correspondence/test_folder_io.py.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from net.correspondence.folder_names import seat_file_name
from net.correspondence.seat_record import SeatRecord, parse_file

MAX_NAMES = 10_000
MAX_FILE = 64 << 20
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Listing:
    names: tuple[str, ...]       # sorted, at most MAX_NAMES
    more: bool                   # the folder held more names than were read


@dataclass(frozen=True)
class FileRead:
    """A file's bytes (up to MAX_FILE), or why it was not read (`refused`)."""
    data: bytes = b""
    refused: str = ""
    cut: bool = False            # longer than MAX_FILE: only the first MAX_FILE bytes
    missing: bool = False


def list_folder(folder: Path) -> Listing:
    names: list[str] = []
    more = False
    with os.scandir(folder) as entries:
        for entry in entries:
            if len(names) >= MAX_NAMES:
                more = True
                break
            names.append(entry.name)
    return Listing(tuple(sorted(names)), more)


def read_file(folder: Path, name: str) -> FileRead:
    if "/" in name or name in ("", ".", ".."):
        return FileRead(refused="not a plain name")
    try:
        fd = os.open(folder / name, _READ_FLAGS)
    except FileNotFoundError:
        return FileRead(missing=True)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return FileRead(refused="a symbolic link (never followed)")
        return FileRead(refused=f"cannot be opened ({e.strerror})")
    try:
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            return FileRead(refused="not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_FILE:
            chunk = os.read(fd, min(1 << 20, MAX_FILE + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
        if len(data) > MAX_FILE:
            return FileRead(data=data[:MAX_FILE], cut=True)
        return FileRead(data=data)
    except OSError as e:
        return FileRead(refused=f"cannot be read ({e.strerror})")
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class SeatWriter:
    """Appends my seat's records to my file; the only writer of that file."""

    def __init__(self, folder: Path, seat: int, mine: tuple[SeatRecord, ...]) -> None:
        """`mine`: every record this seat wrote before, as the reader accepted them (the
        folder's file may hold fewer, or a torn tail; it is repaired here)."""
        self.folder = folder
        self.path = folder / seat_file_name(seat)
        self.repaired = self._repair(mine)

    def _repair(self, mine: tuple[SeatRecord, ...]) -> str:
        """Make the file exactly `mine` if it is not; say what was done ("" if nothing)."""
        read = read_file(self.folder, self.path.name)
        if read.refused:
            raise OSError(f"{self.path.name} {read.refused}")
        scan = parse_file(read.data)
        whole = b"".join(r.raw for r in mine)
        if read.data == whole:
            return ""
        if read.data.startswith(whole) and not scan.records[len(mine):]:
            # only a torn tail after my records: cut it
            fd = os.open(self.path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.ftruncate(fd, len(whole))
                os.fsync(fd)
            finally:
                os.close(fd)
            return f"cut a torn tail of {len(read.data) - len(whole)} bytes"
        temp = self.folder / f".{self.path.name}.tmp-{os.getpid()}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644)
        try:
            _write_all(fd, whole)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, self.path)
        _fsync_dir(self.folder)
        return f"put back {len(mine)} records ({len(read.data)} bytes were there)"

    def append(self, record: SeatRecord) -> None:
        """Write `record` at the end of my file and return only once it is on disk."""
        created = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{self.path.name} is not a regular file")
            _write_all(fd, record.raw)
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
