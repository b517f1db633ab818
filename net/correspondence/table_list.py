"""Visiting one of my correspondence tables: pass its door, play on, say whose move it is.

Why one visit for the list and for play: a table waits for someone, and only the game can
say for whom; and opening the program is when it plays on (bots, revealed plans, my
own choices when a script or a bot makes them). So `visit` reads the start record (and,
for the host, seals the seating when every seat is claimed), then runs one
`FolderLink.session` (which writes what is mine) and returns a typed `TableStatus`: the
stage, whose decision is awaited, and since when (the newest change of any seat's file,
as the folder's times say). The sentences are the caller's (`cli.correspondence`, the
window), in the player's language.

Tests: tests/net/correspondence/test_table_door.py; real processes in
tests/net/correspondence/test_door_processes.py.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from net.correspondence import folder_io
from net.correspondence.folder_link import Chooser, FolderLink
from net.correspondence.folder_names import NameKind, classify
from net.correspondence.my_tables import MyTable
from net.correspondence.table_door import (folder_table, host_round, put_back,
                                           read_seating, read_start)
from net.correspondence.table_start import START_FILE, SeatingKind
from net.lockstep.engine import EngineConfig, GameEngine


class TableEngine(GameEngine, Protocol):
    def config(self, players: int, side: str, setup: str) -> EngineConfig: ...


class Stage(StrEnum):
    BROKEN = "broken"            # the start record does not pass (`problem`)
    SEATING = "seating"          # claims awaited, or the host's seating
    REFUSED = "refused"          # the seating does not pass, or has no seat for me
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class TableStatus:
    table: MyTable
    stage: Stage
    host_name: str = ""
    players: int = 0
    problem: str = ""                     # net's sentence, for BROKEN and REFUSED
    missing: int = 0                      # SEATING, for the host: seats still unclaimed
    my_seat: int | None = None
    mine: bool = False                    # PLAYING: my decision is awaited
    awaited: tuple[str, ...] = ()         # PLAYING: the other players awaited, by name
    plan: bool = False                    # the awaited decision is a plan
    since: float = 0.0                    # seconds since the epoch
    refused: tuple[str, ...] = ()         # the host's: claims refused in this visit
    left: int = 0                         # the host's: claims beyond the seats
    named: tuple[str, ...] = ()           # findings of the folder that name someone
    hash: str | None = None               # OVER: the final state hash
    overdue: tuple[str, ...] = ()         # PLAYING: awaited players whose turn timer ran
                                          # out on my clock (I may hand them to a bot)
    overdue_seats: tuple[int, ...] = ()   # their seats, in the same order
    handed: tuple[str, ...] = ()          # players the table handed to a bot
    hand_over: str | None = None          # `visit(hand=...)`: "" written, else why not
    hand_needed: int = 0                  # written: more players who must agree (0: handed)
    seat_names: tuple[str, ...] = ()      # PLAYING: the players' names, by seat


def _newest(folder: Path) -> float:
    newest = 0.0
    for name in folder_io.list_folder(folder).names:
        if classify(name).kind is NameKind.SEAT or name == START_FILE:
            try:
                newest = max(newest, os.stat(folder / name, follow_symlinks=False).st_mtime)
            except OSError:
                continue
    return newest


@dataclass
class OpenTable:
    """A table playing in a window: its link (kept open between readings of the folder)
    and what `status` needs to say where it stands after each reading."""
    link: FolderLink
    base: TableStatus
    names: dict[int, str]
    hold: int = -1                         # my hold on the table (`_hold`), until `release`

    def release(self) -> None:
        if self.hold >= 0:
            os.close(self.hold)
            self.hold = -1

    def status(self, over: bool, claimed: str | None = None, needed: int = 0) -> TableStatus:
        """Where the table stands after a `link.session()` that returned `over`
        (`claimed`: what `FolderLink.hand_over` said, when a hand-over was asked)."""
        link, seat, names = self.link, self.link.seat, self.names
        base = replace(self.base, since=_newest(link.table.folder),
                       named=tuple(f.sentence for f in link.findings if f.names_someone)
                       + tuple(reason for _, reason in link.offences)
                       + tuple(why for _, why in link.proofs),
                       handed=tuple(names[s] for s in sorted(link.handed)), hand_over=claimed,
                       hand_needed=needed)
        ls = link.lockstep
        if over and ls is not None:
            return replace(base, stage=Stage.OVER, hash=ls.hash)
        if ls is None:                         # chains' ends still awaited
            return replace(base, awaited=tuple(names[s] for s in link.table.keys
                                               if s not in link.chain_ends))
        waiting = ls.waiting_for()             # whose own input is missing (net.lockstep.blame)
        overdue = link.overdue(time.time())
        return replace(base, mine=seat in waiting, plan=ls.decision().kind == "plan",
                       awaited=tuple(names[s] for s in waiting if s != seat),
                       overdue=tuple(names[s] for s in overdue), overdue_seats=overdue)


def visit(table: MyTable, engine: TableEngine, choose: Chooser | None = None,
          hand: int | None = None) -> TableStatus:
    """Pass the door of `table`, play on as far as the folder allows, say where it is.
    The host first puts its start record back if the folder's is not the one it wrote.
    `hand`: a seat whose decision waited past the turn timer: write my claim that a bot
    plays it (`FolderLink.hand_over`; `hand_over` in the status says whether it was)."""
    status, opened = open_link(table, engine, choose, hand=hand)
    if opened is not None:
        opened.release()
    return status


HELD = "open.lock"
BUSY = ("this table is open in another window or command of this program on this machine "
        "(close it first)")


def _hold(table: MyTable) -> int | None:
    """This machine's hold on my seat at `table`: an advisory lock in its home, kept while a
    link of mine plays it (two programs of mine at once would both write my seat file and
    fork it, and the others would expel me by proof). None: another program holds it; -1:
    a system without such locks."""
    try:
        import fcntl
    except ImportError:                    # pragma: no cover (not on Linux or macOS)
        return -1
    table.home.mkdir(parents=True, exist_ok=True)
    fd = os.open(table.home / HELD, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def open_link(table: MyTable, engine: TableEngine, choose: Chooser | None = None,
              make: type[FolderLink] = FolderLink, hand: int | None = None
              ) -> tuple[TableStatus, OpenTable | None]:
    """`visit`, keeping the link (and my hold on the table) when the game is playing: the
    window plays on with it (`make`: a `FolderLink` of the window's that shows the game's
    events) and releases it when closed."""
    if not table.folder.is_dir():
        return TableStatus(table, Stage.BROKEN, problem="the shared folder is not there (is "
                           "it on a drive that is not connected, or was it moved?)"), None
    hold = _hold(table)
    if hold is None:
        return TableStatus(table, Stage.BROKEN, problem=BUSY), None
    opened: OpenTable | None = None
    try:
        status, opened = _visit(table, engine, choose, make, hand)
    except OSError as e:
        status = TableStatus(table, Stage.BROKEN, problem=f"the shared folder could not be "
                             f"read or written ({e.strerror or e})")
    if opened is None:
        if hold >= 0:
            os.close(hold)
        return status, None
    opened.hold = hold
    return status, opened


def _visit(table: MyTable, engine: TableEngine, choose: Chooser | None,
           make: type[FolderLink], hand: int | None) -> tuple[TableStatus, OpenTable | None]:
    said = put_back(table.folder, table.home, START_FILE) if table.host else ""
    start_v = read_start(table.folder, table.code)
    if start_v.start is None:
        return TableStatus(table, Stage.BROKEN, problem=start_v.sentence), None
    start = start_v.start
    base = TableStatus(table, Stage.SEATING, host_name=start.host_name, players=start.players,
                       refused=(said,) if said else ())
    key = table.key
    if table.host:
        done = host_round(table.folder, table.code, key, start, table.home)
        seating = done.seating
        assert seating is not None
        base = replace(base, refused=base.refused + tuple(done.refused), left=len(done.left),
                       missing=max(0, start.humans - 1 - len(done.accepted)))
    else:
        seating = read_seating(table.folder, table.code, start, key.public)
    if seating.kind is SeatingKind.NOT_SEALED:
        return replace(base, since=_newest(table.folder)), None
    if seating.kind is SeatingKind.REFUSED or seating.seating is None or seating.my_seat is None:
        return replace(base, stage=Stage.REFUSED, problem=seating.sentence), None
    names = {e.seat: e.name for e in seating.seating.seats}
    config = engine.config(start.players, start.side, start.setup)
    link = make(folder_table(table.folder, table.code, start, seating, config),
                seating.my_seat, key, engine, choose, bot=start.bot_level, local=table.local)
    over = link.session()
    claimed: str | None = None
    needed = 0
    if hand is not None:
        step = link.lockstep.step if link.lockstep is not None else 0
        claimed = link.hand_over(hand, time.time())
        over = link.lockstep is not None and link.lockstep.ended
        if claimed == "":
            needed = link.hands.still_needed(hand, step, link.expelled)
    opened = OpenTable(link, replace(
        base, stage=Stage.PLAYING, my_seat=seating.my_seat,
        seat_names=tuple(names.get(s, "") for s in range(max(names) + 1))), names)
    return opened.status(over, claimed, needed), opened
