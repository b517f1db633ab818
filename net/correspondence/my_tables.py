"""The correspondence tables this player has: where each folder is, its code, my seat key.

Why kept on this machine, outside the shared folder: the code and my seat key are the two
secrets of my seat. The folder holds neither (the seat key never leaves this machine; the
code is in no file of the folder, only derived keys are used there). Each table has a
directory of its own under the user's data directory (`SHOGUN_HOME/data` in tests, as
`client.core.settings.data_dir`): `table.msgpack` (mode 0600: the folder's path, the code,
my key's seed, my name, whether I host) and `local/`, my own unsynced copy of every record
I accepted (`FolderLink(local=...)`).

Tests: tests/net/correspondence/test_table_door.py.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import msgpack

from net.correspondence.table_start import CodeError, TableCode
from net.trust.seat_keys import SeatKey

ENTRY = "table.msgpack"


def tables_home() -> Path:
    home = os.environ.get("SHOGUN_HOME")
    if home:
        return Path(home).expanduser() / "data" / "correspondence"
    from platformdirs import user_data_dir
    return Path(user_data_dir("shogun", appauthor=False)) / "correspondence"


@dataclass(frozen=True)
class MyTable:
    folder: Path
    code: TableCode
    seed: bytes
    name: str
    host: bool

    @property
    def key(self) -> SeatKey:
        return SeatKey(self.seed)

    @property
    def home(self) -> Path:
        return tables_home() / self.code.table.hex()

    @property
    def local(self) -> Path:
        return self.home / "local"


def remember(table: MyTable) -> None:
    """Keep `table` on this machine (written beside, then renamed: whole or not at all)."""
    table.home.mkdir(parents=True, exist_ok=True)
    data = msgpack.packb({"folder": str(table.folder), "code": table.code.raw,
                          "seed": table.seed, "name": table.name, "host": table.host},
                         use_bin_type=True)
    temp = table.home / f".{ENTRY}.tmp-{os.getpid()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, table.home / ENTRY)


def _load(path: Path) -> MyTable:
    raw = msgpack.unpackb(path.read_bytes(), raw=False)
    if not isinstance(raw, dict):
        raise ValueError("not a table entry")
    code, seed = raw.get("code"), raw.get("seed")
    if not isinstance(code, bytes) or len(code) != 32 or not isinstance(seed, bytes) \
            or len(seed) != 32:
        raise ValueError("not a table entry")
    return MyTable(Path(str(raw.get("folder", ""))), TableCode(code), seed,
                   str(raw.get("name", ""))[:40], bool(raw.get("host")))


def my_tables() -> tuple[list[MyTable], list[str]]:
    """Every table kept here (oldest first), and a sentence for each entry not read."""
    home = tables_home()
    if not home.is_dir():
        return [], []
    found: list[tuple[float, MyTable]] = []
    problems: list[str] = []
    for sub in sorted(home.iterdir()):
        path = sub / ENTRY
        if not path.is_file():
            continue
        try:
            found.append((path.stat().st_mtime, _load(path)))
        except (OSError, ValueError, CodeError, msgpack.ExtraData) as e:
            problems.append(f"{path} could not be read ({e})")
    return [t for _, t in sorted(found, key=lambda f: f[0])], problems


def find(table: bytes) -> MyTable | None:
    path = tables_home() / table.hex() / ENTRY
    try:
        return _load(path) if path.is_file() else None
    except (OSError, ValueError, msgpack.ExtraData):
        return None
