"""Online join-code guesses: who gets a key exchange answered, with one summary log line.

Why: after the PAKE, a code can only be guessed by trying it on a live table, one key
exchange per guess, and each exchange costs the host a SPAKE2 computation (about 7 ms,
19 ms on a loaded machine). Before issue 34 a table-wide budget of wrong codes locked
every stranger out for 60 s, then 2, 4, 8, 10 minutes once it was spent — so 25 wrong
codes from rotating addresses kept every friend out too. A stranger's answer can only
be told from a friend's after the exchange, so no rule on guesses can spare the friend;
the code's size must make the guesses harmless instead. So:

- the join code has 40 bits (8 characters of a 32-letter alphabet,
  `net.table.session.new_join_code`), and the table answers at most `EXCHANGE_RATE` key
  offers a second from strangers (a token bucket of `EXCHANGE_BURST`), never locking
  anyone out for longer than a token takes to come back. At that rate a guesser tries
  at most 432,000 codes in a 12-hour evening: a chance of 432,000 / 2**40, under 1 in
  2.5 million, to find the code. The rate also bounds the host's CPU under a guessing
  flood (`EXCHANGE_RATE` exchanges a second, a fifth of a core at worst);
- a stranger refused for want of a token is told when to try again (a fraction of a
  second), and `join` tries again visibly; a friend competes with a guesser only for
  tokens, and gets one within a few tries of a guesser as fast as the table's CPU;
- one address still waits after `FREE_GUESSES` wrong codes, doubling, up to `MAX_WAIT`
  (a guesser from one address gains nothing from the shared tokens); an exchange
  answered but never finished with a Hello counts as a wrong code (the host did the
  work, the stranger proved nothing);
- addresses that proved the code at this table (its players) spend no token, so a
  guesser cannot delay a player's rejoin.

Why one summary line: logging each guess lets a guesser flood the log (31,800 lines in
15 s were measured), so the limiter counts and writes one line per `SUMMARY_AFTER`
seconds of activity.

The decision is one pure function, `decide_offer`, over typed records.

Tests: tests/net/trust/test_guess_budget.py (the decision's table, in-memory floods),
tests/net/trust/test_guess_flood.py (a real host and a real guesser process),
tests/net/trust/test_attacks.py (online guessing).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from typing import Any

log = logging.getLogger("net.trust.guess_limit")

FREE_GUESSES = 3          # wrong codes from one address before it must wait
FIRST_WAIT = 1.0          # seconds; doubles with every further wrong code
MAX_WAIT = 600.0
SUMMARY_AFTER = 10.0      # seconds of activity summed up in one log line
MAX_ADDRESSES = 10_000    # forget the oldest beyond this (bounded memory)
EXCHANGE_RATE = 10.0      # key offers from strangers answered per second, at most
EXCHANGE_BURST = 20.0     # ... and at once after a calm spell
CODE_BITS = 40            # a generated join code's entropy (8 of 32 letters)
EVENING = 12 * 3600.0     # seconds of a long evening, for the bound in the docs


def guessing_chance(seconds: float = EVENING, bits: int = CODE_BITS) -> float:
    """The most a guesser can hope for in `seconds` at the table's rate."""
    return min(1.0, (EXCHANGE_BURST + EXCHANGE_RATE * seconds) / float(2 ** bits))


@dataclass(frozen=True)
class AddressRecord:
    """One address's wrong codes at this table."""
    wrong: int = 0
    allowed_at: float = 0.0       # no key offer answered before this time


@dataclass(frozen=True)
class Tokens:
    """The table's bucket of answers to strangers' key offers."""
    left: float = EXCHANGE_BURST
    at: float = 0.0               # when `left` was counted


@dataclass(frozen=True)
class KeyOffer:
    address: str
    proved: bool                  # the address proved the code at this table before
    now: float


@dataclass(frozen=True)
class OfferVerdict:
    answer: bool
    tokens: Tokens                # the bucket after this offer
    retry_after: float = 0.0      # refused: seconds until trying again makes sense
    reason: str | None = None     # refused: why, for the dialer


