"""Opening a correspondence table, claiming a seat and sealing the seating: the door's I/O.

Why apart from the decisions: what counts is decided by the pure checks of
`net.correspondence.table_start` and `net.correspondence.seat_claim`; this module only
reads the folder through `net.correspondence.folder_io` (no symlink, no FIFO, a size
cap) and writes its door files once, each complete or absent (written beside, fsynced,
renamed into place, never over a file that is there). A host's session
(`host_round`) reads the claims, names the ones it refuses, and seals the seating once
every human seat is claimed; everyone builds the table's `FolderTable` from the start and
the seating (`folder_table`).

Tests: tests/net/correspondence/test_table_door.py; real processes in
tests/net/correspondence/test_door_processes.py.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from net.correspondence import folder_io
from net.correspondence.folder_link import FolderTable
from net.correspondence.seat_claim import (CLAIM_NAME, MAX_CLAIMS, Claim, ClaimKind,
                                           claim_file_name, judge_claim, make_claim,
                                           seat_claims)
from net.correspondence.table_start import (SEATING_FILE, START_FILE, SeatingKind,
                                            SeatingVerdict, StartKind, StartVerdict,
                                            TableCode, TableStart, check_seating,
                                            check_start, make_seating, make_start,
                                            start_problem)
from net.lockstep.engine import EngineConfig
from net.trust.seat_keys import SeatKey


class DoorError(Exception):
    """The door cannot be passed: the message says why, in a sentence."""


def write_once(folder: Path, name: str, data: bytes) -> bool:
    """Put `data` in `folder/name` whole, unless a file of that name is there (False)."""
    target = folder / name
    if os.path.lexists(target):
        return False
    temp = folder / f".{name}.tmp-{os.getpid()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temp, target)             # never over a file that appeared meanwhile
    except FileExistsError:
        return False
    except OSError:
        if os.path.lexists(target):
            return False
        os.replace(temp, target)          # a file system without hard links
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)
    dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    return True


def _read(folder: Path, name: str) -> bytes | None:
    read = folder_io.read_file(folder, name)
    if read.missing:
        return None
    if read.refused:
        raise DoorError(f"{name} is {read.refused}: not read")
    return read.data


def open_table(folder: Path, key: SeatKey, start: TableStart) -> TableCode:
    """Write a new table's start record in `folder` (which holds none); its code."""
    problem = start_problem(start)
    if problem:
        raise DoorError(f"no table with {problem}")
    folder.mkdir(parents=True, exist_ok=True)
    code = TableCode.new(key.public)
    if not write_once(folder, START_FILE, make_start(key, code, start)):
        raise DoorError(f"{folder} holds a table already ({START_FILE}); a table needs a "
                        "folder of its own")
    return code


def read_start(folder: Path, code: TableCode) -> StartVerdict:
    try:
        return check_start(code, _read(folder, START_FILE))
    except DoorError as e:
        return StartVerdict(StartKind.DAMAGED, str(e))


def read_seating(folder: Path, code: TableCode, start: TableStart, mine: bytes) -> SeatingVerdict:
    try:
        return check_seating(code, start, _read(folder, SEATING_FILE), mine)
    except DoorError as e:
        return SeatingVerdict(SeatingKind.REFUSED, str(e))


def claim_seat(folder: Path, code: TableCode, key: SeatKey, name: str) -> TableStart:
    """Check the folder's start record with `code`, then write my claim (once)."""
    verdict = read_start(folder, code)
    if verdict.start is None:
        raise DoorError(verdict.sentence)
    write_once(folder, claim_file_name(code.table, key.public), make_claim(key, code, name))
    return verdict.start


@dataclass
class HostRound:
    """What one host session did at the door."""
    accepted: list[Claim] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)      # sentences naming a claim file
    left: list[Claim] = field(default_factory=list)       # accepted, but the table is full
    seating: SeatingVerdict | None = None


def host_round(folder: Path, code: TableCode, key: SeatKey, start: TableStart) -> HostRound:
    """Read the claims; seal the seating when every human seat is claimed."""
    out = HostRound()
    out.seating = read_seating(folder, code, start, key.public)
    if out.seating.kind is not SeatingKind.NOT_SEALED:
        return out
    names = [n for n in folder_io.list_folder(folder).names if CLAIM_NAME.fullmatch(n)]
    for name in names[:MAX_CLAIMS]:
        try:
            data = _read(folder, name)
        except DoorError as e:
            out.refused.append(str(e))
            continue
        if data is None:
            continue
        verdict = judge_claim(code, start, name, data)
        if verdict.claim is not None:
            out.accepted.append(verdict.claim)
        elif verdict.kind is not ClaimKind.NOT_WHOLE:
            out.refused.append(verdict.sentence)
    seating = seat_claims(start, out.accepted)
    if seating is not None:
        seated = {e.public for e in seating.seats}
        out.left = [c for c in out.accepted if c.public not in seated]
        write_once(folder, SEATING_FILE, make_seating(key, code, seating))
        out.seating = read_seating(folder, code, start, key.public)
    return out


def folder_table(folder: Path, code: TableCode, start: TableStart, verdict: SeatingVerdict,
                 config: EngineConfig) -> FolderTable:
    """The table every seated player plays, from the start and a seating that passed
    (`config`: the engine's config of the start's players, side and setup)."""
    seating = verdict.seating
    if verdict.kind is not SeatingKind.SEATED or seating is None:
        raise DoorError(verdict.sentence or "the seating is not sealed yet")
    return FolderTable(folder, code.table, code.raw,
                       {e.seat: e.public for e in seating.seats if e.kind == "human"},
                       {e.seat: e.kind for e in seating.seats},
                       config)


def new_start(key: SeatKey, name: str, players: int, side: str, setup: str, bots: int,
              bot_level: str) -> TableStart:
    return TableStart(key.public, name, players, side, setup, bots, bot_level, int(time.time()))
