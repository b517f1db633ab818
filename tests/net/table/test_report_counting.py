"""Counting reports of offences (`net.table.policy.report_counting`): each row of the policy's
tables is one case here. The wiring is shown by tests/net/trust/test_redial_attack.py
(a redialling offender as a real process) and tests/net/trust/test_hostile.py."""

from __future__ import annotations

import pytest

from net.table.policy.report_counting import (REPEAT, DropReport, ReportBook, ReportVerdict,
                                       SeatRecord, barred, count_report, offences_carried)

ME = 0
FOUR = frozenset(range(4))


def book(counted=None, started=True, bots=frozenset(), humans=FOUR):
    return ReportBook(started=started, my_seat=ME, seats=FOUR, humans=humans,
                      bots=frozenset(bots), counted={k: frozenset(v)
                                                     for k, v in (counted or {}).items()})


CANNOT = "SeatDropped from a connection that cannot send it"

# (what this peer knows, reporter -> accused, verdict)
CLAIMS = {
    "before the start": (book(started=False), (1, 2), ReportVerdict(offence=CANNOT)),
    "from a connection with no seat": (book(), (None, 2), ReportVerdict(offence=CANNOT)),
    "about the reporter itself": (book(), (1, 1), ReportVerdict(
        offence="SeatDropped about the sender's own seat")),
    "about a seat the table lacks": (book(), (1, 7), ReportVerdict(
        offence="SeatDropped about seat 7, which the table does not have")),
    "about a seat a bot plays now": (book(bots={2}), (1, 2), ReportVerdict()),
    "about a bot seat from the start": (book(humans=frozenset({0, 1, 2})), (1, 3),
                                        ReportVerdict()),
    "about me": (book(), (1, ME), ReportVerdict(about_me=True)),
    "a first claim: counted, one of three is not enough": (
        book(), (1, 3), ReportVerdict(counted=True)),
    "a second reporter: two of three carry": (
        book({3: {1}}), (2, 3), ReportVerdict(counted=True, carries=True)),
    "my own drop and one claim carry": (
        book({3: {ME}}), (1, 3), ReportVerdict(counted=True, carries=True)),
    # the honest reporter that drops a redialling offender again and says so: never its
    # offence, and its second word adds nothing
    "the same reporter again: not counted, not an offence": (
        book({3: {1}}), (1, 3), ReportVerdict()),
    "the same reporter again, the claims carry already": (
        book({3: {1, 2}}), (1, 3), ReportVerdict(carries=True)),
    "claims about another seat are counted apart": (
        book({3: {1, 2}}), (1, 2), ReportVerdict(counted=True)),
}


@pytest.mark.parametrize("case", sorted(CLAIMS))
def test_each_claim_is_counted_as_the_table_says(case):
    known, (reporter, accused), verdict = CLAIMS[case]
    assert count_report(known, DropReport(reporter=reporter, accused=accused)) == verdict


def test_a_claim_repeated_any_number_of_times_is_never_the_reporters_offence():
    known = book({3: {1}})
    verdicts = {count_report(known, DropReport(1, 3)) for _ in range(100)}
    assert verdicts == {ReportVerdict()}


ALLOWANCE = 3
# (the seat's record here, refused?, offences its next connection starts with)
RECORDS = {
    "never offended": (SeatRecord(), False, 0),
    "two offences, then a lost link: they are kept": (SeatRecord(offences=2), False, 2),
    "dropped once: back once, the next offence drops it": (
        SeatRecord(offences=3, drops=1), False, 2),
    "dropped once by the table's word, no offence here": (
        SeatRecord(offences=0, drops=1), False, 2),
    "dropped twice: refused": (SeatRecord(offences=4, drops=REPEAT), True, 2),
}


@pytest.mark.parametrize("case", sorted(RECORDS))
def test_a_seat_keeps_its_count_across_redials(case):
    record, refused, start = RECORDS[case]
    assert barred(record) is refused
    assert offences_carried(record, ALLOWANCE) == start
