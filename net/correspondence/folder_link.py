"""A lockstep played through a correspondence folder: the folder as the lockstep's host.

Why the lockstep's own seam: `net.lockstep.core.Lockstep` takes its way out as a
`LockstepHost` and its way in as `receive(seat, msg)`, and knows nothing of sockets. So
`FolderLink` is that host: what the lockstep broadcasts is kept and written as one record
of my seat's file when the lockstep stops for input (`flush`); what the other seats'
files bring is checked (`net.transport.messages.check`) and handed to `receive` in file
order, each message once its step is at most the lockstep's step (`pump`). My secrets
(the beacon chain's secret, my plans with their nonces) go to records only my seat can
open, written before the messages that depend on them: the folder is the whole save.

A program that starts builds the lockstep from step 0 again (`session`): my own
messages from my file count as sent (`Lockstep.restore_outbox`, as a resumed live peer
does), my plans and chain come from my own records, and every seat's messages are fed
again; so it reaches the state it had when it last closed, and plays on. Nothing is
written twice: a message already in my file is not written again.

A seat that forked its file (two records it signed for one number) is expelled by proof
(`net.correspondence.fork_proof`): every player that knows the proof (found it, or read
another's) writes it into its own file once; every reader checks it, counts only the
seat's records below the fork (a lockstep that took more is thrown away and replayed from
the first step), and a bot plays the seat from the first step those records do not
complete: the same step for all. Once that step is known, what a player wrote for later
steps before its own proof record no longer counts (it was played on one side of the
fork): the lockstep is replayed once more without it, and my own such moves are said
again after my proof record. Two signed messages a seat may say once, in its unforked file
(the lockstep's `cheated`), expel it by the same rule from the later record
(`net.correspondence.said_twice`), never a move said again after a take-over.

A seat whose decision waited past the table's turn timer is handed to a bot by agreement
(`net.correspondence.seat_handover`, kept in `net.correspondence.hand_book`): each player
writes its claim into its own file (`hand_over`), and once more than half of the human
players claimed, every reader counts the seat's messages for that step and later no more,
and a bot plays it from there (tests/net/correspondence/test_folder_handover.py).

Tests: tests/net/correspondence/test_folder_link.py (three players taking turns, in
memory and as processes; a watcher on a `Clock`),
tests/net/correspondence/test_folder_expulsion.py (a forked file; a false proof).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import msgpack

from net.correspondence import folder_io
from net.correspondence.folder_io import SeatWriter
from net.correspondence.folder_names import seat_file_name
from net.correspondence.folder_reader import FolderReader
from net.correspondence.fork_proof import (counts, judge_proof, proof_payload, read_claim,
                                          said_pair, takes_over)
from net.correspondence.hand_book import HandBook
from net.correspondence.said_book import SaidBook
from net.correspondence.seat_handover import claim_payload, counts_after
from net.correspondence.seat_handover import read_claim as read_hand
from net.correspondence.seat_record import (KIND_HAND, KIND_OWN, KIND_PROOF, KIND_TABLE,
                                            FolderKey,
                                            FolderKeyError, SeatRecord, first_prev,
                                            make_record, parse_file)
from net.correspondence.replay_save import EVERY as SAVE_EVERY
from net.correspondence.replay_save import (SaveError, SaveShelf, recorded_hashes, restore,
                                            take, why_not)
from net.correspondence.seat_trust import Finding, FindingKind, SeatContext, SeatCopy, judge
from net.lockstep import signatures
from net.lockstep.beacon import HashChain
from net.lockstep.core import Lockstep
from net.lockstep.engine import (EngineCommand, EngineConfig, EngineEvent, EngineState,
                                 GameEngine, PendingDecision)
from net.lockstep.step_inbox import Offence, Wire
from net.transport.framing import FrameError, decode_body, encode_body
from net.transport.messages import BadMessage, check
from net.trust.seat_keys import SeatKey

log = logging.getLogger("net.correspondence.folder_link")

# records one session writes at once (its secrets, then its messages): what a kill between
# my own copy and the shared folder can leave out of the folder's file of mine
KILL_GAP = 2
SAVE_PROOF_MAX = (1 << 20) - 4096   # a proof holds two records: it must fit in one
NO_TOKEN = bytes(32)             # a folder has no rejoin: the seat key is the seat
# (state, decision, seat) -> my player's command (a person's choice, or a script's)
Chooser = Callable[[EngineState, PendingDecision, int], EngineCommand]


@dataclass(frozen=True)
class FolderTable:
    """What every player of a correspondence table holds: where, which table, its secret,
    the seats' pinned keys and kinds, and the game's setting."""
    folder: Path
    table: bytes
    secret: bytes
    keys: dict[int, bytes]             # human seat -> public key
    kinds: dict[int, str]              # seat -> "human" | "bot"
    config: EngineConfig
    turn_timer: int = 0                # seconds; 0: none (`net.correspondence.turn_timer`)

    @property
    def start(self) -> bytes:
        return hashlib.sha256(b"shogun-folder-start/" + self.table).digest()


@dataclass
class _Own:
    chain: bytes | None = None
    plans: dict[int, tuple[bytes, Wire]] = field(default_factory=dict)


class FolderLink:
    """One session of my seat at a correspondence table (a `LockstepHost`)."""

    def __init__(self, table: FolderTable, seat: int, key: SeatKey, game: GameEngine,
                 choose: Chooser | None = None, bot: str = "heuristic",
                 local: Path | None = None, saves: bool = True) -> None:
        """`local`: a folder of this player's own, not synced, where every record accepted
        is kept too (so a file changed or removed in the shared folder between two
        sessions takes nothing from me, and my own file is put back from it), and with
        `saves` my saved replays (`net.correspondence.replay_save`): a session starts
        from the newest one the chain confirms instead of from the first step."""
        self.table, self.seat, self.key, self.game = table, seat, key, game
        self.choose, self.bot = choose, bot
        self.sealing = FolderKey.for_table(table.secret)
        self.own_key = FolderKey.for_own(key.seed)
        self.reader = FolderReader(table.folder, table.table, dict(table.keys))
        self.findings: list[Finding] = []
        self.offences: list[tuple[int, str]] = []
        self.proofs: list[tuple[int, str]] = []
        self.expelled: dict[int, int] = {}     # seat -> its records from this number on void
        self.taken: dict[int, int] = {}        # expelled seat -> the step a bot plays it from
        self._proved_at: dict[tuple[int, int], int] = {}   # (writer, accused) -> its record
        self._proofs_due: dict[int, tuple[bytes, bytes]] = {}   # mine to write, by accused
        self.said = SaidBook(table.table, self._messages)     # proofs of two messages
        self._mine: list[tuple[int, Wire]] = []             # my messages, by record number
        self._refused: set[tuple[int, int]] = set()          # (seat, record) said refused
        self.queues: dict[int, deque[Wire]] = {s: deque() for s in table.keys if s != seat}
        self.chain_ends: dict[int, bytes] = {}
        self._outgoing: list[Wire] = []
        self._my_sent: dict[int, list[Wire]] = {}
        self._own = _Own()
        self._own_written: dict[int, tuple[bytes, Wire]] = {}
        self._due: PendingDecision | None = None
        self.ended_state: EngineState | None = None
        self.lockstep: Lockstep | None = None
        self._mirrors: dict[int, SeatWriter] = {}
        self.shelf = SaveShelf(local / "saved") if local is not None and saves else None
        self.restored_from: int | None = None     # the step this session's replay began at
        self._round_start: tuple[int, bytes] | None = None   # for my saves (`replay_save`)
        self._saved: int | None = None            # the step of my last save
        self.passed_over: list[str] = []          # why saved replays were not used
        self.hands = HandBook(seat, table.keys, table.turn_timer, local)
        if local is not None:
            self._load_local(local)
            self._put_back_mine()
        self._read()
        mine = self.reader.accepted.get(seat, ())
        self.writer = SeatWriter(table.folder, seat, mine)
        self._seq = len(mine)
        self._prev = mine[-1].digest if mine else first_prev(table.table, seat)
        for record in mine:
            self._take_mine(record)
        if self.handed:
            self._count_again()      # my moves read before my claims: counted once more

    def _load_local(self, local: Path) -> None:
        local.mkdir(parents=True, exist_ok=True)
        for s in sorted(self.table.keys):
            name = seat_file_name(s)
            read = folder_io.read_file(local, name)
            known: tuple[SeatRecord, ...] = ()
            if read.data:
                known = judge(SeatContext(self.table.table, s, self.table.keys[s]), (),
                              (SeatCopy(name, True, parse_file(read.data)),)).accepted
            self._mirrors[s] = SeatWriter(local, s, known)
            if known:
                self.reader.accepted[s] = known
                if s != self.seat:
                    self._take(s, known)

    def _put_back_mine(self) -> None:
        """A session killed between my own copy and the shared folder left the folder's
        file of mine short (or torn): put it back before anyone reads it, so my own reader
        does not take my own crash for a rolled-back file. Only when the folder's file is
        a prefix of my records (anything else is for the trust decision to judge)."""
        mine = self.reader.accepted.get(self.seat, ())
        read = folder_io.read_file(self.table.folder, seat_file_name(self.seat))
        if not mine or read.refused:
            return
        held = parse_file(read.data).records
        if len(held) < len(mine) and all(a.raw == b.raw for a, b in zip(held, mine)):
            SeatWriter(self.table.folder, self.seat, mine)
            if len(mine) - len(held) > KILL_GAP:       # more than a kill can leave out
                name = seat_file_name(self.seat)
                self.findings.append(Finding(
                    FindingKind.ROLLED_BACK, self.seat, name, len(held),
                    f"{name} holds {len(held)} of the {len(mine)} records read before "
                    "(put back from my own copy)"))

    def _mirror(self, seat: int, records: tuple[SeatRecord, ...]) -> None:
        mirror = self._mirrors.get(seat)
        if mirror is not None:
            for record in records:
                mirror.append(record)

    # ------------------------------------------------------------------ reading
    def _read(self) -> bool:
        reading = self.reader.poll()
        self.findings.extend(reading.findings)
        for f in reading.findings:
            log.warning("%s", f.sentence)
        for s, records in sorted(reading.new.items()):
            self._mirror(s, records)
            if s != self.seat:
                self._take(s, records)
        fresh = [p for s, p in sorted(self.reader.proofs.items()) if s not in self.expelled]
        for proof in fresh:
            self._expel(proof.seat, proof.first.seq,
                        f"seat {proof.seat} signed two different records numbered "
                        f"{proof.first.seq}: it is expelled and a bot plays its seat",
                        (proof.first.raw, proof.second.raw))
        for writer, seq, one, two in self.said.due():
            self._judge_said(writer, seq, one, two)
        return bool(reading.new) or bool(fresh)

    def _judge_proof(self, writer: int, record: SeatRecord) -> None:
        """A proof record in `writer`'s file: checked here; it expels, or names its writer."""
        try:
            payload = self.sealing.open(record.sealed)
        except FolderKeyError as e:
            self.offences.append((writer, f"record {record.seq}: {e}"))
            return
        claim = read_claim(writer, payload)
        said = said_pair(self.table.table, self.table.keys, claim)
        if said is not None:
            self._judge_said(writer, record.seq, *said)
            return
        verdict = judge_proof(self.table.table, self.table.keys, claim)
        if verdict.accused is None:
            self.offences.append((writer, verdict.sentence))
            log.warning("%s", verdict.sentence)
            return
        self._proved_at.setdefault((writer, verdict.accused), record.seq)
        self._expel(verdict.accused, verdict.from_seq, verdict.sentence,
                    (claim.first, claim.second))

    def _judge_said(self, writer: int, seq: int, one: SeatRecord, two: SeatRecord) -> None:
        """A proof record of two messages in one seat file (`said_book`, `said_twice`)."""
        verdict = self.said.written(writer, seq, one, two,
                                    self.reader.accepted.get(one.seat, ()))
        if verdict is not None and verdict.accused is not None:
            self._proved_at.setdefault((writer, verdict.accused), seq)
            self._expel(verdict.accused, verdict.from_seq, verdict.sentence, (one.raw, two.raw))
        elif verdict is not None:
            sentence = (f"seat {writer} wrote a proof against seat {one.seat} that proves "
                        f"nothing: {verdict.sentence}")
            self.offences.append((writer, sentence))
            log.warning("%s", sentence)

    def _expel(self, seat: int, from_seq: int, sentence: str,
               proof: tuple[bytes, bytes]) -> None:
        """Only `seat`'s records below `from_seq` count from now on; I write the proof
        into my own file (every player does, once it knows it). Two proofs of one seat:
        the lower number holds (whichever came first here)."""
        if self.expelled.get(seat, from_seq + 1) <= from_seq:
            return
        if seat in self.expelled:
            self.taken.pop(seat, None)
        self.expelled[seat] = from_seq
        self.proofs.append((seat, sentence))
        log.warning("CHEATING PROVED: %s", sentence)
        if seat != self.seat and (self.seat, seat) not in self._proved_at:
            self._proofs_due[seat] = proof
        self._count_again()

    def _counts(self, seat: int, seq: int, msg: Wire) -> bool:
        step = msg.get("step")
        at = step if isinstance(step, int) else None
        return counts(seat, seq, at, self.expelled, self.taken, self._proved_at) \
            and counts_after(seat, at, self.handed)

    # ------------------------------------------------------------------ hand-overs
    @property
    def handed(self) -> dict[int, int]:
        """Seats handed to a bot by agreement -> the step it plays them from."""
        return self.hands.handed

    def _take_claim(self, writer: int, record: SeatRecord) -> None:
        """A hand-over claim in `writer`'s file (`net.correspondence.seat_handover`)."""
        try:
            payload: bytes | None = self.sealing.open(record.sealed)
        except FolderKeyError:
            payload = None
        claim = read_hand(writer, payload) if payload is not None else None
        if claim is not None and claim.known:
            self._proved_at.setdefault((writer, claim.seat), record.seq)
        offence, fresh = self.hands.take(writer, payload, record.seq, self.expelled,
                                         self._proved_at)
        if offence:
            self.offences.append((writer, offence))
        for s, h in sorted(fresh.items()):
            self.taken[s] = h.step
            self.proofs.append((s, h.sentence))
            log.warning("HANDED OVER: %s", h.sentence)
        if fresh:
            self._count_again()

    def _claim(self, seat: int, step: int, known: bool) -> None:
        at = self._seq
        self._append(KIND_HAND, claim_payload(seat, step, known))
        if self._seq > at:
            self._take_claim(self.seat, self.reader.accepted[self.seat][-1])

    def overdue(self, now: float) -> tuple[int, ...]:
        """The other seats awaited here whose turn timer ran out on my clock (`HandBook`)."""
        ls = self.lockstep
        if ls is None or ls.ended:
            return ()
        return self.hands.overdue(ls.step, ls.waiting_for(), now)

    def hand_over(self, seat: int, now: float) -> str:
        """Claim that `seat`'s decision waited past the turn timer (my agreement to hand it
        to a bot); "" when written, else why not. The claim counts with the others'."""
        ls = self.lockstep
        if seat not in self.overdue(now) or ls is None:
            return self.hands.why_not(seat, ls.step if ls is not None else None,
                                      ls.waiting_for() if ls is not None else ())
        self._claim(seat, ls.step, False)
        self.pump()
        self.flush()
        return ""

    def _count_again(self) -> None:
        """What counts changed (a seat expelled, or taken over): the queues and my own
        messages are built again from what was read, and the lockstep is thrown away (the
        next pump replays from the first step without what no longer counts)."""
        self.queues = {s: deque() for s in self.queues}
        self.chain_ends = {s: e for s, e in self.chain_ends.items() if s == self.seat}
        for s, records in sorted(self.reader.accepted.items()):
            if s != self.seat:
                self._take(s, records, proofs=False)
        self._my_sent = {}
        for seq, msg in self._mine:
            if self._counts(self.seat, seq, msg):
                self._my_sent.setdefault(msg["step"], []).append(msg)
        for msg in self._outgoing:   # said, not yet written (at most the take-over's step)
            if msg["type"] != "ChainCommitted":
                self._my_sent.setdefault(msg["step"], []).append(msg)
        self.lockstep, self._due = None, None

    def _take(self, seat: int, records: tuple[SeatRecord, ...], proofs: bool = True) -> None:
        for record in records:
            if record.seq >= self.expelled.get(seat, record.seq + 1):
                continue                               # after its fork: void
            if record.kind == KIND_PROOF:
                if proofs:
                    self._judge_proof(seat, record)
                continue
            if record.kind == KIND_HAND:
                if proofs:
                    self._take_claim(seat, record)
                continue
            for msg in self._messages(seat, record):
                if msg["type"] == "ChainCommitted":
                    self.chain_ends.setdefault(seat, msg["chain_end"])
                elif self._counts(seat, record.seq, msg):
                    self.queues[seat].append(msg)
                elif not counts_after(seat, msg["step"], self.handed) \
                        and (seat, record.seq) not in self._refused:
                    self._refused.add((seat, record.seq))
                    self.offences.append((seat, f"seat {seat}'s move for step {msg['step']} "
                                          "came after the others handed its seat to a bot "
                                          f"at step {self.handed[seat]}: ignored"))

    def _messages(self, seat: int, record: SeatRecord) -> list[Wire]:
        if record.kind != KIND_TABLE:
            return []                                  # another seat's own secrets
        try:
            bodies = msgpack.unpackb(self.sealing.open(record.sealed), raw=False,
                                     max_array_len=10_000, max_bin_len=1 << 20,
                                     max_str_len=0, max_map_len=0, max_ext_len=0)
            if not isinstance(bodies, list) or not all(isinstance(b, bytes) for b in bodies):
                raise FrameError("not a list of messages")
            out = []
            for body in bodies:
                msg = check(decode_body(body))
                if msg.get("seat") != seat or not signatures.signed_by(
                        self.table.keys[seat], self.table.table, msg):
                    raise BadMessage(f"a {msg['type']} not signed by seat {seat}")
                out.append(msg)
            return out
        except (FolderKeyError, FrameError, BadMessage, ValueError) as e:
            if (seat, record.seq) not in self._refused:      # said once, however often read
                self._refused.add((seat, record.seq))
                self.offences.append((seat, f"record {record.seq}: {e}"))
                log.warning("seat %d's record %d is refused: %s", seat, record.seq, e)
            return []

    def _take_mine(self, record: SeatRecord) -> None:
        self._seq, self._prev = record.seq + 1, record.digest
        if record.kind == KIND_PROOF:
            self._judge_proof(self.seat, record)
            return
        if record.kind == KIND_HAND:
            self._take_claim(self.seat, record)
            return
        if record.kind == KIND_OWN:
            own = msgpack.unpackb(self.own_key.open(record.sealed), raw=False,
                                  strict_map_key=False)
            self._own.chain = own.get("chain") or self._own.chain
            for step, nonce, wire in own.get("plans", []):
                self._own.plans[step] = (nonce, wire)
                self._own_written[step] = (nonce, wire)
            return
        for msg in self._messages(self.seat, record):
            if msg["type"] == "ChainCommitted":
                self.chain_ends[self.seat] = msg["chain_end"]
            else:
                self._mine.append((record.seq, msg))
                self._my_sent.setdefault(msg["step"], []).append(msg)

    # ------------------------------------------------------------------ writing
    def _append(self, kind: int, payload: bytes) -> None:
        sealer = self.own_key if kind == KIND_OWN else self.sealing
        if kind == KIND_PROOF and len(payload) > SAVE_PROOF_MAX:
            log.warning("a proof of %d bytes is too large to write", len(payload))
            return
        record = make_record(self.key, self.table.table, self.seat, self._seq, self._prev,
                             kind, sealer.seal(payload))
        self._mirror(self.seat, (record,))            # my own copy first, then the folder
        self.writer.append(record)
        self.reader.accepted[self.seat] = self.reader.accepted.get(self.seat, ()) + (record,)
        self._seq, self._prev = self._seq + 1, record.digest

    def _write_own(self, chain_made: bool = False) -> None:
        """`chain_made`: a chain this session made, written even when my file has records
        already (a session killed between its secrets and its messages)."""
        plans = self.lockstep.my_plans if self.lockstep is not None else self._own.plans
        fresh = {s: p for s, p in plans.items() if self._own_written.get(s) != p}
        if fresh or chain_made or (self._own.chain is not None and not self._own_written and
                                   not self.reader.accepted.get(self.seat)):
            self._append(KIND_OWN, msgpack.packb(
                {"chain": self._own.chain,
                 "plans": [[s, n, w] for s, (n, w) in sorted(fresh.items())]},
                use_bin_type=True))
            self._own_written.update(fresh)
            self._own.plans.update(fresh)      # a lockstep replayed makes the same plans

    def prove(self, accused: int, first: bytes, second: bytes) -> None:
        """Write a proof record: `accused` signed both records (`first`, `second`)."""
        seq = self._seq
        self._append(KIND_PROOF, proof_payload(accused, first, second))
        if self._seq > seq:
            self._proved_at.setdefault((self.seat, accused), seq)

    def flush(self) -> None:
        """Write what the lockstep said since the last flush: the proofs I found first
        (so that a reader meets them before my moves that follow), my secrets (a plan's
        nonce before its commitment), then my messages as one record."""
        for accused, (first, second) in sorted(self._proofs_due.items()):
            if (self.seat, accused) not in self._proved_at:
                self.prove(accused, first, second)
        self._proofs_due = {}
        for seat in sorted(self.hands.known_due):
            if (self.seat, seat) not in self._proved_at:
                self._claim(seat, self.handed[seat], True)
        self.hands.known_due = set()
        self._write_own()
        if self._outgoing:
            seq = self._seq
            self._append(KIND_TABLE, msgpack.packb([encode_body(m) for m in self._outgoing],
                                                   use_bin_type=True))
            for msg in self._outgoing:       # kept: a lockstep replayed says them no more
                if msg["type"] != "ChainCommitted":
                    self._mine.append((seq, msg))
                    sent = self._my_sent.setdefault(msg["step"], [])
                    if msg not in sent:
                        sent.append(msg)
            self._outgoing = []

    # ------------------------------------------------------------------ the game
    def join(self) -> bool:
        """Make my chain and say its end (once, in my first records). True when every
        human seat's chain end is known and the game can be built."""
        if self.seat not in self.chain_ends:
            if self._own.chain is None:
                # a chain saved by a session killed before it said the chain's end is kept:
                # a new one here was said but never saved, and my links then failed the end
                # every other seat holds (the kill test found it: BeaconError, round 0)
                self._own.chain = os.urandom(32)
                self._write_own(chain_made=True)
            chain = HashChain(self._own.chain)
            msg = signatures.sign(self.key, self.table.table, {
                "type": "ChainCommitted", "seat": self.seat, "chain_end": chain.commitment,
                "token_hash": NO_TOKEN, "start": self.table.start})
            self.chain_ends[self.seat] = chain.commitment
            self._outgoing.append(msg)
            self.flush()
        return all(s in self.chain_ends or s in self.expelled for s in self.table.keys)

    def session(self) -> bool:
        """Play as far as the folder allows; write; return True when the game is over."""
        self._read()
        if not self.join():
            return False
        self.pump()
        self.flush()
        ls = self.lockstep
        if ls is not None and not ls.ended and self.table.turn_timer > 0:
            self.hands.waits.note(ls.step, tuple(ls.waiting_for()), time.time())
        return ls is not None and ls.ended

    def _build(self) -> Lockstep:
        saved = self._from_saved()
        ls = saved or self._new_lockstep()
        # a plan for a step after a take-over whose commitment no longer counts was made
        # on a state no longer reached
        ls.my_plans.update({s: p for s, p in self._own.plans.items()
                            if all(s <= t for t in self.taken.values())
                            or any(m["type"] == "PlanCommitted"
                                   for m in self._my_sent.get(s, ()))})
        ls.restore_outbox(self._my_sent)
        self.lockstep = ls
        if self.shelf is not None:
            self._note_round(ls)
        if saved is None:
            ls.start()
        else:
            ls.advance()
        return ls

    def _new_lockstep(self) -> Lockstep:
        assert self._own.chain is not None
        # a seat expelled before its chain's end counted is a bot's from the first step
        kinds = {s: "bot" if s in self.expelled and s not in self.chain_ends else k
                 for s, k in self.table.kinds.items()}
        return Lockstep(self.game, self.table.config, kinds, self.seat,
                        HashChain(self._own.chain), dict(self.chain_ends), bot=self.bot,
                        host=self)

    def _from_saved(self) -> Lockstep | None:
        """A lockstep at the newest saved replay the chain confirms (its step's hash
        carried by a signed message in the folder), or None: replay from the start."""
        if self.shelf is None or self.expelled or self.handed:
            return None              # a save may hold a side of a fork: replay it all
        messages = [m for q in self.queues.values() for m in q]
        messages += [m for sent in self._my_sent.values() for m in sent]
        recorded = recorded_hashes(messages)
        for step in self.shelf.steps():
            try:
                save = self.shelf.read(step)
            except SaveError as e:
                self.passed_over.append(str(e))
                continue
            why = why_not(save, self.table.table, self.seat, self.chain_ends, recorded)
            ls = self._new_lockstep() if why is None else None
            if ls is not None:
                why = restore(ls, save)
            if why is not None or ls is None:
                self.passed_over.append(f"saved replay of step {step}: {why}")
                log.info("saved replay of step %d not used: %s", step, why)
                continue
            for s, queue in self.queues.items():      # what the save holds already
                self.queues[s] = deque(m for m in queue if m["step"] >= save.step)
            self.restored_from = save.step
            if save.round_step >= 0:
                self._round_start = (save.round_step, save.round_state)
            return ls
        return None

    def pump(self) -> None:
        """Hand the lockstep every message it can take now, and my player's choices, until
        nothing moves; then read the folder once more and go on if it brought news."""
        while True:
            ls = self.lockstep or self._build()
            moved = True
            while moved and not ls.ended and ls is self.lockstep:
                moved = False
                for s, queue in self.queues.items():
                    while queue and queue[0]["step"] <= ls.step:
                        msg = queue.popleft()
                        moved = True
                        try:
                            ls.receive(s, msg)
                        except Offence as e:
                            if msg["step"] >= ls.step - 16:
                                self.offences.append((s, str(e)))
                if self._due is not None and self.choose is not None:
                    d, self._due = self._due, None
                    if self.seat in ls.decision().seats and not ls.ended \
                            and counts_after(self.seat, ls.step, self.handed):
                        ls.submit(self.choose(ls.state, d, self.seat))
                        moved = True
                if not moved and not ls.ended:
                    others = {s for s in self.expelled if s != self.seat}
                    others |= {s for s, n in self.handed.items() if n <= ls.step}
                    for s in takes_over(others, ls.bots, ls.waiting_for(), ls.step,
                                        {s: [m["step"] for m in q]
                                         for s, q in self.queues.items()}):
                        if s not in self.taken:
                            # now known: what was written past it before its proof is void
                            self.taken[s] = ls.step
                            self._count_again()
                            break
                        ls.take_over(s, ls.step)
                        moved = True
            if self.lockstep is None:
                continue                     # a proof came in: replay without the fork
            self.flush()
            if ls.ended or not self._read():
                return

    # ------------------------------------------------------------------ LockstepHost
    def broadcast(self, msg: Wire) -> None:
        step_sent = self._my_sent.get(msg.get("step", -1), [])
        if msg not in step_sent and msg not in self._outgoing:   # not written twice
            self._outgoing.append(msg)

    def sign(self, msg: Wire) -> Wire:
        return signatures.sign(self.key, self.table.table, msg)

    def verify(self, seat: int, msg: Wire) -> bool:
        return signatures.signed_by(self.table.keys.get(seat), self.table.table, msg)

    def cheated(self, seat: int, first: Mapping[str, object] | None,
                second: Mapping[str, object]) -> object:
        """Two signed messages of `seat` for one step: judged over the records of its file
        holding them (`said_twice`): it expels the seat, or is a move said again after a
        take-over (True either way); anything else is only recorded, as before."""
        why = signatures.conflict(first, second) if first is not None else None
        found = None
        if why is not None and first is not None and seat != self.seat:
            found = self.said.found(seat, dict(first), dict(second),
                                    self.reader.accepted.get(seat, ()))
        if found is not None:
            verdict, records = found
            if verdict.accused is not None:
                self._expel(seat, verdict.from_seq, verdict.sentence, records)
            else:
                log.info("%s", verdict.sentence)      # said again after a take-over
            return True
        self.proofs.append((seat, why or "a message that proves cheating"))
        log.warning("CHEATING PROVED: %s", why)
        return None

    def offended(self, seat: int, reason: str) -> None:
        self.offences.append((seat, reason))

    def desync_found(self, seat: int, step: int, mine: str, theirs: str) -> None:
        self.offences.append((seat, f"state hash differs at step {step}"))

    def events_happened(self, events: list[EngineEvent], state: EngineState) -> None:
        return None

    def decision_due(self, decision: PendingDecision, state: EngineState) -> None:
        self._due = decision

    def _note_round(self, ls: Lockstep) -> bool:
        """True when a round begins here (a `plan` step): its state is kept for my saves."""
        if ls.decision().kind != "plan":
            return False
        encode = getattr(self.game, "encode_state", None)
        self._round_start = (ls.step, encode(ls.state)) if encode is not None else None
        return True

    def step_applied(self, entry: Wire) -> None:
        """Every few steps and as a round begins (a `plan` step): save my replay here."""
        ls = self.lockstep
        if self.shelf is None or ls is None:
            return
        round_begins = self._note_round(ls)
        # a save is usable only once a signed message of its step records its hash: so at
        # a step every seat, or my own, writes for (not a bot's move)
        d = ls.decision()
        written = d.kind in ("chance", "plan", "tower") or self.seat in d.seats
        newest = max(self.shelf.steps(), default=-SAVE_EVERY) if self._saved is None \
            else self._saved
        if not (round_begins or (written and ls.step - newest >= SAVE_EVERY)) \
                or self.shelf.has(ls.step):
            return
        if not round_begins and self._round_start is None \
                and any("commits" in e for e in ls.log):
            return                  # in a round whose plan step this session never saw
        # at a round's start its plan step is not yet done: nothing of the round to keep
        save = take(ls, self.table.table, self.seat, None if round_begins else self._round_start)
        if save is not None:
            try:
                self.shelf.write(save)
                self._saved = ls.step
            except OSError as e:
                log.warning("could not save my replay at step %d: %s", ls.step, e)

    def save_due(self) -> None:
        self._write_own()             # a plan's nonce is on disk before its commitment

    def ended(self, state: EngineState) -> None:
        self.ended_state = state
