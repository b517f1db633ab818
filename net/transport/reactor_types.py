"""The reactor as the network layer uses it: a clock, TCP, and a trigger at shutdown.

Why Protocols: Twisted declares its reactor with zope interfaces, which mypy (without a
zope plugin) reads as methods taking no `self`, so the reactor itself never satisfies
them. `net` names here the part it calls; the program's edge (cli/runner.py, the
window's `client.sessions.reactor_pump`) casts Twisted's reactor to it once, and tests
pass `twisted.internet.task.Clock` or `tests/net/fakenet.py`. Where Twisted's own
functions want a clock (`Deferred.addTimeout`, `task.deferLater`, `LoopingCall.clock`),
`twisted_clock` hands the same object back under Twisted's name.

Tests: every test under tests/net that passes a reactor (a fake clock or a real one).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, cast

from twisted.internet.interfaces import IReactorTCP, IReactorTime
from twisted.internet.protocol import ClientFactory, Factory


class DelayedCall(Protocol):
    """What `callLater` returns (Twisted's `IDelayedCall`, the part the table uses)."""

    def active(self) -> bool: ...

    def cancel(self) -> None: ...


class HostAddress(Protocol):
    """A TCP address (Twisted's `IPv4Address`/`IPv6Address`, the part `net` reads)."""

    @property
    def host(self) -> str: ...

    @property
    def port(self) -> int: ...


class ListeningPort(Protocol):
    def getHost(self) -> HostAddress: ...

    def stopListening(self) -> object: ...


class TcpConnector(Protocol):
    """What `connectTCP` returns (Twisted's `IConnector`, the part `net` calls)."""

    def disconnect(self) -> None: ...


class Clock(Protocol):
    """The reactor's clock (`twisted.internet.task.Clock` in tests)."""

    def seconds(self) -> float: ...

    def callLater(self, delay: float, callable: Callable[..., object],
                  *args: object) -> DelayedCall: ...


class NetReactor(Clock, Protocol):
    """The reactor as the table and `net.reach` use it: a clock and TCP. Twisted's
    reactor (cast once at the program's edge) or a test's `FakeNet`."""

    def listenTCP(self, port: int, factory: Factory,
                  interface: str = "") -> ListeningPort: ...

    def connectTCP(self, host: str, port: int, factory: ClientFactory,
                   timeout: float = 30) -> TcpConnector: ...


class ShutdownReactor(NetReactor, Protocol):
    """A reactor that also runs a function before it stops (the router's port mapping is
    removed then, `net.reach.portmap.map_later`)."""

    def addSystemEventTrigger(self, phase: str, eventType: str,
                              callable: Callable[..., object], *args: object) -> object: ...


def twisted_clock(clock: Clock) -> IReactorTime:
    """`clock` under the name Twisted's own functions give it (cast: zope interfaces)."""
    return cast(IReactorTime, clock)


def twisted_tcp(reactor: NetReactor) -> IReactorTCP:
    """`reactor` under the name Twisted's endpoints give it (cast: zope interfaces)."""
    return cast(IReactorTCP, reactor)
