"""Which names in a correspondence folder are a seat's file, a copy of one, or nothing of ours.

Why by name first: a sync tool that cannot tell which of two versions of a file wins keeps
both, naming the loser after the file (Syncthing `seat-2.sync-conflict-20261129-101500-
ABCDEFG.shogun`, Dropbox `seat-2 (Ann's conflicted copy 2026-11-29).shogun`, Nextcloud
`seat-2 (conflicted copy 2026-11-29 101500).shogun`, Google Drive or a file manager
`seat-2 (1).shogun`, OneDrive `seat-2-LAPTOP.shogun`). With one writer per file that
should not happen, but when it does a copy may hold a record the seat's own file lacks,
so a copy is read too (its records prove themselves: `net.correspondence.seat_trust`),
never taken for the file. Everything else — a sync tool's temporary file, a note a player
left, a hostile name — is not opened at all. A name is never joined with anything from
inside the folder but the folder's own path (`net.correspondence.folder_io`).

Tests: tests/net/correspondence/test_folder_names.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

SUFFIX = ".shogun"
MAX_SEATS = 10                 # seat numbers 0-9 (a table has at most 5)

_SEAT = re.compile(r"seat-([0-9])\.shogun")
# a copy: the seat's stem, something that is not a digit, anything, the suffix
_COPY = re.compile(r"seat-([0-9])(?![0-9])(.{1,120})\.shogun")
_TOOLS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Syncthing", re.compile(r"^\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}$")),
    ("Dropbox", re.compile(r"^ \(.*'s conflicted copy( \d{4}-\d{2}-\d{2})?\)( \(\d+\))?$")),
    ("Nextcloud", re.compile(r"^ \(conflicted copy .*\)$")),
    ("a duplicate", re.compile(r"^ ?\(\d+\)$| - Copy( \(\d+\))?$| copy( \d+)?$")),
)


class NameKind(StrEnum):
    SEAT = "seat"             # seat-<n>.shogun: the seat's own file
    COPY = "copy"             # a sync tool's conflict copy or a duplicate of a seat's file
    OTHER = "other"           # not opened


@dataclass(frozen=True)
class FolderName:
    name: str
    kind: NameKind
    seat: int | None = None
    maker: str = ""           # for a copy: which sync tool's naming it follows, if known


def seat_file_name(seat: int) -> str:
    if not 0 <= seat < MAX_SEATS:
        raise IndexError(f"seat {seat} out of range")
    return f"seat-{seat}{SUFFIX}"


def classify(name: str) -> FolderName:
    """What `name` (one entry of the folder, as listed) is to a reader."""
    if "/" in name or "\0" in name or name.startswith("."):
        return FolderName(name, NameKind.OTHER)        # temporary and hidden files too
    match = _SEAT.fullmatch(name)
    if match is not None:
        return FolderName(name, NameKind.SEAT, int(match.group(1)))
    match = _COPY.fullmatch(name)
    if match is None:
        return FolderName(name, NameKind.OTHER)
    middle = match.group(2)
    if middle.endswith(".tmp") or ".syncthing." in middle or middle.startswith("~"):
        return FolderName(name, NameKind.OTHER)
    maker = next((tool for tool, pattern in _TOOLS if pattern.search(middle)), "")
    return FolderName(name, NameKind.COPY, int(match.group(1)), maker)
