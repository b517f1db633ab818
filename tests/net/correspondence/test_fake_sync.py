"""A fake file sync between three players' folders, and an attacker among them (hypothesis).

Each player has a folder of its own (a directory), a `SeatWriter` for its seat and a
`FolderReader` for every seat. The fake sync copies a seat's file from one folder to
another in any order, late, cut at any byte (a partly synced or partly written file),
brings back old versions, and leaves conflict copies and duplicates. In attack runs
seat 2 also edits, truncates, removes, replays, reorders and forges the other seats'
files in its own folder (the sync spreads them), and signs two different records for one
number of its own. After every read, and at the end:

- an honest seat's accepted records are always a prefix of what it wrote, and a reader
  never takes back what it accepted;
- without an attacker nothing is named: only torn tails, copies and rolled-back files are
  said;
- a reader that had accepted a record and then reads a file where it is changed or gone
  names that file at once;
- at the end, once each writer's file has reached every folder, every reader holds every
  honest seat's every record (nothing lost), and for seat 2 the readers agree on one
  prefix or every reader holds seat 2's proof.
"""

from __future__ import annotations

import os
import tempfile
from unittest import mock
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from net.correspondence import folder_io
from net.correspondence.folder_io import SeatWriter
from net.correspondence.folder_names import seat_file_name
from net.correspondence.folder_reader import FolderReader
from net.correspondence.seat_record import SeatRecord, parse_file
from net.correspondence.seat_trust import Finding, FindingKind as K
from net.trust.seat_keys import SeatKey
from tests.net.correspondence.seat_writers import TABLE, Writer

SEATS = (0, 1, 2)
ATTACKER = 2
HONEST_KINDS = {K.TORN, K.COPY, K.ROLLED_BACK}
COPY_NAMES = ("seat-{}.sync-conflict-20261129-101500-ABCDEFG.shogun",
              "seat-{} (Ann's conflicted copy 2026-11-29).shogun",
              "seat-{} (conflicted copy 2026-11-29 101500).shogun", "seat-{} (1).shogun")

seat = st.sampled_from(SEATS)
victim = st.sampled_from([s for s in SEATS if s != ATTACKER])
frac = st.floats(min_value=0.0, max_value=1.0)
honest_ops = st.one_of(
    st.tuples(st.just("write"), seat),
    st.tuples(st.just("sync"), seat, seat, seat, st.none() | frac),
    st.tuples(st.just("stale"), seat, seat, frac, st.none() | frac),
    st.tuples(st.just("conflict"), seat, seat, frac, st.integers(0, len(COPY_NAMES) - 1)),
    st.tuples(st.just("read"), seat),
)
attack_ops = st.one_of(
    st.tuples(st.just("edit"), victim, frac, st.integers(1, 255)),
    st.tuples(st.just("truncate"), victim, frac),
    st.tuples(st.just("remove"), victim),
    st.tuples(st.just("replay"), victim, frac),
    st.tuples(st.just("swap"), victim, frac, frac),
    st.tuples(st.just("forge"), victim),
    st.tuples(st.just("equivocate"),),
)


