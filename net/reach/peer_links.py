"""How each peer at the table is connected (LAN, direct, UPnP, relay) and its round trip,
for the lobby (issue 39: "say in the lobby how each peer is connected").

Why here: the table knows its connections only as TCP streams; what such a stream *is*
depends on where it came from. A friend who joined by code through magic-wormhole reaches
the host's table from a loopback port of the host's own tunnel (net/reach/tunnel.py), so
the host tells a tunnelled link by its source port (`Invitations.tunnelled` records the
ports of the connections its tunnels made) and asks the tunnel whether it goes through the
relay. Every other link is a direct TCP connection, named by the other end's address.

The decision (`link_kind`) is pure over a typed record; the round trip of a direct link is
the kernel's own smoothed estimate for that TCP connection (TCP_INFO, Linux; nothing is
sent for it). A tunnelled link's round trip is what the friend measured through the tunnel
when it joined (a probe answered by the table: `Arrival.how`); the host has no end-to-end
measure of it and says so.

Tests: tests/net/reach/test_peer_links.py, tests/client/sessions/test_join_by_code_window.py.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from dataclasses import dataclass
from typing import Any

from net.reach.addresses import plain_host

# the kinds, as the lobby says them
THIS_MACHINE, LAN, DIRECT, UPNP, RELAY, WORMHOLE_DIRECT, WORMHOLE = (
    "this machine", "LAN", "direct", "UPnP", "relay", "direct through magic-wormhole",
    "through magic-wormhole")


@dataclass(frozen=True)
class LinkFacts:
    """What this peer knows about one connection."""
    remote_host: str                  # the other end's address as the socket sees it
    tunnel: str | None = None         # through magic-wormhole: "relay", "direct", "unknown"
    mapped: bool = False              # this peer accepted it on a port its router maps (UPnP)
    accepted: bool = True             # the other end dialled us


@dataclass(frozen=True)
class PeerLink:
    kind: str                         # one of the kinds above
    rtt: float | None                 # seconds; None: not measured


def link_kind(facts: LinkFacts) -> str:
    """LAN, direct, UPnP, relay (or this machine, or direct through magic-wormhole)."""
    if facts.tunnel is not None:
        return {"relay": RELAY, "direct": WORMHOLE_DIRECT}.get(facts.tunnel, WORMHOLE)
    try:
        address = ipaddress.ip_address(plain_host(facts.remote_host).split("%")[0])
    except ValueError:
        return DIRECT
    if address.is_loopback:
        return THIS_MACHINE
    if address.is_private or address.is_link_local:
        return LAN
    return UPNP if facts.mapped and facts.accepted else DIRECT


TCP_INFO_RTT = 68        # byte offset of tcpi_rtt (microseconds) in Linux's struct tcp_info


def tcp_round_trip(transport: Any) -> float | None:
    """The kernel's smoothed round trip of a TCP connection, in seconds (None where the
    platform does not say)."""
    option = getattr(socket, "TCP_INFO", None)
    handle = getattr(transport, "getHandle", None)
    if option is None or handle is None:
        return None
    try:
        info = handle().getsockopt(socket.IPPROTO_TCP, option, 104)
        (micros,) = struct.unpack_from("I", info, TCP_INFO_RTT)
    except (OSError, struct.error, AttributeError):
        return None
    return micros / 1e6 if micros else None


def table_links(table: Any, invitations: Any = None, arrival: Any = None,
                mapped: bool = False) -> dict[int, PeerLink]:
    """{seat: how its player is connected to me} for every seat I hold a live link to.

    `table`: the TableSession; `invitations` (host): its `Invitations`, whose tunnels
    carry friends who joined by code; `arrival` (friend): how I reached the host;
    `mapped`: the host's router maps its port (UPnP)."""
    roster = table.roster
    conns = [c for c in roster.conns if not c.closed]
    if roster.host_conn is not None and not roster.host_conn.closed \
            and roster.host_conn not in conns:
        conns.append(roster.host_conn)
    found: dict[int, PeerLink] = {}
    for conn in conns:
        seat = conn.seat if conn.seat is not None else (0 if conn is roster.host_conn else None)
        tcp = getattr(conn, "tcp", None)
        if seat is None or tcp is None:
            continue
        try:
            remote = tcp.getPeer()
        except Exception:
            continue
        tunnel, rtt = None, None
        if arrival is not None and arrival.tunnel is not None and seat == 0:
            tunnel, rtt = arrival.tunnel, arrival.round_trip      # my tunnel to the host
        elif invitations is not None and remote.port in invitations.tunnelled:
            link = invitations.links.get(invitations.tunnelled[remote.port])
            tunnel = "unknown" if link is None or not link.connected else \
                "relay" if link.through_relay else "direct"
        else:
            rtt = tcp_round_trip(tcp)
        kind = link_kind(LinkFacts(str(remote.host), tunnel, mapped, not conn.dialer))
        found[seat] = PeerLink(kind, rtt)
    return found
