"""A correspondence table of the real rules (`sim`), for the correspondence tests and the
reopening benchmark: human seats answered by a scripted player (a seeded bot's choice,
handed to the lockstep as a person's input is: `FolderLink`'s chooser), bot seats played
by the lockstep itself as at a live table (`Lockstep.kinds`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from net.correspondence.folder_link import Chooser, FolderLink, FolderTable
from net.lockstep.engine import EngineState, PendingDecision, SimEngine
from net.trust.seat_keys import SeatKey

TABLE = b"R" * 16
SECRET = b"r" * 32


def keys(humans: tuple[int, ...]) -> dict[int, SeatKey]:
    return {s: SeatKey(bytes([s + 60]) * 32) for s in humans}


def real_table(folder: Path, engine: SimEngine, players: int = 4,
               humans: tuple[int, ...] = (0, 1, 2)) -> FolderTable:
    return FolderTable(folder, TABLE, SECRET, {s: k.public for s, k in keys(humans).items()},
                       {s: "human" if s in humans else "bot" for s in range(players)},
                       engine.config(players, "sun", "beginner"))


def scripted(engine: SimEngine, seed: int = 0, level: str = "easy") -> Chooser:
    """A scripted player: a fixed, seeded policy (the bot `level`'s choice, seeded by the
    seat, the state it answers in and `seed`: the same answer again after a kill),
    answering only what its seat is asked."""
    def choose(state: EngineState, decision: PendingDecision, seat: int) -> object:
        return engine.choose(state, seat, level, hashlib.sha256(
            f"scripted/{seed}/{seat}/{engine.state_hash(state)}".encode()).digest())
    return choose


def session(table: FolderTable, engine: SimEngine, seat: int, local: Path,
            saves: bool = True, seed: int = 0) -> FolderLink:
    humans = tuple(sorted(table.keys))
    link = FolderLink(table, seat, keys(humans)[seat], engine, scripted(engine, seed),
                      local=local / f"player-{seat}", saves=saves)
    link.session()
    return link
