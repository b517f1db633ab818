"""Expulsion by proof inside one seat's unforked file: two signed messages it may say once.

Why a rule of its own beside `fork_proof`: a seat can cheat without forking its file, by
writing, in two of its records (or in one), two different signed messages for one step
(two plans, two moves: `net.lockstep.signatures.conflict`). The lockstep finds the pair
(`FolderLink.cheated`); the finder writes both records as a proof record, as for a fork,
so a reader that did not meet the pair itself (its lockstep had let the first go) expels
the seat too. The later record is the first void one, and a bot plays the seat from the
step `fork_proof.takes_over` names: the same step and hash on every reader.

The trap: after an expulsion or a hand-over an honest player says its moves for steps
past the take-over again, after its own proof record or `known` claim (the first ones
were played on a state nobody reaches: `fork_proof.counts`). Such a pair differs, and is
signed, and proves nothing. So a pair with one of the seat's own proof or hand-over
records between them is never a proof: it is at most ignored (the first counts, as for
anyone). A cheat who writes such a record between its two messages is not expelled for
them, and gains nothing either.

| the accused's records from the first to the later (as this reader holds them) | verdict |
|---|---|
| not all held yet (the file not synced that far) | wait: judged when they are |
| a pair of messages, one in each (or both in one), that `signatures.conflict` names, no proof or hand-over record of the seat between | proves: the later record and all after it are void |
| such a pair, but a proof or hand-over record of the seat between them | proves nothing (said again after a take-over); a written proof names its writer (an honest program never writes one) |
| no such pair (one record twice holding none: "the same record twice") | proves nothing; a written proof names its writer |

Tests: tests/net/correspondence/test_said_twice.py (the rows above),
tests/net/correspondence/test_folder_said_twice.py (in-process, through `FolderLink`),
tests/net/correspondence/test_said_again.py (a move said again after a hand-over).
docs/net.md, "Expulsion by proof (two messages in one file)".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from net.correspondence.seat_record import KIND_HAND, KIND_PROOF
from net.lockstep import signatures
from net.lockstep.step_inbox import Wire


@dataclass(frozen=True)
class SaidRecord:
    """One of the accused's records as a reader holds it: its number, kind and the signed
    messages it carries (none for a record of another kind)."""
    seq: int
    kind: int
    messages: tuple[Wire, ...] = ()


@dataclass(frozen=True)
class SaidVerdict:
    accused: int | None      # the seat expelled; None: no proof (or not yet judged)
    from_seq: int            # its records from this number on are void
    sentence: str
    wait: bool = False       # the reader does not hold the records yet

    @property
    def proves(self) -> bool:
        return self.accused is not None


LEARNED = frozenset({KIND_PROOF, KIND_HAND})    # a record after which a seat says again


def _pair(one: SaidRecord, two: SaidRecord) -> str | None:
    if one.seq == two.seq:
        pairs = [(a, b) for i, a in enumerate(one.messages) for b in one.messages[i + 1:]]
    else:
        pairs = [(a, b) for a in one.messages for b in two.messages]
    return next((why for a, b in pairs if (why := signatures.conflict(a, b)) is not None),
                None)


def judge_said(accused: int, held: Sequence[SaidRecord], first: int, second: int
               ) -> SaidVerdict:
    """Whether `accused`'s records numbered `first` and `second` (one number: one record)
    hold two messages it may say only once (the table above). `held`: its records as this
    reader holds them, by number from 0."""
    first, second = min(first, second), max(first, second)
    if first < 0 or second >= len(held):
        return SaidVerdict(None, 0, f"seat {accused}'s record {second} is not here yet",
                           wait=True)
    one, two = held[first], held[second]
    why = _pair(one, two)
    if why is None and first == second:
        return SaidVerdict(None, 0, "the same record twice")
    if why is None:
        return SaidVerdict(None, 0, f"records {first} and {second} of seat {accused} hold "
                                    "no two messages it may say only once")
    between = [r.seq for r in held[first + 1:second] if r.kind in LEARNED]
    if between:
        return SaidVerdict(None, 0, f"seat {accused} said a move again after its record "
                                    f"{between[0]} (a take-over it learned): no proof")
    return SaidVerdict(accused, second, f"{why}: seat {accused} is expelled and a bot "
                                        "plays its seat")
