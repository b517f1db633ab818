"""Opening a correspondence table on this machine, or joining one: the door's steps and the
entry kept here (`my_tables`), said once for `./shogun host/join --folder` and the window.

Why one place: the host opens the table, keeps its entry and its own copy of the start
record (so a changed start in the folder is put back); a friend claims a seat with the
code and keeps the entry. The terminal and the window do exactly this; neither says it.

Tests: tests/cli/test_correspondence.py, tests/client/scenes/test_correspondence_window.py.
"""

from __future__ import annotations

from pathlib import Path

from net.correspondence import my_tables
from net.correspondence.my_tables import MyTable
from net.correspondence.table_door import claim_seat, keep_copy, new_start, open_table
from net.correspondence.table_start import START_FILE, TableCode, TableStart
from net.trust.seat_keys import SeatKey


def host_new(folder: Path, name: str, players: int, side: str, setup: str, bots: int,
             bot_level: str, key: SeatKey | None = None, turn_timer: int = 0) -> MyTable:
    """Open a table in `folder` with my seat key (a new one by default), and keep it here
    (DoorError, OSError)."""
    key = key or SeatKey(None)
    code = open_table(folder, key, new_start(key, name, players, side, setup, bots, bot_level,
                                               turn_timer))
    entry = MyTable(folder, code, key.seed, name, True)
    my_tables.remember(entry)
    keep_copy(folder, entry.home, START_FILE)        # the host's copy of its start
    return entry


def join_new(folder: Path, code: TableCode, name: str,
             key: SeatKey | None = None) -> tuple[MyTable, TableStart]:
    """Claim a seat at the table of `code` in `folder` with my seat key (a new one by
    default), and keep it here (DoorError, OSError)."""
    key = key or SeatKey(None)
    start = claim_seat(folder, code, key, name)
    entry = MyTable(folder, code, key.seed, name, False)
    my_tables.remember(entry)
    return entry, start
