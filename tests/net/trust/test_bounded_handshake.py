"""Bounded before trust (issue 26): a stranger's frame limit, deadline and cap, on
twisted.internet.testing transports."""

import struct

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.transport.framing import FrameDecoder, encode_frame
from net.transport.handshake_limits import (HANDSHAKE_DEADLINE, HANDSHAKE_MAX_FRAME,
                                            MAX_UNPROVEN, MAX_UNPROVEN_PER_ADDRESS,
                                            STALL_GRACE)
from net.transport.peer import PeerConnection, PeerFactory
from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.raw_dialer import RawDialer, hello as make_hello


def host_session():
    reactor = MemoryReactorClock()
    host = TableSession.host(SessionOptions(code="ABCDE", interface="127.0.0.1"), port=7531,
                             players=3, reactor=reactor, engine=FakeEngine())
    return reactor, host


def connect(conn):
    transport = StringTransport()
    conn.makeConnection(transport)
    return transport


def listener():
    reactor, host = host_session()
    conn = PeerConnection(host, dialer=False)
    return reactor, host, conn, connect(conn)


def handshake(host, conn, transport):
    """An honest dialer's handshake; returns it with the channel up."""
    welcome = FrameDecoder().feed(transport.value())[0]
    dialer = RawDialer("ABCDE")
    transport.clear()
    conn.dataReceived(dialer.answer(welcome))
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32)))
    assert conn.ready
    return dialer


def test_a_huge_length_prefix_before_the_handshake_is_dropped_without_buffering():
    reactor, host, conn, transport = listener()
    conn.dataReceived(struct.pack(">I", 1 << 20) + b"x" * 60_000)
    assert conn.closed and transport.disconnecting
    assert conn.decoder.pending_bytes == 0


def test_the_stranger_limit_is_a_few_kib_and_holds_the_largest_honest_frame():
    reactor, host, conn, transport = listener()
    assert conn.decoder.max_frame == HANDSHAKE_MAX_FRAME <= 16 * 1024
    # the largest honest handshake frame: a Refused with the longest reason allowed
    refusal = encode_frame({"type": "Refused", "reason": "r" * 2000})
    assert len(refusal) < HANDSHAKE_MAX_FRAME // 2
    conn.dataReceived(struct.pack(">I", HANDSHAKE_MAX_FRAME + 1))
    assert conn.closed


def test_a_partial_frame_holds_at_most_the_stranger_limit():
    reactor, host, conn, transport = listener()
    conn.dataReceived(struct.pack(">I", HANDSHAKE_MAX_FRAME) + b"x" * (HANDSHAKE_MAX_FRAME - 1))
    assert not conn.closed and conn.decoder.pending_bytes < HANDSHAKE_MAX_FRAME + 4
    reactor.advance(HANDSHAKE_DEADLINE)
    assert conn.closed and transport.disconnecting


def test_after_the_handshake_the_normal_limit_applies_even_within_the_same_read():
    reactor, host, conn, transport = listener()
    welcome = FrameDecoder().feed(transport.value())[0]
    dialer = RawDialer("ABCDE")
    conn.dataReceived(dialer.answer(welcome))
    hello = dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32))
    big = dialer.seal({"type": "ChatSent", "text": "x" * 100_000})
    conn.dataReceived(hello + big[:50_000])
    assert conn.ready and not conn.closed and conn.decoder.broken is None
    assert conn.decoder.pending_bytes == 50_000


def test_an_idle_stranger_is_closed_at_the_deadline():
    reactor, host, conn, transport = listener()
    reactor.advance(HANDSHAKE_DEADLINE - 0.1)
    assert not conn.closed and not transport.disconnecting
    reactor.advance(0.1)
    assert conn.closed and transport.disconnecting


def test_a_host_busy_past_the_deadline_reads_the_answer_before_closing():
    reactor, host, conn, transport = listener()
    reactor.advance(HANDSHAKE_DEADLINE + 5)         # one long stall: the deadline is late
    assert not conn.closed
    handshake(host, conn, transport)                # the answer that waited is read
    reactor.advance(HANDSHAKE_DEADLINE)
    assert conn.ready and not conn.closed


def test_a_late_deadline_still_closes_an_idle_stranger():
    reactor, host, conn, transport = listener()
    reactor.advance(HANDSHAKE_DEADLINE + 5)
    reactor.advance(STALL_GRACE)
    assert conn.closed and transport.disconnecting


def test_a_finished_handshake_has_no_deadline():
    reactor, host, conn, transport = listener()
    handshake(host, conn, transport)
    reactor.advance(HANDSHAKE_DEADLINE * 3)
    assert not conn.closed and not transport.disconnecting


def test_a_dial_that_never_hears_a_welcome_is_closed_at_the_deadline():
    reactor, host = host_session()
    conn = PeerConnection(host, dialer=True)
    host.pending_dials += 1
    transport = connect(conn)
    reactor.advance(HANDSHAKE_DEADLINE)
    assert conn.closed and transport.disconnecting


def built(factory, host_address, port=40000):
    conn = factory.buildProtocol(IPv4Address("TCP", host_address, port))
    if conn is not None:
        connect(conn)
    return conn


def test_strangers_beyond_the_cap_per_address_are_refused_at_once():
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    conns = [built(factory, "10.0.0.9") for _ in range(MAX_UNPROVEN_PER_ADDRESS)]
    assert all(c is not None for c in conns)
    assert built(factory, "10.0.0.9") is None       # closed before a byte is read
    assert built(factory, "10.0.0.10") is not None  # another address has its own share
    conns[0].connectionLost(None)                   # a slot comes back when one ends
    assert built(factory, "10.0.0.9") is not None


def test_strangers_beyond_the_overall_cap_are_refused_at_once():
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    conns = [built(factory, f"10.0.{i // 200}.{i % 200}") for i in range(MAX_UNPROVEN)]
    assert all(c is not None for c in conns) and factory.unproven.open == MAX_UNPROVEN
    assert built(factory, "10.9.9.9") is None
    reactor.advance(HANDSHAKE_DEADLINE)             # the deadline closes them all
    for c in conns:
        assert c.closed
        c.connectionLost(None)                      # as Twisted would, once closed
    assert factory.unproven.open == 0
    assert built(factory, "10.9.9.9") is not None


def test_a_proved_connection_gives_its_slot_back():
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    conn = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 40000))
    transport = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 40000))
    conn.makeConnection(transport)
    assert factory.unproven.open == 1
    handshake(host, conn, transport)
    assert factory.unproven.open == 0
    conn.connectionLost(None)
    assert factory.unproven.open == 0


def test_refusals_at_the_cap_are_summed_up_not_logged_each(caplog):
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    for _ in range(MAX_UNPROVEN_PER_ADDRESS):
        built(factory, "10.0.0.9")
    caplog.clear()
    for _ in range(500):
        assert built(factory, "10.0.0.9") is None
    reactor.advance(10.0)
    lines = [r for r in caplog.records if r.name == "net.transport.handshake_limits"]
    assert len(lines) == 2 and "refused 500 connections" in lines[-1].getMessage()
