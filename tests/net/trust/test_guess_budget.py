"""Guessing limited for the whole table (issue 26): a guesser with a new 127.x source
address per guess is held to the table's budget, and the log gets one line per interval."""

import logging

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.transport.framing import FrameDecoder
from net.transport.peer import PeerConnection
from net.table.session import SessionOptions, TableSession
from net.trust.guess_limit import SUMMARY_AFTER, TABLE_BUDGET, TABLE_WINDOW
from tests.net.fake_game import FakeEngine
from tests.net.raw_dialer import RawDialer, hello as make_hello

CODE = "ABCDE"


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
    first = FrameDecoder().feed(transport.value())[0]
    if first["type"] == "Refused":
        return "turned away"
    dialer = RawDialer(code)
    transport.clear()
    conn.dataReceived(dialer.answer(first))
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32)))
    outcome = "accepted" if conn.ready else "wrong"
    conn.connectionLost(None)
    return outcome


def rotating(i):
    return f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"


def test_guesses_from_rotating_addresses_are_held_to_the_table_budget(caplog):
    """29 guesses a second for two minutes, each from a new 127.x address. Before: every
    one was tried (3,480 key checks) and logged. Now: the table's budget, then a wait
    that doubles; one summary line per interval."""
    caplog.set_level(logging.INFO)
    reactor, host = table()
    outcomes = []
    for i in range(29 * 120):
        outcomes.append(dial(host, rotating(i), "WRONG"))
        reactor.advance(1 / 29)
    tried = outcomes.count("wrong")
    assert "accepted" not in outcomes
    # the first window's budget, then (after a wait of one window) one more at most
    assert tried <= 2 * TABLE_BUDGET, f"{tried} guesses were checked in 120 s"
    assert all(outcomes[i] != "wrong" for i in range(TABLE_BUDGET, int(29 * TABLE_WINDOW)))
    reactor.advance(SUMMARY_AFTER)
    lines = [r.getMessage() for r in caplog.records if r.name == "net.trust.guess_limit"]
    assert len(lines) <= 130 / SUMMARY_AFTER + 1, f"{len(lines)} lines in 130 s"
    assert f"{TABLE_BUDGET} wrong codes from {TABLE_BUDGET} addresses" in lines[0]


def test_a_player_who_proved_the_code_is_not_turned_away_by_the_table_budget():
    reactor, host = table()
    assert dial(host, "10.0.0.1", CODE) == "accepted"
    for i in range(3 * TABLE_BUDGET):
        dial(host, rotating(i), "WRONG")
    assert dial(host, rotating(10_000), CODE) == "turned away"   # a stranger waits
    assert dial(host, "10.0.0.1", CODE) == "accepted"            # a player rejoins


def test_a_calm_window_lets_strangers_try_again():
    reactor, host = table()
    for i in range(TABLE_BUDGET):
        assert dial(host, rotating(i), "WRONG") == "wrong"
    assert dial(host, rotating(100), CODE) == "turned away"
    reactor.advance(TABLE_WINDOW)
    assert dial(host, rotating(101), CODE) == "accepted"
