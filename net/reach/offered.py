"""Which of a host's offered addresses a friend probes: a handful, of plausible scope (issue 47,
finding 4).

Why: a friend by code probes the addresses the host's `Offer` lists, and answers how it
will reach the table. The host is whoever holds the wormhole code, so the list is a
stranger's choice: before, the friend dialled all 32 addresses it was given (a hidden
service on the friend's own loopback received a `Probed` frame) and sent back 2,000
characters of per-address results ("reached / refused / something that is not a Shogun
table answered"): a port scan from inside the friend's home, with the report. Now
`to_probe` (pure, over typed records) keeps at most `MAX_PROBES` addresses, each one a
table could honestly be reached at from here, judged by the address itself, never by the
scope the host claims:

- an IP address written as such (a name would make the friend look it up: the host's
  program lists addresses, never names); no unspecified, multicast, broadcast or reserved
  address;
- loopback, and this machine's own addresses, only when the friend's own table is on
  loopback (`FriendSide.local`: a test, a machine with no network): otherwise a host
  naming them is pointing at the friend's own services;
- link-local never (an address without a network of its own; a router's or a printer's);
- a private (LAN) address (10/8, 172.16/12, 192.168/16, IPv6 unique-local fc00::/7), or
  one of the shared address space of carrier-grade NAT and the VPNs (100.64.0.0/10), only inside a network one of the friend's interfaces is on
  (the same home, the same VPN): elsewhere it is somebody else's LAN, seen from here
  the friend's own;
- a global address (the host's router mapping, global IPv6): always;
- each IP once (a table listens on one port; its router mapping is another IP), at most
  `MAX_PROBES` in the host's order (most widely reachable first).

The friend answers the host with a fixed reason (`rendezvous.Choice`), never with what it
found at each address; its own terminal shows its own probes.

Tests: tests/net/reach/test_offered.py (the table), tests/net/reach/test_offer_attacks.py
(a hostile host process).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from net.reach.addresses import Reachable

MAX_PROBES = 4
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class FriendSide:
    """What the friend knows of its own side when an offer comes."""
    local: bool = False                            # its table is on loopback
    networks: tuple[IPNetwork, ...] = ()           # the networks its interfaces are on
    own: frozenset[IPAddress] = field(default_factory=frozenset)   # its own addresses

    @classmethod
    def here(cls, local: bool) -> FriendSide:
        """This machine's side (its interfaces through ifaddr)."""
        import ifaddr
        networks: list[IPNetwork] = []
        own: set[IPAddress] = set()
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                host = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
                try:
                    address = ipaddress.ip_address(str(host).split("%")[0])
                    networks.append(ipaddress.ip_network(f"{address}/{ip.network_prefix}",
                                                         strict=False))
                except ValueError:
                    continue
                own.add(address)
        return cls(local, tuple(networks), frozenset(own))


@dataclass(frozen=True)
class Judged:
    """One offered address and what the friend does with it: `probe`, or why not."""
    offered: Reachable
    probe: bool
    why: str = ""          # for an address not probed: "not an IP address", ...


def ip_of(host: str) -> IPAddress | None:
    """The offered host as an IP address, or None (a name, a scope id, anything else)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id is not None:
        return None          # "fe80::1%eth0": a scope id is text of the host's choosing
    return ip


LAN = tuple(ipaddress.ip_network(n) for n in
            ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"))


def on_loopback(interface: str) -> bool:
    """Is a table listening on `interface` on loopback only (a test, a machine with no
    network)? Then loopback addresses are where its players are; otherwise a stranger
    naming one is pointing at this machine's own services."""
    return interface.startswith("127.") or interface == "::1"


def scope_refusal(ip: IPAddress, side: FriendSide) -> str:
    """Why this machine would not dial this IP for a table ('' when it may): the scope
    rules above, for an `Offer`'s addresses and for the addresses a host gives in
    `GameStarted` alike (net/table/policy/mesh_addresses.py)."""
    if ip.version == 6 and ip.ipv4_mapped is not None:     # ::ffff:a.b.c.d dials a.b.c.d
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip in side.own:
        return "" if side.local else "this computer's own address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved or \
            ip == ipaddress.IPv4Address("255.255.255.255"):
        return "not an address a table listens at"
    if any(ip in net for net in LAN if net.version == ip.version):
        if any(ip in net for net in side.networks if net.version == ip.version
               and net.prefixlen > 0):
            return ""
        return "a private address of another network"
    return ""


def judge(offered: Sequence[Reachable], side: FriendSide) -> list[Judged]:
    """Each offered address, in the host's order, with whether the friend probes it."""
    out: list[Judged] = []
    seen: set[IPAddress] = set()
    probed = 0
    for address in offered:
        ip = ip_of(address.host)
        why = "not an IP address" if ip is None else scope_refusal(ip, side)
        if not why and ip in seen:
            why = "an address offered twice"
        if not why and probed >= MAX_PROBES:
            why = "beyond the addresses a friend tries"
        if not why and ip is not None:
            seen.add(ip)
            probed += 1
        out.append(Judged(address, not why, why))
    return out


def to_probe(offered: Sequence[Reachable], side: FriendSide) -> list[Reachable]:
    """The addresses the friend probes: at most `MAX_PROBES`, each of plausible scope,
    written in their canonical form (what the friend shows is its own text, not the
    host's)."""
    out = []
    for j in judge(offered, side):
        ip = ip_of(j.offered.host)
        if j.probe and ip is not None:
            out.append(Reachable(str(ip), j.offered.port, j.offered.scope[:32]))
    return out


def not_tried(judged: Iterable[Judged]) -> int:
    """How many offered addresses were left untried."""
    return sum(1 for j in judged if not j.probe)


__all__ = ["FriendSide", "Judged", "MAX_PROBES", "ip_of", "judge", "not_tried", "on_loopback",
           "scope_refusal", "to_probe"]
