"""A player's own saved replay: where a session's lockstep stood at the start of a round,
so the next session need not replay every step from the first (issue 51).

Why: a session builds its lockstep again from what the folder holds; with the real rules
replaying every step from the start grows with the game (the bots' choices, the tower's
drops, every step's hash), and the program is opened once per move. So every `EVERY`
steps or so (at the first step after them that every seat or my own writes a message
for: a draw, a plan, a tower vote, my move) and at the start of every round (a `plan`
step), as a step begins, a `ReplaySave`
of the lockstep's state (the engine's own bytes), step, beacon round, bots, each seat's
last verified beacon link and the command log is written to the player's own folder,
which is not synced. Within a round the lockstep also holds what the round's plan step
fixed: the seats' signed commitments (in that step's log entry) and the bots' face-down
plans (computed again from the state at that step and its logged seed), so a save in a
round holds that state too (`round_step`, `round_state`). A later session starts from the newest one it can verify and
feeds only the messages of that step and later.

A save is a cache of my own replay, never a source of truth: nothing of it comes from the
shared folder, and it is used only when the hash the chain records for its step (a signed
message of that step, any seat's, carries the state hash its sender had there) is the hash
of the state it holds, and each seat's saved link hashes forward to that seat's committed
chain end (and, for the round's state, the same for its plan step). Anything else (damaged, from another table, not yet recorded in the chain, a
program of another version) is passed over for an older save or a replay from the start.

Tests: tests/net/correspondence/test_replay_save.py.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Mapping

import msgpack

from net.lockstep.beacon import BeaconError, ChainVerifier
from net.lockstep.core import Lockstep
from net.lockstep.step_inbox import Wire

VERSION = 1
EVERY = 8                   # steps between two saves (and one at every round's start)
KEEP = 3                    # saves kept (an unverifiable newest falls back to an older one)
PREFIX, SUFFIX = "replay-", ".save"


@dataclass(frozen=True)
class LinkPoint:
    """A seat's beacon chain as far as it was verified: `last` is its link of round
    `next_round - 1` (its committed end when `next_round` is 0)."""
    seat: int
    next_round: int
    last: bytes


@dataclass(frozen=True)
class ReplaySave:
    table: bytes
    seat: int
    step: int
    round: int
    hash: str                           # `Lockstep.hash` at `step` (bots included)
    state: bytes                        # the engine's `encode_state`
    bots: tuple[int, ...]
    links: tuple[LinkPoint, ...]
    log: tuple[Wire, ...]
    round_step: int = -1                # the round's plan step (-1: before the first)
    round_state: bytes = b""            # the state at `round_step`

    def encode(self) -> bytes:
        packed: bytes = msgpack.packb(
            [VERSION, self.table, self.seat, self.step, self.round, self.hash, self.state,
             list(self.bots), [[p.seat, p.next_round, p.last] for p in self.links],
             list(self.log), self.round_step, self.round_state], use_bin_type=True)
        return packed


class SaveError(ValueError):
    """A saved replay that cannot be used (the sentence says why)."""


def decode(data: bytes) -> ReplaySave:
    try:
        fields = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        raise SaveError("not a saved replay") from None
    if not isinstance(fields, list) or len(fields) != 12 or fields[0] != VERSION:
        raise SaveError("a saved replay of another version")
    _, table, seat, step, round_, hash_, state, bots, links, log, round_step, round_state \
        = fields
    ints = (seat, step, round_)
    if not isinstance(table, bytes) or not all(type(v) is int and v >= 0 for v in ints) \
            or not isinstance(hash_, str) or not isinstance(state, bytes) \
            or not isinstance(bots, list) or not all(type(b) is int for b in bots) \
            or not isinstance(links, list) or not isinstance(log, list) \
            or not all(isinstance(e, dict) for e in log) or type(round_step) is not int \
            or not -1 <= round_step < max(step, 0) or not isinstance(round_state, bytes):
        raise SaveError("a saved replay with a field of the wrong kind")
    points = []
    for point in links:
        if not isinstance(point, list) or len(point) != 3 or type(point[0]) is not int \
                or type(point[1]) is not int or not isinstance(point[2], bytes):
            raise SaveError("a saved replay with a beacon link of the wrong kind")
        points.append(LinkPoint(point[0], point[1], point[2]))
    return ReplaySave(table, seat, step, round_, hash_, state, tuple(bots), tuple(points),
                      tuple(log), round_step, round_state)


def take(ls: Lockstep, table: bytes, seat: int, round_start: tuple[int, bytes] | None
         ) -> ReplaySave | None:
    """The lockstep as it stands, if its engine can write its state (None otherwise);
    `round_start`: the round's plan step and its state's bytes (None before the first)."""
    encode = getattr(ls.game, "encode_state", None)
    if encode is None:
        return None
    links = tuple(LinkPoint(s, v.next_round, v.last) for s, v in sorted(ls.verifiers.items()))
    round_step, round_state = round_start if round_start is not None else (-1, b"")
    return ReplaySave(table, seat, ls.step, ls.round, ls.hash, encode(ls.state),
                      tuple(sorted(ls.bots)), links, tuple(ls.log), round_step, round_state)


def why_not(save: ReplaySave, table: bytes, seat: int, chain_ends: Mapping[int, bytes],
            recorded: Mapping[int, Collection[str]]) -> str | None:
    """Why `save` cannot be restored at this table for this seat, before it is opened:
    `recorded` holds, per step, the hashes the chain's signed messages carry for it."""
    if save.table != table or save.seat != seat:
        return "a saved replay of another table or seat"
    if save.hash not in recorded.get(save.step, ()):
        return f"no message of step {save.step} in the folder records the saved hash"
    if len(save.log) != save.step or any(e.get("step") != i for i, e in enumerate(save.log)):
        return "a saved replay whose log does not reach its step"
    if save.round_step >= 0 and save.log[save.round_step].get("hash") \
            not in recorded.get(save.round_step, ()):
        return f"no message of step {save.round_step} in the folder records the round's hash"
    if {p.seat for p in save.links} != set(chain_ends):
        return "a saved replay with other seats' chains"
    for p in save.links:
        verifier = ChainVerifier(chain_ends[p.seat])
        if p.next_round == 0:
            if p.last != chain_ends[p.seat]:
                return f"seat {p.seat}'s saved link is not its committed chain end"
            continue
        try:
            verifier.check(p.next_round - 1, p.last)
        except BeaconError as e:
            return f"seat {p.seat}'s saved link: {e}"
    return None