def decide_offer(record: AddressRecord | None, tokens: Tokens, offer: KeyOffer) -> OfferVerdict:
    """Whether a key offer is answered (the host computes its SPAKE2 half).

    | the address                   | the table's tokens | verdict                            |
    |-------------------------------|--------------------|------------------------------------|
    | waiting after wrong codes     | any                | refused until its wait ends        |
    | proved the code here          | any                | answered, no token spent           |
    | a stranger                    | one left           | answered, one token spent          |
    | a stranger                    | none left          | refused until the next token comes |
    """
    left = min(EXCHANGE_BURST, tokens.left + (offer.now - tokens.at) * EXCHANGE_RATE)
    refilled = Tokens(left, offer.now)
    if record is not None and record.allowed_at > offer.now:
        wait = record.allowed_at - offer.now
        return OfferVerdict(False, refilled, wait,
                            "join refused: too many wrong join codes from your address; "
                            f"try again in {math.ceil(wait)} s")
    if offer.proved:
        return OfferVerdict(True, refilled)
    if left >= 1.0:
        return OfferVerdict(True, replace(refilled, left=left - 1.0))
    wait = (1.0 - left) / EXCHANGE_RATE
    return OfferVerdict(False, refilled, wait,
                        "join refused for now: the table is busy answering other joiners")


def after_wrong_code(record: AddressRecord | None, now: float) -> AddressRecord:
    """An address's record after one more wrong code (or an abandoned exchange)."""
    wrong = (record.wrong if record is not None else 0) + 1
    allowed_at = record.allowed_at if record is not None else 0.0
    if wrong >= FREE_GUESSES:
        allowed_at = now + min(MAX_WAIT, FIRST_WAIT * 2 ** (wrong - FREE_GUESSES))
    return AddressRecord(wrong, allowed_at)


@dataclass
class _Summary:
    """What the next summary line sums up."""
    wrong: int = 0
    turned_away: int = 0
    addresses: set[str] = field(default_factory=set)   # of the wrong codes
    due: bool = False


class GuessLimiter:
    """The table's records for `decide_offer`, and its summary line."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self._records: dict[str, AddressRecord] = {}
        self._proved: set[str] = set()       # addresses that proved the code here
        self._tokens = Tokens(EXCHANGE_BURST, reactor.seconds() if reactor else 0.0)
        self._summary = _Summary()

    def offer(self, address: str) -> OfferVerdict:
        """May a key offer from `address` be answered now? Counts a refused one."""
        verdict = decide_offer(self._records.get(address), self._tokens,
                               KeyOffer(address, address in self._proved,
                                        self.reactor.seconds()))
        self._tokens = verdict.tokens
        if not verdict.answer:
            self._summary.turned_away += 1
            self._summary_later()
        return verdict

    def proved(self, address: str) -> None:
        """`address` proved the code at this table: it spends no token from now on."""
        if len(self._proved) < MAX_ADDRESSES:
            self._proved.add(address)

    def wrong_code(self, address: str) -> None:
        if address not in self._records and len(self._records) >= MAX_ADDRESSES:
            self._records.pop(next(iter(self._records)))
        self._records[address] = after_wrong_code(self._records.get(address),
                                                  self.reactor.seconds())
        self._summary.wrong += 1
        if len(self._summary.addresses) < MAX_ADDRESSES:
            self._summary.addresses.add(address)
        self._summary_later()

    def _summary_later(self) -> None:
        if not self._summary.due:
            self._summary.due = True
            self.reactor.callLater(SUMMARY_AFTER, self._write_summary)

    def _write_summary(self) -> None:
        done, self._summary = self._summary, _Summary()
        log.warning("join code guesses in the last %g s: %d wrong %s from %d %s, %d key "
                    "%s turned away (an address waiting after wrong codes, or more than "
                    "%g a second from strangers)",
                    SUMMARY_AFTER, done.wrong, "code" if done.wrong == 1 else "codes",
                    len(done.addresses), "address" if len(done.addresses) == 1 else
                    "addresses", done.turned_away,
                    "offer" if done.turned_away == 1 else "offers", EXCHANGE_RATE)
