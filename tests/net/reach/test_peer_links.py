"""How each peer is connected, as the lobby says it (issue 39): which tunnel carries a link,
the decision over what a connection's end knows, and the kernel's round trip of a real
loopback TCP connection. The window shows them:
tests/client/sessions/test_join_by_code_window.py; a pair tunnel's link:
tests/net/table/test_pair_links.py."""

from __future__ import annotations

import socket
import sys

import pytest

from net.reach.peer_links import LinkFacts, Tunnels, link_kind, tcp_round_trip, tunnel_of
from net.reach.tunnel import Link

RELAYED = Link(True, True, "->relay:tcp:203.0.113.9:4001")
DIRECT = Link(True, False, "->tcp:11.0.0.2:40112")
DOWN = Link(False, False, "")


@pytest.mark.parametrize("facts, kind", [
    (LinkFacts("127.0.0.1"), "this machine"),
    (LinkFacts("::1"), "this machine"),
    (LinkFacts("192.168.1.20"), "LAN"),
    (LinkFacts("10.0.0.7"), "LAN"),
    (LinkFacts("::ffff:192.168.1.20"), "LAN"),           # through a dual-stack socket
    (LinkFacts("fe80::1%eth0"), "LAN"),
    (LinkFacts("fd12:3456::7"), "LAN"),                   # a home's unique local IPv6
    (LinkFacts("8.8.4.4"), "direct"),                     # a forwarded port, or I dialled it
    (LinkFacts("8.8.4.4", mapped=True), "UPnP"),          # came in through the router's mapping
    (LinkFacts("8.8.4.4", mapped=True, accepted=False), "direct"),   # I dialled out
    (LinkFacts("2a00:1450::7"), "direct"),                # global IPv6
    (LinkFacts("127.0.0.1", tunnel="relay"), "relay"),    # a tunnel's end is on loopback
    (LinkFacts("127.0.0.1", tunnel="direct"), "direct through magic-wormhole"),
    (LinkFacts("127.0.0.1", tunnel="unknown"), "through magic-wormhole"),
    (LinkFacts("not an address"), "direct"),
])
def test_a_link_is_named_by_where_its_other_end_is(facts, kind):
    assert link_kind(facts) == kind


@pytest.mark.parametrize("seat, source_port, tunnels, state", [
    (1, 7531, Tunnels(), None),                                       # a plain TCP link
    (0, 40001, Tunnels(to_host="relay"), "relay"),                    # my tunnel to the host
    (1, 40001, Tunnels(to_host="relay"), None),                       # ... carries seat 0 only
    (1, 40001, Tunnels(by_source_port={40001: RELAYED}), "relay"),    # host: a friend's tunnel
    (1, 40001, Tunnels(by_source_port={40001: DIRECT}), "direct"),
    (1, 40001, Tunnels(by_source_port={40001: None}), "unknown"),     # no status yet
    (1, 40002, Tunnels(by_source_port={40001: RELAYED}), None),       # another connection
    (2, 40003, Tunnels(by_seat={2: RELAYED}), "relay"),               # a pair tunnel to seat 2
    (2, 40003, Tunnels(by_seat={2: DIRECT}), "direct"),
    (2, 40003, Tunnels(by_seat={2: DOWN}), "unknown"),                # redialling
    (1, 40003, Tunnels(by_seat={2: RELAYED}), None),                  # seat 1: not through it
    (0, 40003, Tunnels(to_host="direct", by_seat={0: RELAYED}), "direct"),
])
def test_a_tunnelled_link_is_named_by_its_tunnel_not_its_loopback_end(
        seat, source_port, tunnels, state):
    assert tunnel_of(seat, source_port, tunnels) == state


class _Transport:
    def __init__(self, sock):
        self.sock = sock

    def getHandle(self):
        return self.sock


@pytest.mark.alone     # a real loopback connection, its round trip held under a second
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="TCP_INFO is Linux's")
def test_the_round_trip_is_the_kernels_estimate_for_that_connection():
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        accepted, _ = server.accept()
        with client, accepted:
            for _ in range(3):                     # an exchange gives the kernel samples
                client.sendall(b"x")
                accepted.recv(1)
                accepted.sendall(b"y")
                client.recv(1)
            rtt = tcp_round_trip(_Transport(client))
    assert rtt is not None and 0 < rtt < 1.0        # loopback: well under a second
    assert tcp_round_trip(object()) is None         # no socket (a subchannel, a fake)


def test_the_host_shows_a_tunnelled_friends_round_trip_timed_by_a_sealed_ping():
    """The host sees the friend at its tunnel's loopback end: the kernel's estimate would
    be the loopback's. The lobby's look asks a ping on that connection and shows the time
    to its answer, on the host's clock (before: `relay` with no round trip)."""
    from types import SimpleNamespace

    from twisted.internet.task import Clock

    from net.reach.peer_links import PeerLink, table_links
    from net.transport.round_trip import RoundTrip

    clock, sent = Clock(), []

    class Tcp:                        # the friend's connection, from the tunnel's port
        def getPeer(self):
            return SimpleNamespace(host="127.0.0.1", port=40001)

    friend = SimpleNamespace(seat=1, tcp=Tcp(), closed=False, dialer=False,
                             round_trip=RoundTrip(clock.seconds, sent.append))
    table = SimpleNamespace(roster=SimpleNamespace(conns=[friend], host_conn=None),
                            pair_links=SimpleNamespace(links={}))
    invitations = SimpleNamespace(tunnelled={40001: 1}, links={1: RELAYED})
    assert table_links(table, invitations) == {1: PeerLink("relay", None)}   # asked
    assert sent == [{"type": "Pinged", "ping": 1}]
    clock.advance(0.190)
    friend.round_trip.answered(1)
    clock.advance(1.0)
    assert table_links(table, invitations)[1].kind == "relay"
    assert abs(table_links(table, invitations)[1].rtt - 0.190) < 1e-9