def restore(ls: Lockstep, save: ReplaySave) -> str | None:
    """Put a new lockstep (built, not started) where `save` stood; the sentence when the
    state it holds is not the state whose hash the save claims (then `ls` must not be used)."""
    decode_state = getattr(ls.game, "decode_state", None)
    if decode_state is None:
        return "this engine has no saved states"
    try:
        state = decode_state(save.state)
    except ValueError as e:
        return str(e)
    round_state = None
    if save.round_step >= 0:
        try:
            round_state = decode_state(save.round_state)
        except ValueError as e:
            return str(e)
    ls.state = state
    ls.step, ls.round = save.step, save.round
    ls.bots = set(save.bots)
    ls._step_bots = tuple(sorted(ls.bots))           # noqa: SLF001 (the step begins here)
    ls.log = [dict(e) for e in save.log]
    for p in save.links:
        verifier = ChainVerifier(ls.verifiers[p.seat].commitment)
        verifier.next_round, verifier.last = p.next_round, p.last
        ls.verifiers[p.seat] = verifier
    if ls.hash != save.hash:
        return "the saved state does not hash to the saved hash"
    if round_state is not None:
        entry = ls.log[save.round_step]
        ls.state = round_state
        held = ls.hash
        ls.state = state
        if held != entry.get("hash"):
            return "the saved round's state does not hash to its step's hash"
        ls.plans.restore_field_commits(entry)
        ls.plans.restore_bot_plans(entry, round_state, ls.game.pending(round_state))
    return None


class SaveShelf:
    """My saved replays in my own folder: written whole or not at all, the newest `KEEP`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, step: int) -> Path:
        return self.folder / f"{PREFIX}{step:08d}{SUFFIX}"

    def steps(self) -> list[int]:
        """The steps saved, newest first."""
        out: list[int] = []
        if not self.folder.is_dir():
            return out
        for p in self.folder.iterdir():
            name = p.name
            if name.startswith(PREFIX) and name.endswith(SUFFIX) \
                    and name[len(PREFIX):-len(SUFFIX)].isdigit():
                out.append(int(name[len(PREFIX):-len(SUFFIX)]))
        return sorted(out, reverse=True)

    def has(self, step: int) -> bool:
        return self._path(step).exists()

    def write(self, save: ReplaySave) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(save.step)
        temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        try:
            view = memoryview(save.encode())
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
        for old in self.steps()[KEEP:]:
            self._path(old).unlink(missing_ok=True)

    def read(self, step: int) -> ReplaySave:
        from net.correspondence.folder_io import read_file
        got = read_file(self.folder, self._path(step).name)
        if got.refused or got.missing or got.cut:
            raise SaveError(f"saved replay of step {step}: {got.refused or 'unreadable'}")
        return decode(got.data)


def recorded_hashes(messages: Collection[Wire]) -> dict[int, set[str]]:
    """step -> the state hashes the signed messages carry for it."""
    out: dict[int, set[str]] = {}
    for msg in messages:
        step, hash_ = msg.get("step"), msg.get("hash")
        if type(step) is int and isinstance(hash_, str):
            out.setdefault(step, set()).add(hash_)
    return out