@dataclass
class World:
    root: Path
    writers: dict[int, Writer] = field(default_factory=dict)
    readers: dict[int, FolderReader] = field(default_factory=dict)
    history: dict[int, list[bytes]] = field(default_factory=dict)   # every version of a seat's file
    said: dict[int, list[Finding]] = field(default_factory=dict)
    attacked: bool = False
    forked: bool = False

    @classmethod
    def make(cls, root: Path) -> World:
        w = cls(root)
        for s in SEATS:
            w.writers[s] = Writer(seat=s, key=SeatKey(bytes([s + 1]) * 32))
            w.folder(s).mkdir()
            w.history[s] = [b""]
            w.said[s] = []
        keys = {s: w.writers[s].public for s in SEATS}
        for s in SEATS:
            w.readers[s] = FolderReader(w.folder(s), TABLE, dict(keys))
        return w

    def folder(self, s: int) -> Path:
        return self.root / f"player-{s}"

    def file(self, where: int, s: int) -> Path:
        return self.folder(where) / seat_file_name(s)

    def content(self, where: int, s: int) -> bytes | None:
        path = self.file(where, s)
        return path.read_bytes() if path.exists() else None

    def put(self, where: int, s: int, data: bytes, name: str | None = None) -> None:
        (self.folder(where) / (name or seat_file_name(s))).write_bytes(data)

    # ------------------------------------------------------------------ what players do
    def write(self, s: int) -> None:
        writer = self.writers[s]
        seat_writer = SeatWriter(self.folder(s), s, tuple(writer.records))  # as a program starts
        seat_writer.append(writer.write(b"seat %d move %d" % (s, len(writer.records))))
        self.history[s].append(writer.file())

    def read(self, r: int) -> None:
        reader = self.readers[r]
        before = {s: reader.accepted.get(s, ()) for s in SEATS}
        files = {s: self.content(r, s) for s in SEATS}
        copies = {s: [p.read_bytes() for p in self.folder(r).glob(f"seat-{s}?*.shogun")]
                  for s in SEATS}
        reading = reader.poll()
        self.said[r].extend(reading.findings)
        for s in SEATS:
            now = reader.accepted.get(s, ())
            assert now[:len(before[s])] == before[s], "a reader took back what it accepted"
            if s != ATTACKER or not self.forked:
                true = tuple(self.writers[s].records)
                assert now == true[:len(now)], f"seat {s}: accepted records it never wrote"
            else:
                assert [r.seq for r in now] == list(range(len(now)))
                assert all(r.signed_by(self.writers[s].public) for r in now)
            # a record accepted before, now changed in the seat's file, or gone from it
            # and from every copy: named at once
            data = files[s]
            had = b"".join(x.raw for x in before[s])
            gone = data is None and not any(c.startswith(had) for c in copies[s])
            if before[s] and (gone or data is not None and not data.startswith(had)):
                assert any(f.seat == s and f.names_someone for f in self.said[r]), \
                    f"reader {r} read a changed file of seat {s} and named nothing"
        if not self.attacked:
            assert {f.kind for f in self.said[r]} <= HONEST_KINDS, self.said[r]
            assert not reader.proofs

    # ------------------------------------------------------------------ the fake sync
    def sync(self, src: int, dst: int, s: int, cut: float | None) -> None:
        data = self.content(src, s)
        if src == dst:
            return
        if data is None:
            if self.file(dst, s).exists() and self.attacked:
                self.file(dst, s).unlink()              # a removal spreads like a change
            return
        self.put(dst, s, data if cut is None else data[:int(len(data) * cut)])

    def version(self, s: int, which: float) -> bytes:
        versions = self.history[s]
        return versions[min(int(which * len(versions)), len(versions) - 1)]

    # ------------------------------------------------------------------ the attacker
    def attack(self, op: tuple) -> None:
        self.attacked = True
        kind, *args = op
        if kind == "equivocate":
            mine = self.writers[ATTACKER]
            if not mine.records:
                return
            mine.records.pop()
            mine.write(b"another move")                 # a second record for one number
            self.forked = True
            self.put(ATTACKER, ATTACKER, mine.file())
            self.history[ATTACKER].append(mine.file())
            return
        v = args[0]
        data = self.content(ATTACKER, v)
        if data is None:
            return
        records = list(parse_file(data).records)
        if kind == "edit" and data:
            at = min(int(args[1] * len(data)), len(data) - 1)
            data = data[:at] + bytes([data[at] ^ args[2]]) + data[at + 1:]
        elif kind == "truncate":
            data = data[:int(args[1] * len(data))]
        elif kind == "remove":
            self.file(ATTACKER, v).unlink()
            return
        elif kind == "replay" and records:
            data += records[min(int(args[1] * len(records)), len(records) - 1)].raw
        elif kind == "swap" and len(records) > 1:
            i, j = (min(int(x * len(records)), len(records) - 1) for x in args[1:3])
            records[i], records[j] = records[j], records[i]
            data = b"".join(r.raw for r in records)
        elif kind == "forge":
            fake = Writer(seat=v, key=self.writers[ATTACKER].key, records=records)
            data += fake.next_record(b"a move seat %d never made" % v).raw
        self.put(ATTACKER, v, data)
        self.read(ATTACKER)          # the attacker's folder is read by the honest reader too

    def run(self, op: tuple) -> None:
        kind = op[0]
        if kind == "write":
            self.write(op[1])
        elif kind == "read":
            self.read(op[1])
        elif kind == "sync":
            self.sync(*op[1:])
        elif kind == "stale":
            _, dst, s, which, cut = op
            data = self.version(s, which)
            self.put(dst, s, data if cut is None else data[:int(len(data) * cut)])
        elif kind == "conflict":
            _, dst, s, which, style = op
            self.put(dst, s, self.version(s, which), COPY_NAMES[style].format(s))
        else:
            self.attack(op)

    def finish(self) -> None:
        """Every program starts once more (a writer puts its file back), seat 2's every
        version reaches every folder, then every writer's file; every reader reads."""
        for s in SEATS:
            if s != ATTACKER or not self.forked:
                SeatWriter(self.folder(s), s, tuple(self.writers[s].records))
        for r in SEATS:
            if r == ATTACKER:
                continue
            for version in self.history[ATTACKER] + [self.content(ATTACKER, ATTACKER) or b""]:
                self.put(r, ATTACKER, version)
                self.read(r)
        for s in SEATS:
            for r in SEATS:
                self.sync(s, r, s, None)
        for r in SEATS:
            self.read(r)
        honest_readers = [r for r in SEATS if r != ATTACKER]
        for r in SEATS:
            for s in SEATS:
                if s != ATTACKER or not self.forked:
                    assert self.readers[r].accepted.get(s, ()) == tuple(self.writers[s].records), \
                        f"reader {r} lost records of seat {s}"
        if self.forked:
            logs = [self.readers[r].accepted.get(ATTACKER, ()) for r in honest_readers]
            agreed = all(a[:len(b)] == b or b[:len(a)] == a for a in logs for b in logs)
            proved = all(ATTACKER in self.readers[r].proofs for r in honest_readers)
            assert agreed or proved
            assert proved, "seat 2 signed two records for one number and was not proved"


