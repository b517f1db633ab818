"""How each peer at the table is connected (LAN, direct, UPnP, relay) and its round trip,
for the lobby (issue 39: "say in the lobby how each peer is connected").

Why here: the table knows its connections only as TCP streams; what such a stream *is*
depends on where it came from. A friend who joined by code through magic-wormhole reaches
the host's table from a loopback port of the host's own tunnel (net/reach/tunnel.py), so
the host tells a tunnelled link by its source port (`Invitations.tunnelled` records the
ports of the connections its tunnels made) and asks the tunnel whether it goes through the
relay. Two friends joined by a tunnel of their own (a pair tunnel, net/table/pair_links.py)
see each other at a loopback port too; theirs is told by the other's seat. Every other
link is a direct TCP connection, named by the other end's address.

The decisions (`tunnel_of`, `link_kind`) are pure over typed records; the round trip of a
direct link is the kernel's own smoothed estimate for that TCP connection (TCP_INFO,
Linux; nothing is sent for it). The kernel's estimate of a tunnelled link measures only
the loopback hop to the tunnel's end, so its round trip is timed end to end instead: a
sealed ping answered by the other table (`net.transport.round_trip`), on this peer's
reactor clock; until the first answer a friend shows what it measured through its tunnel
when it joined (a probe answered by the table: `Arrival.how`).

Tests: tests/net/reach/test_peer_links.py, tests/client/sessions/test_join_by_code_window.py.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Protocol, Sequence

from net.reach.addresses import plain_host
from net.reach.tunnel import Link
from net.transport.peer import TcpTransport
from net.transport.round_trip import RoundTrip

if TYPE_CHECKING:
    from net.reach.invitations import Invitations
    from net.reach.rendezvous import Arrival

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


def tcp_round_trip(transport: object) -> float | None:
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


def tunnel_round_trip(conn: LinkedConn) -> float | None:
    """A tunnelled link's round trip: the last ping answered on that sealed connection
    (`net.transport.round_trip`), and a new ping asked for the next look (one at a time:
    the lobby looks every second)."""
    conn.round_trip.ask()
    return conn.round_trip.measured


def tunnel_state(link: Link | None) -> str:
    """A tunnel's state as `LinkFacts.tunnel` says it, from magic-wormhole's last status."""
    if link is None or not link.connected:
        return "unknown"
    return "relay" if link.through_relay else "direct"


@dataclass(frozen=True)
class Tunnels:
    """The wormhole tunnels this peer holds, by what tells their connections apart."""
    to_host: str | None = None        # friend by code: its own tunnel's state (`Arrival.tunnel`)
    by_source_port: Mapping[int, Link | None] = field(default_factory=dict)
    #   host: its friends' tunnels, by the source port its table sees each one come from
    by_seat: Mapping[int, Link] = field(default_factory=dict)
    #   a pair tunnel (net/table/pair_links.py), by the other player's seat: both ends see
    #   that link come from or go to a loopback port of their own


def tunnel_of(seat: int, source_port: int, tunnels: Tunnels) -> str | None:
    """The state of the tunnel that carries my link to `seat` (None: a plain TCP link).
    A link from the host's tunnel, from a pair tunnel, or my own tunnel to the host (seat
    0) is named by that tunnel, not by its loopback end ("on this machine")."""
    if tunnels.to_host is not None and seat == 0:
        return tunnels.to_host
    if source_port in tunnels.by_source_port:
        return tunnel_state(tunnels.by_source_port[source_port])
    if seat in tunnels.by_seat:
        return tunnel_state(tunnels.by_seat[seat])
    return None


class LinkedConn(Protocol):
    """A table connection as the lobby's look reads it (`net.transport.peer.PeerConnection`)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def dialer(self) -> bool: ...

    @property
    def tcp(self) -> TcpTransport: ...

    @property
    def round_trip(self) -> RoundTrip: ...


class LinkedRoster(Protocol):
    """The table's connections (`net.table.shared.Roster`)."""

    @property
    def conns(self) -> Sequence[LinkedConn]: ...

    @property
    def host_conn(self) -> LinkedConn | None: ...


class PairTunnelLinks(Protocol):
    """The table's pair tunnels by the other player's seat (`net.table.pair_links`)."""

    @property
    def links(self) -> Mapping[int, Link]: ...


class LinkedTable(Protocol):
    """What `table_links` reads of a table session (`net.table.session.TableSession`;
    named here, not imported: net.reach sits below net.table)."""

    @property
    def roster(self) -> LinkedRoster: ...

    @property
    def pair_links(self) -> PairTunnelLinks: ...


def table_links(table: LinkedTable, invitations: Invitations | None = None,
                arrival: Arrival | None = None,
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
    tunnels = Tunnels(
        to_host=arrival.tunnel if arrival is not None else None,
        by_source_port={} if invitations is None else {
            port: invitations.links.get(friend)
            for port, friend in invitations.tunnelled.items()},
        by_seat=dict(table.pair_links.links))
    found: dict[int, PeerLink] = {}
    for conn in conns:
        seat = conn.seat if conn.seat is not None else (0 if conn is roster.host_conn else None)
        if seat is None:
            continue
        try:
            tcp = conn.tcp
            remote = tcp.getPeer()
        except Exception:
            continue
        tunnel = tunnel_of(seat, remote.port, tunnels)
        if tunnel is None:
            rtt = tcp_round_trip(tcp)
        else:
            rtt = tunnel_round_trip(conn)
            if rtt is None and arrival is not None and arrival.tunnel is not None \
                    and seat == 0:
                rtt = arrival.round_trip    # measured through my tunnel when I joined
        kind = link_kind(LinkFacts(str(remote.host), tunnel, mapped, not conn.dialer))
        found[seat] = PeerLink(kind, rtt)
    return found
