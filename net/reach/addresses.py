"""Every address this machine can be reached at, and how a `join` address is read.

Why: friends at home need the one line to type on their side. A LAN address helps only
players in the same home; a global IPv6 address or the public address a router mapped
for us (net/reach/portmap.py) works across the internet. `host` prints them all with the exact
`join` command, most widely reachable first.

Tests: tests/net/reach/test_internet_addresses.py.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Iterable

DEFAULT_PORT = 7531


@dataclass(frozen=True)
class Reachable:
    """One address a peer may dial: `scope` says from where it works."""
    host: str
    port: int
    scope: str            # "public" (router mapping), "global IPv6", "LAN", "this machine"
    interface: str = ""

    @property
    def dial(self) -> str:
        """HOST:PORT as `join` reads it (IPv6 in brackets)."""
        return format_address(self.host, self.port)


class AddressError(ValueError):
    """A join address that cannot be read; the message says what was wrong."""


def format_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def plain_host(host: str) -> str:
    """An IPv4 peer seen through a dual-stack socket ("::ffff:192.0.2.7") as plain IPv4."""
    try:
        mapped = ipaddress.IPv6Address(host).ipv4_mapped
    except ValueError:
        return host
    return str(mapped) if mapped is not None else host


def parse_address(address: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """HOST[:PORT] → (host, port): `192.0.2.7:7531`, `[2001:db8::7]:7531`, `[::1]`,
    a bare IPv6 address `2001:db8::7` (then the default port), or a name `ann.example:7531`."""
    text = address.strip()
    if not text:
        raise AddressError("the address is empty; give HOST:PORT, e.g. 192.168.1.20:7531")
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise AddressError(f"{address!r} opens '[' for an IPv6 address but never closes it")
        host, rest = text[1:end], text[end + 1:]
        if rest and not rest.startswith(":"):
            raise AddressError(f"{address!r} has {rest!r} after the IPv6 address; "
                               "write [ADDRESS]:PORT")
        port_text = rest[1:] if rest else ""
        _check_ip6(host, address)
    elif text.count(":") > 1:          # a bare IPv6 address: every colon is the address's
        host, port_text = text, ""
        _check_ip6(host, address)
    else:
        host, _, port_text = text.partition(":")
        if not host:
            raise AddressError(f"{address!r} has a port but no host")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise AddressError(f"{address!r}: the port {port_text!r} is not a number from 1 to 65535")
    return host, int(port_text)


def _check_ip6(host: str, address: str) -> None:
    try:
        ipaddress.IPv6Address(host.split("%")[0])
    except ValueError:
        raise AddressError(f"{address!r}: {host!r} is not an IPv6 address") from None


def _kind(ip: str) -> str | None:
    """The scope an interface address gives, or None for one nobody else can dial."""
    addr = ipaddress.ip_address(ip.split("%")[0])
    if addr.is_loopback or addr.is_link_local or addr.is_multicast or addr.is_unspecified:
        return None
    if addr.version == 6:
        if addr.is_private:        # unique-local fd00::/8 and documentation ranges
            return "LAN IPv6"
        return "global IPv6"
    return "LAN" if addr.is_private else "public"


def interface_addresses() -> list[tuple[str, str]]:
    """(interface name, ip) for every address on this machine's interfaces."""
    import ifaddr
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            host = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            out.append((adapter.nice_name, host))
    return out


_ORDER = {"public": 0, "global IPv6": 1, "LAN": 2, "LAN IPv6": 3, "this machine": 4}


def reachable_addresses(port: int, mapped: Iterable[tuple[str, int]] = (),
                        interfaces: Iterable[tuple[str, str]] | None = None) -> list[Reachable]:
    """Every address a peer may dial to reach a table listening on `port` here, most
    widely reachable first; `mapped` are (public ip, port) pairs a router forwards to us.
    Loopback is listed only when nothing else is (a machine with no network)."""
    found: list[Reachable] = [Reachable(h, p, "public", "router") for h, p in mapped]
    for name, ip in (interface_addresses() if interfaces is None else interfaces):
        scope = _kind(ip)
        if scope is not None:
            found.append(Reachable(ip, port, scope, name))
    if not found:
        found.append(Reachable("127.0.0.1", port, "this machine", "lo"))
    unique = {(r.host, r.port): r for r in reversed(found)}
    return sorted(unique.values(), key=lambda r: _ORDER.get(r.scope, 9))


def join_lines(addresses: list[Reachable], code: str | None, prog: str = "./shogun") -> list[str]:
    """The lines `host` prints: where it can be reached and the exact command to join."""
    code_part = f" --code {code}" if code else ""
    lines = ["Players join with one of these (pick the one that fits where they are):"]
    for r in addresses:
        where = {"public": "over the internet, through the router's port mapping",
                 "global IPv6": "over the internet by IPv6",
                 "LAN": "from the same home network",
                 "LAN IPv6": "from the same home network, by IPv6",
                 "this machine": "from this machine only"}.get(r.scope, r.scope)
        lines.append(f"  {prog} join {r.dial}{code_part}    ({where})")
    return lines
