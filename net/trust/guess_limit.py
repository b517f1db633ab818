"""Online join-code guesses, rationed per address and for the whole table, with one
summary log line.

Why: after the PAKE, a code can only be guessed by trying it on a live table — one
connection per guess. A 5-character code has 2**25 values, so a few guesses and then
a doubling wait make guessing hopeless, while a player who mistyped twice barely
notices. Why for the whole table too: a guesser with a new source address per guess
(a 127.x or IPv6 range) is a new address each time, so the per-address wait alone let
29 guesses/s through (issue 26). The table's budget (`TABLE_BUDGET` wrong codes per
`TABLE_WINDOW`) holds any number of addresses to it, with a doubling wait when it is
spent again and again. Addresses that proved the code at this table (its players) are
never turned away by the table's budget, so a guesser cannot keep a player from
rejoining. Why one summary line: logging each guess lets a guesser flood the log
(31,800 lines in 15 s were measured; 507 lines in 20 s from rotating addresses), so
the limiter counts and writes one line for the whole table per `SUMMARY_AFTER` seconds
of activity.

Tests: tests/net/trust/test_attacks.py (online guessing), tests/net/trust/test_guess_budget.py,
tests/net/transport/test_peer.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("net.trust.guess_limit")

FREE_GUESSES = 3          # wrong codes from one address before it must wait
FIRST_WAIT = 1.0          # seconds; doubles with every further wrong code
MAX_WAIT = 600.0
SUMMARY_AFTER = 10.0      # seconds of activity summed up in one log line
MAX_ADDRESSES = 10_000    # forget the oldest beyond this (bounded memory)
# The whole table: 20 wrong codes a minute is far beyond any group of friends mistyping,
# and holds a guesser to one code in 2**25 / 20 per minute — over a year on average for
# half the codes, before the doubling wait (one more minute each time the budget is spent
# again, up to MAX_WAIT) stretches that further.
TABLE_BUDGET = 20         # wrong codes per window from all addresses together
TABLE_WINDOW = 60.0       # seconds


@dataclass
class _Record:
    wrong: int = 0               # wrong codes in all
    allowed_at: float = 0.0      # no new connection before this time


@dataclass
class _Summary:
    """What the next summary line sums up."""
    wrong: int = 0
    turned_away: int = 0
    addresses: set[str] = field(default_factory=set)   # of the wrong codes
    due: bool = False


class GuessLimiter:
    """Per address: how many wrong codes, and until when new connections are turned away;
    for the whole table: wrong codes in the current window, and until when strangers are."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self._records: dict[str, _Record] = {}
        self._proved: set[str] = set()       # addresses that proved the code here
        self._window_start = 0.0
        self._window_wrong = 0
        self._spent = 0                      # windows in a row whose budget was spent
        self._table_allowed_at = 0.0
        self._summary = _Summary()

    def wait_left(self, address: str) -> float:
        """Seconds `address` must still wait (0: it may try). Counts a turned-away try."""
        now = self.reactor.seconds()
        rec = self._records.get(address)
        left = rec.allowed_at - now if rec is not None else 0.0
        if address not in self._proved:
            left = max(left, self._table_allowed_at - now)
        if left > 0:
            self._summary.turned_away += 1
            self._summary_later()
        return max(0.0, left)

    def proved(self, address: str) -> None:
        """`address` proved the code at this table: the table's budget never turns it away."""
        if len(self._proved) < MAX_ADDRESSES:
            self._proved.add(address)

    def wrong_code(self, address: str) -> None:
        rec = self._records.get(address)
        if rec is None:
            if len(self._records) >= MAX_ADDRESSES:
                self._records.pop(next(iter(self._records)))
            rec = self._records[address] = _Record()
        rec.wrong += 1
        now = self.reactor.seconds()
        if rec.wrong >= FREE_GUESSES:
            wait = min(MAX_WAIT, FIRST_WAIT * 2 ** (rec.wrong - FREE_GUESSES))
            rec.allowed_at = now + wait
        self._count_for_the_table(now)
        self._summary.wrong += 1
        if len(self._summary.addresses) < MAX_ADDRESSES:
            self._summary.addresses.add(address)
        self._summary_later()

    def _count_for_the_table(self, now: float) -> None:
        if now - self._window_start >= TABLE_WINDOW:
            if self._window_wrong < TABLE_BUDGET and now >= self._table_allowed_at:
                self._spent = 0              # a calm window: the doubling starts over
            self._window_start, self._window_wrong = now, 0
        self._window_wrong += 1
        if self._window_wrong >= TABLE_BUDGET:
            self._spent += 1
            wait = min(MAX_WAIT, TABLE_WINDOW * 2 ** (self._spent - 1))
            self._table_allowed_at = now + wait
            # the next window starts when the wait ends
            self._window_start, self._window_wrong = self._table_allowed_at, 0

    def _summary_later(self) -> None:
        if not self._summary.due:
            self._summary.due = True
            self.reactor.callLater(SUMMARY_AFTER, self._write_summary)

    def _write_summary(self) -> None:
        done, self._summary = self._summary, _Summary()
        table_wait = max(0.0, self._table_allowed_at - self.reactor.seconds())
        log.warning("join code guesses in the last %g s: %d wrong %s from %d %s, %d %s "
                    "turned away while %s had to wait; the table turns strangers away for "
                    "%.0f s more (budget %d wrong codes per %g s)",
                    SUMMARY_AFTER, done.wrong, "code" if done.wrong == 1 else "codes",
                    len(done.addresses), "address" if len(done.addresses) == 1 else
                    "addresses", done.turned_away,
                    "connection" if done.turned_away == 1 else "connections",
                    "its address or the table", table_wait, TABLE_BUDGET, TABLE_WINDOW)
