"""One player's book of hand-overs at a correspondence table: the claims read, the seats
handed to a bot, and whose timer ran out here.

Why a book of its own beside `FolderLink`: the link plays the lockstep; what the claims
decide is `net.correspondence.seat_handover`'s pure rule, and when a claim may be written
is this player's own clock (`net.correspondence.turn_timer`). The book keeps both, so the
link only reads a claim record into it (`take`), asks it whose wait ran out (`overdue`,
`why_not`) and writes what it says is due (`known_due`).

Tests: tests/net/correspondence/test_folder_handover.py (through `FolderLink`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from net.correspondence.seat_handover import HandClaim, HandOver, hand_overs, read_claim
from net.correspondence.turn_timer import WaitNotes, ran_out
from net.table.policy.takeover_agreement import needed


@dataclass
class HandBook:
    seat: int                              # mine
    keys: Mapping[int, bytes]              # the table's human seats
    timer: int                             # the table's turn timer, seconds (0: none)
    local: Path | None = None              # my unsynced folder, for the wait notes
    claims: list[HandClaim] = field(default_factory=list)
    handed: dict[int, int] = field(default_factory=dict)   # seat -> the step a bot plays from
    known_due: set[int] = field(default_factory=set)       # mine to write: a `known` claim

    def __post_init__(self) -> None:
        self.waits = WaitNotes(self.local)

    def take(self, writer: int, payload: bytes | None, seq: int, gone: Collection[int],
             known_at: Mapping[tuple[int, int], int]) -> tuple[str, dict[int, HandOver]]:
        """A claim record of `writer` (its opened payload; None: it did not open):
        an offence sentence ("" if none) and the hand-overs it completes."""
        claim = read_claim(writer, payload) if payload is not None else None
        if claim is None or claim.seat not in self.keys or claim.seat == writer:
            why = "its payload is no claim" if payload is not None else "it does not open"
            return (f"seat {writer} wrote a hand-over claim that claims nothing "
                    f"(record {seq}: {why})"), {}
        self.claims.append(claim)
        fresh = {s: h for s, h in hand_overs(self.keys, gone, self.claims).items()
                 if s not in self.handed}
        for s, h in fresh.items():
            self.handed[s] = h.step
            if s != self.seat and (self.seat, s) not in known_at:
                self.known_due.add(s)
        return "", fresh

    def claimed(self, seat: int, step: int) -> bool:
        return any(c.writer == self.seat and c.seat == seat and c.step == step
                   for c in self.claims)

    def overdue(self, step: int, waiting: Collection[int], now: float) -> tuple[int, ...]:
        """The other seats awaited at `step` whose timer ran out on my clock, counted from
        when my program first saw them awaited there; not claimed by me yet."""
        if self.timer <= 0:
            return ()
        self.waits.note(step, tuple(waiting), now)
        return tuple(s for s in waiting
                     if s != self.seat and s in self.keys and s not in self.handed
                     and not self.claimed(s, step)
                     and ran_out(self.waits.since(s, step) or now, now, self.timer))

    def still_needed(self, seat: int, step: int, gone: Collection[int]) -> int:
        """How many more players' claims hand `seat` (awaited at `step`) to a bot (0: it is
        handed), by the rule of `hand_overs`."""
        if seat in self.handed:
            return 0
        in_play = set(self.keys) - set(gone) - set(self.handed)
        have = {c.writer for c in self.claims if c.seat == seat and c.step == step} \
            & (in_play - {seat})
        return max(0, needed(in_play) - len(have))

    def why_not(self, seat: int, step: int | None, waiting: Collection[int]) -> str:
        """Why I may not claim `seat` now (when it is not `overdue`)."""
        if self.timer <= 0:
            return "this table has no turn timer"
        if step is None or seat not in waiting or seat == self.seat:
            return f"seat {seat}'s decision is not awaited"
        if seat in self.handed or self.claimed(seat, step):
            return f"seat {seat}: already claimed"
        return f"seat {seat}: the turn timer has not run out"
