"""How each peer is connected, as the lobby says it (issue 39): the decision over what a
connection's end knows, and the kernel's round trip of a real loopback TCP connection.
The window shows them: tests/client/sessions/test_join_by_code_window.py."""

from __future__ import annotations

import socket
import sys

import pytest

from net.reach.peer_links import LinkFacts, link_kind, tcp_round_trip


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


class _Transport:
    def __init__(self, sock):
        self.sock = sock

    def getHandle(self):
        return self.sock


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
