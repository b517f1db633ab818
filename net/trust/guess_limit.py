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
- a stranger's offer that finds no token waits in line (issue 34, the key-offer flood):
  offers wait per address group (an IPv4 /24, an IPv6 /48: what one attacker gets
  cheaply) and the tokens go round the groups, the group served longest ago first
  (`next_group`). Why not refuse and let the stranger race again: a flood of
  precomputed offers at 1,000 a second won nearly every token that way, and a friend
  got in at 1 try in 100. In line a friend waits about (groups waiting) / `EXCHANGE_RATE`
  seconds, however fast any one group offers. The line holds at most `MAX_IN_LINE`
  offers; beyond it the oldest offer of the group with the most waiting is turned away
  (`overflow_group`) and told to try again;
- one address still waits after `FREE_GUESSES` wrong codes, doubling, up to `MAX_WAIT`
  (a guesser from one address gains nothing from the shared tokens); an exchange
  answered but never finished with a Hello counts as a wrong code (the host did the
  work, the stranger proved nothing);
- addresses that proved the code at this table (its players) spend no token, so a
  guesser cannot delay a player's rejoin.

What "an address" is (issue 47): every friend who came by code reaches the host from
127.0.0.1, so the records are kept per `net.trust.door_identity.Door` — a tunnel is an
identity of its own, and one friend's wrong codes into its own tunnel never make another
friend wait. An exchange abandoned in a tunnel that proved the code is not a wrong code
(`abandoned_is_wrong`): a relay that stalls holds a friend's redials, which then arrive
together after the friend gave up on them (before, each counted as a wrong code, and
the friend's rejoin waited out a lock-out its own table had earned).

Why one summary line: logging each guess lets a guesser flood the log (31,800 lines in
15 s were measured), so the limiter counts and writes one line per `SUMMARY_AFTER`
seconds of activity.

The decisions are pure functions over typed records: `decide_offer` (answer, refuse or
wait in line), `next_group` (whose turn), `overflow_group` (who gives way),
`abandoned_is_wrong` (whether an exchange never finished counts as a guess).

Tests: tests/net/trust/test_guess_budget.py (the decisions' tables, in-memory floods),
tests/net/trust/test_door_attacks.py (a real host, real guesser and flooder processes),
tests/net/trust/test_attacks.py (online guessing).
"""

from __future__ import annotations

import ipaddress
import logging
import math
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol, Sequence

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
MAX_IN_LINE = 64          # strangers' offers waiting for a token (as many as handshake slots)
DROPPED_RETRY = 0.5       # seconds: an offer turned away from a full line tries again after
BUSY = "join refused for now: the table is busy answering other joiners"


def address_group(address: str) -> str:
    """The group an address is served in: its IPv4 /24 or IPv6 /48 (an attacker's many
    addresses usually share one); anything else (a test's name) is its own group."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


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
    in_line: bool = False         # not answered yet: waits for its group's turn


def refilled(tokens: Tokens, now: float) -> Tokens:
    """The bucket at `now`: `EXCHANGE_RATE` tokens a second, at most `EXCHANGE_BURST`."""
    return Tokens(min(EXCHANGE_BURST, tokens.left + (now - tokens.at) * EXCHANGE_RATE), now)


def decide_offer(record: AddressRecord | None, tokens: Tokens, offer: KeyOffer,
                 waiting: int = 0) -> OfferVerdict:
    """Whether a key offer is answered (the host computes its SPAKE2 half); `waiting`:
    strangers' offers already in line.

    | the address                   | the table's tokens              | verdict                         |
    |-------------------------------|---------------------------------|---------------------------------|
    | waiting after wrong codes     | any                             | refused until its wait ends     |
    | proved the code here          | any                             | answered, no token spent        |
    | a stranger                    | one left, no one in line        | answered, one token spent       |
    | a stranger                    | none left, or others in line    | waits in line for its turn      |
    """
    now_tokens = refilled(tokens, offer.now)
    if record is not None and record.allowed_at > offer.now:
        wait = record.allowed_at - offer.now
        return OfferVerdict(False, now_tokens, wait,
                            "join refused: too many wrong join codes from your address; "
                            f"try again in {math.ceil(wait)} s")
    if offer.proved:
        return OfferVerdict(True, now_tokens)
    if now_tokens.left >= 1.0 and waiting == 0:
        return OfferVerdict(True, replace(now_tokens, left=now_tokens.left - 1.0))
    return OfferVerdict(False, now_tokens, in_line=True)


@dataclass(frozen=True)
class GroupInLine:
    """One address group's offers waiting for a token, as the line's choices see them."""
    group: str
    waiting: int
    first_since: float                # when its oldest waiting offer came
    served_at: float | None = None    # when an offer of this group was last answered


def next_group(line: Sequence[GroupInLine]) -> int:
    """Whose offer a new token answers (an index in `line`, which is not empty).

    | the groups waiting                   | served next                              |
    |--------------------------------------|------------------------------------------|
    | one never served (or forgotten)      | it (ties: the one waiting longest)       |
    | all served before                    | the one served longest ago               |

    So the tokens go round the groups: a group offering 1,000 a second gets one answer
    a round, as a friend's group with its one offer does.
    """
    return min(range(len(line)), key=lambda i: (
        line[i].served_at if line[i].served_at is not None else -math.inf,
        line[i].first_since))


def overflow_group(line: Sequence[GroupInLine]) -> int:
    """Whose oldest offer gives way when the line is full: the group with the most
    waiting (ties: the one served last), never a group with one offer while another
    has more."""
    return max(range(len(line)), key=lambda i: (
        line[i].waiting,
        line[i].served_at if line[i].served_at is not None else -math.inf))


def after_wrong_code(record: AddressRecord | None, now: float) -> AddressRecord:
    """An address's record after one more wrong code (or an abandoned exchange)."""
    wrong = (record.wrong if record is not None else 0) + 1
    allowed_at = record.allowed_at if record is not None else 0.0
    if wrong >= FREE_GUESSES:
        allowed_at = now + min(MAX_WAIT, FIRST_WAIT * 2 ** (wrong - FREE_GUESSES))
    return AddressRecord(wrong, allowed_at)


def abandoned_is_wrong(tunnel: bool, proved: bool) -> bool:
    """Whether a key exchange the table answered but the dialer never finished (no
    `Hello`) counts as a wrong code.

    | came through                         | counts as a wrong code |
    |--------------------------------------|------------------------|
    | an address (LAN, internet)           | yes                    |
    | a tunnel that has not proved the code | yes                    |
    | a tunnel that proved the code here   | no                     |

    Why: the host's work for nothing must cost a stranger (or an address could spend
    exchanges for free); but a tunnel that proved the code belongs to one friend whose
    program holds the code, and its abandoned exchanges are its redials that a stalled
    relay held until the friend gave up on them (issue 47 finding 6). A wrong code that
    is tried (a `Hello` that does not open) counts in every case."""
    return not (tunnel and proved)


@dataclass
class _Summary:
    """What the next summary line sums up."""
    wrong: int = 0
    turned_away: int = 0
    addresses: set[str] = field(default_factory=set)   # of the wrong codes
    due: bool = False


class OfferInLine:
    """A stranger's key offer waiting for a token: `answer` computes the table's half,
    `refuse` turns it away (the line was full) with the verdict to pass on."""

    def __init__(self, address: str, since: float, answer: Callable[[], None],
                 refuse: Callable[[OfferVerdict], None]) -> None:
        self.address = address
        self.group = address_group(address)
        self.since = since
        self.answer = answer
        self.refuse = refuse


class LimiterClock(Protocol):
    """The reactor's clock as the limiter uses it: `net.transport.reactor_types.Clock`
    (or a test's `Clock`), named here because net.trust sits below net.transport."""

    def seconds(self) -> float: ...

    def callLater(self, delay: float, callable: Callable[..., object],
                  *args: object) -> object: ...        # a DelayedCall


class GuessLimiter:
    """The table's records for `decide_offer`, its line of offers, and its summary line."""

    def __init__(self, reactor: LimiterClock) -> None:
        self.reactor = reactor
        # by address, or by tunnel (`net.trust.door_identity.Door.key`)
        self._records: dict[str, AddressRecord] = {}
        self._proved: set[str] = set()       # addresses (tunnels) that proved the code here
        self._tokens = Tokens(EXCHANGE_BURST, reactor.seconds() if reactor else 0.0)
        self._summary = _Summary()
        self._line: dict[str, deque[OfferInLine]] = {}    # group -> offers, oldest first
        self._served_at: dict[str, float] = {}            # group -> last answered
        self._waiting = 0
        self._serving: Any = None                         # the DelayedCall of the next token

    def offer(self, address: str, answer: Callable[[], None],
              refuse: Callable[[OfferVerdict], None]) -> OfferInLine | None:
        """A key offer from `address`: answered now (`answer` is called), refused now
        (`refuse`), or put in line; then the returned ticket is answered or refused later,
        unless `withdraw`n first (its connection closed)."""
        now = self.reactor.seconds()
        verdict = decide_offer(self._records.get(address), self._tokens,
                               KeyOffer(address, address in self._proved, now), self._waiting)
        self._tokens = verdict.tokens
        if verdict.answer:
            answer()
            return None
        if not verdict.in_line:
            self._turned_away()
            refuse(verdict)
            return None
        if self._waiting >= MAX_IN_LINE:
            self._drop_one()
        ticket = OfferInLine(address, now, answer, refuse)
        self._line.setdefault(ticket.group, deque()).append(ticket)
        self._waiting += 1
        self._serve_later()
        return ticket

    def withdraw(self, ticket: OfferInLine) -> None:
        """Its connection closed while it waited."""
        queue = self._line.get(ticket.group)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            self._waiting -= 1
            if not queue:
                del self._line[ticket.group]

    def _groups(self) -> list[GroupInLine]:
        return [GroupInLine(group, len(queue), queue[0].since, self._served_at.get(group))
                for group, queue in self._line.items()]

    def _pop(self, group: str) -> OfferInLine:
        queue = self._line[group]
        ticket = queue.popleft()
        self._waiting -= 1
        if not queue:
            del self._line[group]
        return ticket

    def _drop_one(self) -> None:
        groups = self._groups()
        ticket = self._pop(groups[overflow_group(groups)].group)
        self._turned_away()
        ticket.refuse(OfferVerdict(False, self._tokens, DROPPED_RETRY, BUSY))

    def _serve_later(self) -> None:
        if self._serving is not None and self._serving.active():
            return
        tokens = refilled(self._tokens, self.reactor.seconds())
        wait = max(0.0, (1.0 - tokens.left) / EXCHANGE_RATE)
        self._serving = self.reactor.callLater(wait, self._serve)

    def _serve(self) -> None:
        """Tokens came back: answer offers in line, one group after the other."""
        self._serving = None
        now = self.reactor.seconds()
        self._tokens = refilled(self._tokens, now)
        while self._waiting and self._tokens.left >= 1.0:
            groups = self._groups()
            group = groups[next_group(groups)].group
            ticket = self._pop(group)
            self._tokens = replace(self._tokens, left=self._tokens.left - 1.0)
            if group not in self._served_at and len(self._served_at) >= MAX_ADDRESSES:
                self._served_at.pop(next(iter(self._served_at)))
            self._served_at.pop(group, None)
            self._served_at[group] = now
            ticket.answer()
        if self._waiting:
            self._serve_later()

    def _turned_away(self) -> None:
        self._summary.turned_away += 1
        self._summary_later()

    def proved(self, address: str) -> None:
        """`address` proved the code at this table: it spends no token from now on."""
        if len(self._proved) < MAX_ADDRESSES:
            self._proved.add(address)

    def abandoned(self, address: str, tunnel: bool) -> None:
        """An exchange answered for `address` (an address or a tunnel's name) that was
        never finished with a Hello: a wrong code unless `abandoned_is_wrong` says not."""
        if abandoned_is_wrong(tunnel, address in self._proved):
            self.wrong_code(address)
        else:
            log.debug("an exchange through %s was not finished (a redial given up on while "
                     "the tunnel was stalled): not counted as a wrong code", address)

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
