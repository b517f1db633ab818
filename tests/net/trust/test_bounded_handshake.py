"""Bounded before trust (issues 26, 34): a stranger's frame limit, deadlines and slots,
on twisted.internet.testing transports."""

import struct

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.transport.framing import FrameDecoder, encode_frame
from net.transport.handshake_limits import (FIRST_MESSAGE_DEADLINE, HANDSHAKE_DEADLINE,
                                            HANDSHAKE_MAX_FRAME, KEYED_DEADLINE,
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
    dialer = offered(conn, transport)
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32)))
    assert conn.ready
    return dialer


def offered(conn, transport):
    dialer = RawDialer("ABCDE")
    conn.dataReceived(dialer.offer())
    dialer.welcomed(FrameDecoder().feed(transport.value())[0])
    transport.clear()
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
    reactor.advance(FIRST_MESSAGE_DEADLINE)
    assert conn.closed and transport.disconnecting


def test_after_the_handshake_the_normal_limit_applies_even_within_the_same_read():
    reactor, host, conn, transport = listener()
    dialer = offered(conn, transport)
    hello = dialer.seal(make_hello(host.versions, b"p" * 16, seat_key=b"k" * 32))
    big = dialer.seal({"type": "ChatSent", "text": "x" * 100_000})
    conn.dataReceived(hello + big[:50_000])
    assert conn.ready and not conn.closed and conn.decoder.broken is None
    assert conn.decoder.pending_bytes == 50_000


def test_an_idle_stranger_is_closed_when_its_first_message_is_due():
    """Issue 34: an honest dialer's key offer goes the moment it connects; a stranger
    silent for FIRST_MESSAGE_DEADLINE (2 s, was the whole handshake's 10 s) is closed,
    and told why (an older peer that waits for the listener to speak first)."""
    reactor, host, conn, transport = listener()
    assert FIRST_MESSAGE_DEADLINE <= 2.0
    reactor.advance(FIRST_MESSAGE_DEADLINE - 0.1)
    assert not conn.closed and not transport.disconnecting
    reactor.advance(0.1)
    assert conn.closed and transport.disconnecting
    assert "no key offer" in FrameDecoder().feed(transport.value())[-1]["reason"]


def test_an_answered_stranger_that_sends_no_hello_is_closed_and_counted():
    reactor, host, conn, transport = listener()
    offered(conn, transport)
    reactor.advance(KEYED_DEADLINE)
    assert conn.closed and transport.disconnecting
    assert host.guess_limit._records["192.168.1.1"].wrong == 1   # the exchange cost: counted


def test_a_host_busy_past_the_deadline_reads_the_answer_before_closing():
    reactor, host, conn, transport = listener()
    reactor.advance(FIRST_MESSAGE_DEADLINE + 5)     # one long stall: the deadline is late
    assert not conn.closed
    handshake(host, conn, transport)                # the answer that waited is read
    reactor.advance(HANDSHAKE_DEADLINE)
    assert conn.ready and not conn.closed


def test_a_late_deadline_still_closes_an_idle_stranger():
    reactor, host, conn, transport = listener()
    reactor.advance(FIRST_MESSAGE_DEADLINE + 5)
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


def test_a_newcomer_beyond_its_addresss_share_takes_that_addresss_oldest_slot():
    """Issue 34 (was: refused at once, which let slot holders keep a friend out): the
    address's own oldest silent connection gives its slot and is told to try again."""
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    conns = []
    for _ in range(MAX_UNPROVEN_PER_ADDRESS):
        conns.append(built(factory, "10.0.0.9"))
        reactor.advance(0.01)
    newcomer = built(factory, "10.0.0.9")
    assert newcomer is not None and conns[0].closed and not conns[1].closed
    refusal = FrameDecoder().feed(conns[0].transport.value())[-1]
    assert refusal["type"] == "Refused" and refusal["retry"] == 1.0
    assert factory.unproven.open == MAX_UNPROVEN_PER_ADDRESS
    assert built(factory, "10.0.0.10") is not None  # another address has its own share


def test_a_newcomer_at_the_overall_cap_takes_a_slot_from_the_biggest_holder():
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    friend = built(factory, "10.9.9.1")
    crowd = []
    for i in range(MAX_UNPROVEN - 1):
        crowd.append(built(factory, f"10.0.0.{i % 8}"))    # 8 addresses hold the rest
        reactor.advance(0.01)
    assert factory.unproven.open == MAX_UNPROVEN
    newcomer = built(factory, "10.9.9.2")
    assert newcomer is not None and not friend.closed
    assert sum(c.closed for c in crowd) == 1 and crowd[0].closed
    reactor.advance(FIRST_MESSAGE_DEADLINE)         # the deadline closes the silent ones
    for c in crowd + [friend, newcomer]:
        assert c.closed
        c.connectionLost(None)                      # as Twisted would, once closed
    assert factory.unproven.open == 0


def test_answered_connections_keep_their_slots():
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False, )
    held = [built(factory, "10.0.0.9") for _ in range(MAX_UNPROVEN_PER_ADDRESS)]
    for conn in held:
        offered(conn, conn.transport)
    assert built(factory, "10.0.0.9") is None       # no silent one to evict: refused
    assert not any(c.closed for c in held)


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


def test_evictions_at_the_cap_are_summed_up_not_logged_each(caplog):
    reactor, host = host_session()
    factory = PeerFactory(host, dialer=False)
    for _ in range(MAX_UNPROVEN_PER_ADDRESS):
        built(factory, "10.0.0.9")
    caplog.clear()
    for _ in range(500):
        assert built(factory, "10.0.0.9") is not None
    reactor.advance(10.0)
    lines = [r for r in caplog.records if r.name == "net.transport.handshake_limits"]
    assert len(lines) == 2 and "500 connections took an older stranger's slot" \
        in lines[-1].getMessage()
