"""Reading a correspondence folder again and again: each seat's accepted records, and news.

Why a reader that remembers: a file can be changed, cut or removed after it was read, and
what was accepted must stay accepted (nothing lost, nothing taken back). So `FolderReader`
keeps every seat's accepted records (`accepted`) and, at every `poll`, hands each seat's
files to the pure trust decision (`net.correspondence.seat_trust.judge`) with them. What it
finds is reported once (a torn tail that is still torn at the next poll is not said
again); a name that is no seat's file nor a copy of one is never opened and is counted.
A seat that signed two records for one number is proved (`proofs`) and nothing more of it
is accepted.

Tests: tests/net/correspondence/test_fake_sync.py, tests/net/correspondence/test_folder_io.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from net.correspondence import folder_io
from net.correspondence.folder_names import NameKind, classify, seat_file_name
from net.correspondence.seat_record import SeatRecord, parse_file
from net.correspondence.seat_trust import (MAX_COPIES, Finding, FindingKind, Proof,
                                           SeatContext, SeatCopy, judge)
from net.trust.peer_text import shown


@dataclass(frozen=True)
class Reading:
    """What one poll brought: each seat's new records, what was found, what was skipped."""
    new: dict[int, tuple[SeatRecord, ...]]
    findings: tuple[Finding, ...]
    skipped: tuple[str, ...] = ()         # names not opened (shown text), said once each
    more_names: bool = False


@dataclass
class FolderReader:
    folder: Path
    table: bytes
    keys: dict[int, bytes]                 # seat -> pinned public key
    accepted: dict[int, tuple[SeatRecord, ...]] = field(default_factory=dict)
    proofs: dict[int, Proof] = field(default_factory=dict)
    _said: set[tuple[str, int, str, int | None]] = field(default_factory=set)
    _skipped: set[str] = field(default_factory=set)

    def poll(self) -> Reading:
        listing = folder_io.list_folder(self.folder)
        per_seat: dict[int, list[str]] = {seat: [] for seat in self.keys}
        skipped: list[str] = []
        for name in listing.names:
            what = classify(name)
            if what.kind is NameKind.COPY and what.seat in per_seat:
                per_seat[what.seat].append(name)
            elif what.kind is NameKind.OTHER or what.seat not in per_seat:
                if name not in self._skipped and not name.startswith("."):
                    self._skipped.add(name)
                    skipped.append(shown(name))
        new: dict[int, tuple[SeatRecord, ...]] = {}
        findings: list[Finding] = []
        for seat in sorted(self.keys):
            known = self.accepted.get(seat, ())
            copies = [self._copy(seat_file_name(seat), True, seat, findings)]
            copies += [self._copy(name, False, seat, findings)
                       for name in per_seat[seat][:MAX_COPIES - 1]]
            verdict = judge(SeatContext(self.table, seat, self.keys[seat]), known,
                            tuple(c for c in copies if c is not None))
            findings.extend(verdict.findings)
            if seat in self.proofs:
                continue                     # proved: nothing more of it counts
            if verdict.proof is not None:
                self.proofs[seat] = verdict.proof
            if len(verdict.accepted) > len(known):
                self.accepted[seat] = verdict.accepted
                new[seat] = verdict.new_since(len(known))
        return Reading(new, tuple(self._once(findings)), tuple(skipped), listing.more)

    def _copy(self, name: str, own: bool, seat: int, findings: list[Finding]) -> SeatCopy | None:
        read = folder_io.read_file(self.folder, name)
        if read.missing:
            return SeatCopy(name, own, None) if own else None
        if read.refused:
            findings.append(Finding(FindingKind.FORGED, seat, shown(name), None,
                                    f"{shown(name)} is {read.refused}: not read"))
            return None
        if read.cut:
            findings.append(Finding(FindingKind.CHANGED, seat, shown(name), None,
                                    f"{shown(name)} is larger than {folder_io.MAX_FILE >> 20} "
                                    "MiB: read up to there"))
        return SeatCopy(shown(name), own, parse_file(read.data))

    def _once(self, findings: list[Finding]) -> list[Finding]:
        out = []
        for f in findings:
            key = (f.kind.value, f.seat, f.file, f.record)
            if key not in self._said:
                self._said.add(key)
                out.append(f)
        return out
