"""Guessing the join code (issues 26, 34): the decision on a key offer as a table, then
floods of guesses in memory. A guesser is held to the table's rate of answers and one
summary log line per interval; it can no longer lock a friend out (issue 34: 25 wrong
codes from rotating addresses used to turn every stranger away for 60 s, then 2, 4, 8,
10 minutes)."""

import logging

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.transport.framing import FrameDecoder
from net.transport.peer import PeerConnection
from net.table.session import CODE_ALPHABET, SessionOptions, TableSession, new_join_code
from net.trust.guess_limit import (EXCHANGE_BURST, EXCHANGE_RATE, FREE_GUESSES, SUMMARY_AFTER,
                                   AddressRecord, KeyOffer, Tokens, after_wrong_code,
                                   decide_offer, guessing_chance)
from tests.net.fake_game import FakeEngine
from tests.net.raw_dialer import RawDialer, hello as make_hello

CODE = "ABCD-EFGH"
WAITING = AddressRecord(wrong=5, allowed_at=104.0)
CALM = AddressRecord(wrong=1, allowed_at=0.0)
FULL = Tokens(EXCHANGE_BURST, 100.0)
EMPTY = Tokens(0.0, 100.0)


@pytest.mark.parametrize("record, tokens, proved, answer, left, retry", [
    # an address waiting after wrong codes: refused until its wait ends, proved or not
    (WAITING, FULL, False, False, EXCHANGE_BURST, 4.0),
    (WAITING, FULL, True, False, EXCHANGE_BURST, 4.0),
    # a proved address (a player rejoining): answered, no token spent, even when none left
    (CALM, EMPTY, True, True, 0.0, 0.0),
    # a stranger: one token per answer while they last
    (None, FULL, False, True, EXCHANGE_BURST - 1, 0.0),
    (CALM, Tokens(1.0, 100.0), False, True, 0.0, 0.0),
    # none left: refused only until the next token comes, never a lock-out
    (None, EMPTY, False, False, 0.0, 1 / EXCHANGE_RATE),
    (None, Tokens(0.5, 100.0), False, False, 0.5, 0.5 / EXCHANGE_RATE),
])
def test_the_decision_on_a_key_offer(record, tokens, proved, answer, left, retry):
    verdict = decide_offer(record, tokens, KeyOffer("10.0.0.1", proved, now=100.0))
    assert verdict.answer is answer
    assert verdict.tokens.left == pytest.approx(left)
    assert verdict.retry_after == pytest.approx(retry)
    assert (verdict.reason is None) is answer


def test_tokens_come_back_at_the_rate_up_to_the_burst():
    later = decide_offer(None, EMPTY, KeyOffer("a", False, now=100.0 + 3 / EXCHANGE_RATE))
    assert later.answer and later.tokens.left == pytest.approx(2.0)
    calm = decide_offer(None, EMPTY, KeyOffer("a", False, now=10_000.0))
    assert calm.tokens.left == pytest.approx(EXCHANGE_BURST - 1)


def test_an_address_waits_after_its_free_guesses_and_the_wait_doubles():
    record = None
    for _ in range(FREE_GUESSES - 1):
        record = after_wrong_code(record, 50.0)
    assert record.allowed_at == 0.0
    record = after_wrong_code(record, 50.0)
    assert record.allowed_at == 51.0
    record = after_wrong_code(record, 50.0)
    assert record.allowed_at == 52.0


def test_a_generated_code_has_40_bits_and_the_evening_bound_is_tiny():
    code = new_join_code()
    assert len(code) == 9 and code[4] == "-"
    assert all(ch in CODE_ALPHABET for ch in code.replace("-", ""))
    assert len(CODE_ALPHABET) ** 8 == 2 ** 40
    assert guessing_chance() < 1e-6          # a 12-hour evening at the table's rate


# ---------------------------------------------------------------- floods, in memory
def table():
    reactor = MemoryReactorClock()
    host = TableSession.host(SessionOptions(code=CODE, interface="127.0.0.1"), port=7531,
                             players=3, reactor=reactor, engine=FakeEngine())
    return reactor, host


def dial(host, address, code):
    """One connection from `address` trying `code`: "turned away", "wrong" or "accepted"."""
    conn = PeerConnection(host, dialer=False)
    transport = StringTransport(peerAddress=IPv4Address("TCP", address, 50000))
    conn.makeConnection(transport)
    dialer = RawDialer(code)
    conn.dataReceived(dialer.offer())
    first = FrameDecoder().feed(transport.value())[0]
    if first["type"] == "Refused":
        return "turned away"
    dialer.welcomed(first)
    transport.clear()
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32)))
    outcome = "accepted" if conn.ready else "wrong"
    conn.connectionLost(None)
    return outcome


def rotating(i):
    return f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"


def test_guesses_from_rotating_addresses_are_held_to_the_rate_with_one_line_each(caplog):
    """29 guesses a second for two minutes, each from a new 127.x address: at most the
    table's rate is checked, and the log gets one summary line per interval."""
    caplog.set_level(logging.INFO)
    reactor, host = table()
    outcomes = []
    for i in range(29 * 120):
        outcomes.append(dial(host, rotating(i), "WRONGCOD"))
        reactor.advance(1 / 29)
    tried = outcomes.count("wrong")
    assert "accepted" not in outcomes
    assert tried <= EXCHANGE_BURST + EXCHANGE_RATE * 120 + 1, f"{tried} checked in 120 s"
    reactor.advance(SUMMARY_AFTER)
    lines = [r.getMessage() for r in caplog.records if r.name == "net.trust.guess_limit"]
    assert len(lines) <= 130 / SUMMARY_AFTER + 1, f"{len(lines)} lines in 130 s"


def test_a_friend_gets_in_at_once_after_a_burst_of_wrong_codes():
    """The issue-34 lock-out: 25 wrong codes from rotating addresses, then a friend with
    the code. Before: turned away for 60 s. Now: a token is back within 0.1 s."""
    reactor, host = table()
    for i in range(25):
        dial(host, rotating(i), "WRONGCOD")
    reactor.advance(1 / EXCHANGE_RATE)
    assert dial(host, "10.0.0.7", "abcd efgh") == "accepted"   # case and spaces ignored


def test_a_friend_gets_in_within_seconds_while_guesses_keep_coming():
    """A guesser at 29 a second, for ever; a friend who tries again when told to."""
    reactor, host = table()
    waited, outcome = 0.0, "turned away"
    for i in range(29 * 60):
        dial(host, rotating(i), "WRONGCOD")
        reactor.advance(1 / 29)
    while outcome != "accepted" and waited < 10:
        outcome = dial(host, "10.0.0.7", CODE)
        for j in range(15):                  # the friend tries again after 0.5 s
            dial(host, rotating(100_000 + int(waited * 29) + j), "WRONGCOD")
            reactor.advance(1 / 29)
        waited += 15 / 29
    assert outcome == "accepted", "the friend was kept out for 10 s"


def test_a_player_who_proved_the_code_is_not_held_by_the_rate():
    reactor, host = table()
    assert dial(host, "10.0.0.1", CODE) == "accepted"
    for i in range(3 * int(EXCHANGE_BURST)):
        dial(host, rotating(i), "WRONGCOD")
    assert dial(host, rotating(10_000), CODE) == "turned away"   # a stranger waits a bit
    assert dial(host, "10.0.0.1", CODE) == "accepted"            # a player rejoins
