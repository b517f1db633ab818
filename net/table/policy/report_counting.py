"""Counting reports of offences: whose `SeatDropped` claim counts, and how much a seat
that was dropped for offences may still do. One pure policy over typed records.

Why: a seated peer that misbehaved, was dropped and redialled with its seat key was
readmitted 20 times with a fresh allowance of offences, and each honest player that
dropped it again told the others so; those repeated claims were counted as the honest
reporter's offences ("too many SeatDropped claims") until an honest player was dropped
and the table stalled (issue 34 item 2). Now:

| a `SeatDropped` claim (reporter -> accused) | verdict |
|---|---|
| before the start, or on a connection with no seat | the reporter's offence: no player can send it |
| about the reporter itself | the reporter's offence |
| about a seat the table does not have | the reporter's offence |
| about a seat a bot plays now | ignored (it was dropped, then taken over) |
| about me | logged, not counted (I know whether I am here) |
| a reporter already counted against that seat | ignored: the same drop told again, or a later drop of a seat that came back; never the reporter's offence |
| a new reporter against that seat | counted; it *carries* once more than half of the accused seat's other players are counted |

Reports are counted per accused seat and reporter, since the accused last came back to
this peer: a reporter cannot make its claim weigh more by repeating it, and an honest
reporter is never charged for the number of times the accused misbehaved.

| a seat's record here (`SeatRecord`) | what its next connection gets |
|---|---|
| never dropped for offences | the offences it made, across its connections (a redial is no fresh allowance) |
| dropped once for offences | readmitted once, with its count kept: the next offence drops it again |
| dropped `REPEAT` times | refused; a bot takes the seat when the table agrees (the claims carry: the take-over rule of `net.table.takeover`) |

Tests: tests/net/table/test_report_counting.py (this table),
tests/net/trust/test_redial_attack.py (the redialling offender as a process).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

REPEAT = 2        # drops for offences after which a seat is not readmitted here


@dataclass(frozen=True)
class DropReport:
    """A `SeatDropped` claim as it came: the seat of the connection that sent it (None:
    a connection with no seat) and the seat it says it dropped."""
    reporter: int | None
    accused: int


@dataclass(frozen=True)
class ReportBook:
    """What this peer knows that counting a claim depends on."""
    started: bool
    my_seat: int | None
    seats: frozenset[int]                    # every seat of the table
    humans: frozenset[int]                   # the seats people were given at the start
    bots: frozenset[int]                     # seats a bot plays now (taken over)
    counted: Mapping[int, frozenset[int]]    # accused -> reporters counted since it came back


@dataclass(frozen=True)
class ReportVerdict:
    offence: str | None = None     # the claim is the reporter's offence (why)
    counted: bool = False          # a new reporter against the accused seat
    about_me: bool = False         # the accused is me: logged only
    carries: bool = False          # more than half of the accused's other players dropped it


def carries(humans: frozenset[int], accused: int, reporters: frozenset[int]) -> bool:
    """More than half of the accused seat's other players say they dropped it."""
    others = humans - {accused}
    return 2 * len(reporters & others) > len(others)


def count_report(book: ReportBook, report: DropReport) -> ReportVerdict:
    """The one counting policy for claims (see the first table in the module doc)."""
    reporter, accused = report.reporter, report.accused
    if reporter is None or not book.started:
        return ReportVerdict(offence="SeatDropped from a connection that cannot send it")
    if accused == reporter:
        return ReportVerdict(offence="SeatDropped about the sender's own seat")
    if accused not in book.seats:
        return ReportVerdict(offence=f"SeatDropped about seat {accused}, which the table "
                                     "does not have")
    if accused not in book.humans or accused in book.bots:
        return ReportVerdict()
    if accused == book.my_seat:
        return ReportVerdict(about_me=True)
    before = book.counted.get(accused, frozenset())
    if reporter in before:
        return ReportVerdict(carries=carries(book.humans, accused, before))
    return ReportVerdict(counted=True, carries=carries(book.humans, accused,
                                                       before | {reporter}))


@dataclass(frozen=True)
class SeatRecord:
    """A seat's offences at this peer, kept across its connections (redials)."""
    offences: int = 0          # offences counted against the seat here
    drops: int = 0             # times this peer dropped it for offences (its own or agreed)


def barred(record: SeatRecord) -> bool:
    """Dropped for offences `REPEAT` times: not readmitted (second table)."""
    return record.drops >= REPEAT


def offences_carried(record: SeatRecord, allowance: int) -> int:
    """The offence count a new connection of the seat starts with, of the `allowance` a
    connection has before it is dropped (second table): what the seat did before; after
    a drop for offences, one short of the allowance."""
    if record.drops:
        return allowance - 1
    return min(record.offences, allowance - 1)