WARM_UP = [op for s in SEATS for op in (("write", s), ("write", s))] + \
    [("sync", s, r, s, None) for s in SEATS for r in SEATS] + [("read", r) for r in SEATS]


def play(ops: list[tuple], warm_up: bool = False) -> None:
    # durability is test_folder_io's (a writer killed mid-write); here fsync only costs time
    with tempfile.TemporaryDirectory() as root, mock.patch.object(folder_io.os, "fsync"):
        world = World.make(Path(root))
        for op in WARM_UP if warm_up else ():
            world.run(op)
        for op in ops:
            world.run(op)
        world.finish()


EXAMPLES = int(os.environ.get("FOLDER_SYNC_EXAMPLES", "40"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(honest_ops, max_size=40))
def test_an_honest_sync_in_any_order_loses_nothing_and_names_nobody(ops):
    play(ops)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(honest_ops, attack_ops, attack_ops), max_size=40))
def test_an_attacker_changing_files_gains_nothing_and_is_named(ops):
    play(ops, warm_up=True)


def test_an_edited_record_that_was_read_is_named_and_the_game_keeps_it():
    """One run spelled out: seat 0 writes twice, everyone reads, seat 2 edits seat 0's
    first record in its folder, the sync spreads it, seat 1 reads."""
    play([("write", 0), ("write", 0), ("sync", 0, 1, 0, None), ("sync", 0, 2, 0, None),
          ("read", 1), ("edit", 0, 0.3, 7), ("sync", 2, 1, 0, None), ("read", 1)])


def test_a_seat_signing_two_records_for_one_number_is_proved_by_every_reader():
    play([("write", 2), ("write", 2), ("sync", 2, 0, 2, None), ("read", 0),
          ("equivocate",), ("write", 2), ("sync", 2, 1, 2, None), ("read", 1)])
