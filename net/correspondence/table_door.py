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


def write_once(folder: Path, name: str, data: bytes, over: bool = False) -> bool:
    """Put `data` in `folder/name` whole, unless a file of that name is there (False);
    `over`: replace the file that is there (the host's own door file, put back)."""
    target = folder / name
    if os.path.lexists(target) and not over:
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
        if over:
            os.replace(temp, target)      # a symlink there is replaced, never followed
        else:
            os.link(temp, target)         # never over a file that appeared meanwhile
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


def put_back(folder: Path, keep: Path, name: str) -> str:
    """The host's door file `name` as the host wrote it (its copy in `keep`, on this
    machine): put back in the folder if the folder's differs. A sentence if it did."""
    kept = folder_io.read_file(keep, name)
    if not kept.data:
        return ""
    there = folder_io.read_file(folder, name)
    if there.data == kept.data and not there.refused:
        return ""
    write_once(folder, name, kept.data, over=True)
    if there.missing:
        return f"{name} was gone from the folder: put back from the host's copy"
    return f"{name} was changed in the folder: put back from the host's copy"


def keep_copy(folder: Path, keep: Path, name: str) -> None:
    """Keep on this machine the door file `name` the host has just written in `folder`."""
    _keep(keep, name, folder_io.read_file(folder, name).data)


def _keep(keep: Path | None, name: str, data: bytes) -> None:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        write_once(keep, name, data, over=True)


def _when(path: Path) -> float:
    try:
        return os.stat(path, follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def _read(folder: Path, name: str) -> bytes | None:
    read = folder_io.read_file(folder, name)
    if read.missing:
        return None
    if read.refused:
        raise DoorError(f"{name} was not read ({read.refused})")
    return read.data


def open_table(folder: Path, key: SeatKey, start: TableStart,
               keep: Path | None = None) -> TableCode:
    """Write a new table's start record in `folder` (which holds none), and a copy in
    `keep` (the host's, on this machine); the table's code."""
    if not 0 <= start.bots < start.players:
        raise DoorError(f"a table of {start.players} players cannot have {start.bots} bot seats")
    if start_problem(start):
        raise DoorError("these options set up no table")
    folder.mkdir(parents=True, exist_ok=True)
    code = TableCode.new(key.public)
    record = make_start(key, code, start)
    if not write_once(folder, START_FILE, record):
        raise DoorError(f"{folder} holds a table already; a table needs a folder of its own")
    _keep(keep, START_FILE, record)
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


def host_round(folder: Path, code: TableCode, key: SeatKey, start: TableStart,
               keep: Path | None = None) -> HostRound:
    """Read the claims; seal the seating when every human seat is claimed (a copy in
    `keep`). A seating in the folder that is not the host's is named and replaced."""
    out = HostRound()
    said = put_back(folder, keep, SEATING_FILE) if keep is not None else ""
    if said:
        out.refused.append(said)
    out.seating = read_seating(folder, code, start, key.public)
    if out.seating.kind is SeatingKind.SEATED:
        return out
    if out.seating.kind is SeatingKind.REFUSED:
        out.refused.append(f"{SEATING_FILE} was not written by the host; the host seats the "
                           "table itself")
    names = [n for n in folder_io.list_folder(folder).names if CLAIM_NAME.fullmatch(n)]
    for name in sorted(names[:MAX_CLAIMS], key=lambda n: (_when(folder / n), n)):
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
        record = make_seating(key, code, seating)
        _keep(keep, SEATING_FILE, record)
        write_once(folder, SEATING_FILE, record,
                   over=out.seating.kind is SeatingKind.REFUSED)
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
                       config, start.turn_timer)


def new_start(key: SeatKey, name: str, players: int, side: str, setup: str, bots: int,
              bot_level: str, turn_timer: int = 0) -> TableStart:
    return TableStart(key.public, name, players, side, setup, bots, bot_level, int(time.time()),
                      turn_timer)
