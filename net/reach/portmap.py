"""Asking the home router to forward our listen port (UPnP-IGD through `miniupnpc`).

Why: every pair of players must open a TCP connection (the mesh), and a home router drops
connections from outside unless a port is forwarded. Most routers let a program ask for
that itself. Asking blocks for a second or two (an SSDP search, then SOAP calls), so the
reactor never calls this module directly: `map_later` runs it in Twisted's thread pool
and the mapping is removed when the reactor shuts down (the table closed).

The same external port as the listen port is asked for first: joiners announce their
listen port to the others, who dial the router's public address with it.

Tests: tests/net/reach/test_internet_addresses.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from net.reach.addresses import DEFAULT_PORT
from net.reach.reach_settings import ReachSettings
from net.transport.reactor_types import ShutdownReactor

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure

log = logging.getLogger("net.reach.portmap")

DESCRIPTION = "Shogun table"
FIXES = ("forward TCP port {port} to this computer in the router's settings, use IPv6, "
         "or join one VPN such as ZeroTier or Tailscale (docs/net.md, 'Beyond the LAN')")


class PortMapError(Exception):
    """No mapping: the message is a sentence for the player."""


@dataclass(frozen=True)
class Mapping:
    public_host: str      # the router's address on the internet side
    public_port: int
    local_host: str       # this machine's address as the router sees it
    local_port: int
    protocol: str = "TCP"


class Upnp(Protocol):
    """miniupnpc's `UPnP` object (a C extension without type information): the part the
    mapper uses. Its calls raise a bare Exception when the router says no."""
    discoverdelay: int       # milliseconds `discover` waits for routers
    lanaddr: str             # this machine's address as the router sees it

    def discover(self) -> int: ...

    def selectigd(self) -> object: ...

    def externalipaddress(self) -> str: ...

    def addportmapping(self, eport: int, proto: str, host: str, iport: int, desc: str,
                       remote: str) -> object: ...

    def addanyportmapping(self, eport: int, proto: str, host: str, iport: int, desc: str,
                          remote: str) -> int: ...

    def deleteportmapping(self, eport: int, proto: str) -> object: ...


def _new_upnp() -> Upnp:
    import miniupnpc
    upnp: Upnp = miniupnpc.UPnP()
    return upnp


class PortMapper:
    """One router's port mapping for one listen port: `open` then `close` (both block)."""

    def __init__(self, upnp_factory: Callable[[], Upnp] = _new_upnp,
                 discover_ms: int = 2000) -> None:
        self._factory = upnp_factory
        self._discover_ms = discover_ms
        self._upnp: Upnp | None = None
        self.mapping: Mapping | None = None

    def router_address(self) -> str:
        """The public address of a router that offers mappings (nothing is mapped);
        PortMapError when there is none, for `netcheck`."""
        return self._router(DEFAULT_PORT)[1]

    def _router(self, port: int) -> tuple[Upnp, str]:
        upnp = self._factory()
        upnp.discoverdelay = self._discover_ms
        fixes = FIXES.format(port=port)
        try:
            found = upnp.discover()
        except Exception as exc:       # miniupnpc raises a bare Exception when nothing
            log.info("UPnP discovery: %s", exc)  # answered (its text is errno's, "Success")
            found = 0
        if not found:
            raise PortMapError("No router answered the request for a port mapping (UPnP is "
                               f"off or not offered); players outside this network can reach "
                               f"you only if you {fixes}.")
        try:
            upnp.selectigd()
        except Exception as exc:
            raise PortMapError(f"No router here offers port mappings ({exc}); to be reached "
                               f"from outside, {fixes}.") from None
        try:
            public = upnp.externalipaddress()
        except Exception as exc:
            raise PortMapError(f"The router would not tell its public address ({exc}); {fixes}.") from None
        if not public:
            raise PortMapError(f"The router has no public address yet (not online?); {fixes}.")
        return upnp, public

    def open(self, port: int) -> Mapping:
        upnp, public = self._router(port)
        fixes = FIXES.format(port=port)
        try:
            upnp.addportmapping(port, "TCP", upnp.lanaddr, port, DESCRIPTION, "")
            public_port = port
        except Exception as exc:
            log.info("the router refused port %d as is (%s); asking for any port", port, exc)
            try:
                public_port = int(upnp.addanyportmapping(port, "TCP", upnp.lanaddr, port,
                                                         DESCRIPTION, ""))
            except Exception as exc2:
                raise PortMapError(f"The router refused to forward port {port} ({exc2}); "
                                   f"{fixes}.") from None
        self._upnp = upnp
        self.mapping = Mapping(public, public_port, upnp.lanaddr, port)
        return self.mapping

    def close(self) -> None:
        """Remove the mapping (a router keeps it otherwise, even after we are gone)."""
        if self.mapping is None or self._upnp is None:
            return
        mapping, self.mapping = self.mapping, None
        try:
            self._upnp.deleteportmapping(mapping.public_port, mapping.protocol)
        except Exception as exc:
            log.warning("could not remove the port mapping %d on the router: %s",
                        mapping.public_port, exc)


def wanted(interface: str, settings: ReachSettings) -> bool:
    """Map a port unless told not to (`settings.portmap`, SHOGUN_NET_PORTMAP=off) or
    listening on loopback only (tests: nothing outside this machine should be asked)."""
    if not settings.portmap:
        return False
    return not interface.startswith("127.") and interface != "::1"


def map_later(reactor: ShutdownReactor, port: int, on_mapped: Callable[[Mapping], None],
              on_failed: Callable[[str], None],
              mapper: PortMapper | None = None) -> PortMapper:
    """Ask for the mapping in a thread; remove it before the reactor shuts down."""
    from twisted.internet.threads import deferToThread

    mapper = mapper or PortMapper()

    def remove() -> Deferred[None] | None:
        if mapper.mapping is not None:
            return deferToThread(mapper.close)
        return None

    def mapped(mapping: Mapping) -> None:
        reactor.addSystemEventTrigger("before", "shutdown", remove)
        on_mapped(mapping)

    def failed(failure: Any) -> None:           # Twisted's Failure: its `check` is untyped
        if failure.check(PortMapError):
            on_failed(failure.getErrorMessage())
        else:
            on_failed(f"Asking the router for a port mapping failed: {failure.getErrorMessage()}.")

    deferToThread(mapper.open, port).addCallbacks(mapped, failed)
    return mapper
