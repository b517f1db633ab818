"""Online join-code guesses, rationed per address, with one summary log line.

Why: after the PAKE, a code can only be guessed by trying it on a live table — one
connection per guess. A 5-character code has 2**25 values, so a few guesses and then
a doubling wait make guessing hopeless, while a player who mistyped twice barely
notices. Why one summary line: logging each guess lets a guesser flood the log
(31,800 lines in 15 s were measured), so the limiter counts and writes one line per
address per `SUMMARY_AFTER` seconds of activity.

Tests: tests/net/trust/test_attacks.py (online guessing), tests/net/transport/test_peer.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("net.trust.guess_limit")

FREE_GUESSES = 3          # wrong codes from one address before it must wait
FIRST_WAIT = 1.0          # seconds; doubles with every further wrong code
MAX_WAIT = 600.0
SUMMARY_AFTER = 10.0      # seconds of activity summed up in one log line
MAX_ADDRESSES = 10_000    # forget the oldest beyond this (bounded memory)


@dataclass
class _Record:
    wrong: int = 0               # wrong codes in all
    allowed_at: float = 0.0      # no new connection before this time
    wrong_since_log: int = 0
    turned_away_since_log: int = 0
    summary_due: bool = False


class GuessLimiter:
    """Per address: how many wrong codes, and until when new connections are turned away."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self._records: dict[str, _Record] = {}

    def wait_left(self, address: str) -> float:
        """Seconds `address` must still wait (0: it may try). Counts a turned-away try."""
        rec = self._records.get(address)
        if rec is None:
            return 0.0
        left = rec.allowed_at - self.reactor.seconds()
        if left > 0:
            rec.turned_away_since_log += 1
            self._summary_later(address, rec)
        return max(0.0, left)

    def wrong_code(self, address: str) -> None:
        rec = self._records.get(address)
        if rec is None:
            if len(self._records) >= MAX_ADDRESSES:
                self._records.pop(next(iter(self._records)))
            rec = self._records[address] = _Record()
        rec.wrong += 1
        rec.wrong_since_log += 1
        if rec.wrong >= FREE_GUESSES:
            wait = min(MAX_WAIT, FIRST_WAIT * 2 ** (rec.wrong - FREE_GUESSES))
            rec.allowed_at = self.reactor.seconds() + wait
        self._summary_later(address, rec)

    def _summary_later(self, address: str, rec: _Record) -> None:
        if not rec.summary_due:
            rec.summary_due = True
            self.reactor.callLater(SUMMARY_AFTER, self._summary, address)

    def _summary(self, address: str) -> None:
        rec = self._records.get(address)
        if rec is None:
            return
        rec.summary_due = False
        wait = max(0.0, rec.allowed_at - self.reactor.seconds())
        wrong, away = rec.wrong_since_log, rec.turned_away_since_log
        rec.wrong_since_log = rec.turned_away_since_log = 0
        log.warning("join code guesses from %s in the last %g s: %d wrong %s, %d %s turned "
                    "away while it had to wait; next try allowed in %.0f s",
                    address, SUMMARY_AFTER, wrong, "code" if wrong == 1 else "codes",
                    away, "connection" if away == 1 else "connections", wait)
