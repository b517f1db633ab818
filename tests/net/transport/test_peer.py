"""One connection on twisted.internet.testing transports: handshake and drops, byte-exact."""

import struct

from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.transport.framing import FrameDecoder, encode_frame
from net.transport.peer import MAX_OFFENCES, PeerConnection
from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.raw_dialer import RawDialer, hello as make_hello


def listener():
    reactor = MemoryReactorClock()
    host = TableSession.host(SessionOptions(code="ABCDE", interface="127.0.0.1"), port=7531,
                             players=3, reactor=reactor, engine=FakeEngine())
    conn = PeerConnection(host, dialer=False)
    transport = StringTransport()
    conn.makeConnection(transport)
    return reactor, host, conn, transport


def sent(transport):
    return FrameDecoder().feed(transport.value())


def offered(conn, transport, code="ABCDE"):
    """A dialer's key offer, answered: the dialer with its channel up."""
    dialer = RawDialer(code)
    conn.dataReceived(dialer.offer())
    welcome = sent(transport)[0]
    assert welcome["type"] == "Welcomed" and len(welcome["pake"]) == 33
    dialer.welcomed(welcome)
    transport.clear()
    return dialer


def test_the_host_listens_where_asked():
    reactor, host, conn, transport = listener()
    port, factory, backlog, interface = reactor.tcpServers[0]
    assert (port, interface) == (7531, "127.0.0.1")


def test_join_dials_the_address_given():
    reactor = MemoryReactorClock()
    TableSession.join(SessionOptions(interface="127.0.0.1"), "10.1.2.3:9999", code="X", reactor=reactor,
                      engine=FakeEngine())
    host, port = reactor.tcpClients[0][:2]
    assert (host, port) == ("10.1.2.3", 9999)      # recorded only: nothing is sent


def test_the_listener_says_nothing_before_the_dialers_key_offer():
    reactor, host, conn, transport = listener()
    assert transport.value() == b"" and conn.handshake.pake is None


def test_an_offer_then_a_good_hello_is_accepted():
    reactor, host, conn, transport = listener()
    dialer = offered(conn, transport)
    name = "Bodhidharma of Echigo"     # long enough not to turn up in ciphertext by chance
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16, name=name,
                                             seat_key=b"k" * 32)))
    assert [m["type"] for m in dialer.read(transport.value())] == ["Accepted", "LobbyChanged"]
    assert host.lobby["seats"][1]["name"] == name
    # nothing after the key exchange travels in clear
    assert b"LobbyChanged" not in transport.value()
    assert name.encode() not in transport.value()


def test_a_wrong_code_is_refused_and_disconnected():
    reactor, host, conn, transport = listener()
    dialer = offered(conn, transport, "WRONG")
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"p" * 16)))
    assert sent(transport) == [{"type": "Refused", "retry": None,
                                "reason": "join refused: the join code is wrong"}]
    assert transport.disconnecting


def test_garbage_before_the_handshake_is_counted_then_dropped():
    reactor, host, conn, transport = listener()
    for i in range(MAX_OFFENCES):
        assert not transport.disconnecting
        conn.dataReceived(struct.pack(">I", 1) + b"\xc1")
    assert transport.disconnecting
    assert len(host.offence_log) == MAX_OFFENCES
    assert sent(transport)[-1]["type"] == "Offended"


def test_a_frame_split_byte_by_byte_still_arrives():
    reactor, host, conn, transport = listener()
    dialer = RawDialer("ABCDE")
    for byte in (dialer.offer()[i:i + 1] for i in range(len(dialer.offer()))):
        conn.dataReceived(byte)
    dialer.welcomed(sent(transport)[0])
    transport.clear()
    data = dialer.seal(make_hello(host.versions, b"q" * 16,
                                                           role="spectator", name="Cy"))
    for i in range(len(data)):
        conn.dataReceived(data[i:i + 1])
    assert dialer.read(transport.value())[0]["type"] == "Accepted"
    assert conn in host.spectators


def test_a_reachability_probe_is_greeted_without_a_key_exchange():
    reactor, host, conn, transport = listener()
    conn.dataReceived(encode_frame({"type": "Probed"}))
    assert [m["type"] for m in sent(transport)] == ["Greeted"]
    assert transport.disconnecting and conn.handshake.pake is None
    assert host.guess_limit._records == {}          # no guess counted
