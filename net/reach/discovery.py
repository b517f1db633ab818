"""Finding tables on the LAN with zeroconf (mDNS/DNS-SD), bounded in time.

Why zeroconf: `join` without an address should list the tables nearby with no setup.
Only the listen port, a name and the player count are announced; the join code is not.

Tests: tests/net/reach/test_discovery.py.
"""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from net.trust.peer_text import shown

if TYPE_CHECKING:
    from zeroconf import InterfaceChoice, ServiceInfo, ServiceStateChange, Zeroconf

log = logging.getLogger("net.reach.discovery")

SERVICE = "_shogun._tcp.local."


@dataclass(frozen=True)
class Table:
    name: str
    address: str          # "HOST:PORT"
    players: int


class Advertisement:
    """A registered table; `close()` withdraws it."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo) -> None:
        self.zc, self.info = zc, info

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


def _lan_addresses() -> list[str]:
    """This machine's IPv4 addresses (read from the adapters; nothing is sent)."""
    import ifaddr
    found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return found or ["127.0.0.1"]


def _interfaces(interfaces: Sequence[str] | None) -> InterfaceChoice | Sequence[str]:
    from zeroconf import InterfaceChoice
    return InterfaceChoice.All if interfaces is None else interfaces


def advertise(port: int, name: str, players: int, interfaces: Sequence[str] | None = None,
              zeroconf_class: Callable[..., Zeroconf] | None = None) -> Advertisement:
    from zeroconf import ServiceInfo, Zeroconf
    zc = (zeroconf_class or Zeroconf)(interfaces=_interfaces(interfaces))
    addresses = [a for a in (interfaces or []) if isinstance(a, str)] or _lan_addresses()
    safe = "".join(c for c in name if c.isalnum() or c in "-_")[:40] or "table"
    info = ServiceInfo(SERVICE, f"{safe}.{SERVICE}", port=port,
                       addresses=[socket.inet_aton(a) for a in addresses],
                       properties={"players": str(players), "proto": "1"})
    zc.register_service(info)
    return Advertisement(zc, info)


def browse(timeout: float = 3.0, interfaces: Sequence[str] | None = None,
           zeroconf_class: Callable[..., Zeroconf] | None = None) -> list[Table]:
    """Tables announced within `timeout` seconds (blocking; call before the reactor runs)."""
    from zeroconf import ServiceBrowser, Zeroconf
    zc = (zeroconf_class or Zeroconf)(interfaces=_interfaces(interfaces))
    names: list[str] = []

    def changed(zeroconf: Zeroconf, service_type: str, name: str,
                state_change: ServiceStateChange) -> None:
        if name not in names:
            names.append(name)

    browser = ServiceBrowser(zc, SERVICE, handlers=[changed])
    try:
        time.sleep(timeout)
        tables = []
        for name in list(names):
            info = zc.get_service_info(SERVICE, name, timeout=1000)
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
                     for k, v in (info.properties or {}).items()}
            try:
                players = int(props.get("players", "0"))
            except ValueError:
                players = 0
            tables.append(Table(shown(name.removesuffix("." + SERVICE), 60),
                                f"{info.parsed_addresses()[0]}:{info.port}", players))
        return tables
    finally:
        browser.cancel()
        zc.close()

