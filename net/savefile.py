"""A player's local save, its command log, and desync reports.

Why a save: a peer killed mid-game must be able to rejoin as the same seat and say
exactly what it already said (its plan and nonce, its last command) and keep revealing
its beacon chain. The save holds those secrets; the command log beside it is a record
(a rejoin catches up from the other players).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import msgpack

SAVE_VERSION = 1
_KEYS = ("start", "seat", "peer", "name", "code", "secret", "token", "plans", "addresses")


class SaveError(ValueError):
    """A save that cannot be used; the text says why."""


def default_save_path(name: str) -> str:
    """Where a player's save goes without --save: the user data dir (platformdirs)."""
    try:
        from platformdirs import user_data_dir
        base = Path(user_data_dir("shogun", appauthor=False)) / "net"
    except Exception:
        base = Path.home() / ".shogun" / "net"
    return str(base / f"{name}-{os.getpid()}.save")


def write_save(path: str, save: dict[str, Any]) -> None:
    """Atomically: a crash leaves the old save or the new one, never half of one."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".tmp")
    with open(tmp, "wb") as f:
        f.write(msgpack.packb({"version": SAVE_VERSION, **save}, use_bin_type=True))
        f.flush()
    os.replace(tmp, target)


def read_save(path: str) -> dict[str, Any]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SaveError(f"cannot read the save {path}: {exc.strerror}") from None
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

    def __init__(self, path: str, earlier: list[dict]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "wb")
        for entry in earlier:
            self._file.write(msgpack.packb(entry, use_bin_type=True))

    def append(self, entry: dict) -> None:
        self._file.write(msgpack.packb(entry, use_bin_type=True))
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_command_log(path: str) -> list[dict]:
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
