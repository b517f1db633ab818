"""The table's TCP connections carried over a dilated magic-wormhole (the relay path).

Why a module of its own: the table knows only TCP addresses. When a friend cannot dial
the host's table directly, both sides "dilate" the wormhole that introduced them
(magic-wormhole's long-lived connection: a direct TCP connection when one of its hints
answers, else the transit relay) and this module joins the ends, as `fowl` does:

- the friend listens on a port of its own loopback (`Forwarder`); every TCP connection
  its table session makes there (the join, and each redial after a dropped link) opens
  one subchannel of the dilated wormhole;
- the host answers each subchannel with a TCP connection to its own table port
  (`serve_table`).

The bytes carried are the table's own frames, sealed end to end by the table's key
exchange; the dilated connection adds its own Noise encryption under the wormhole key.
The relay sees neither key. When the dilated connection breaks, magic-wormhole redials
it (a new "generation") and the subchannels wait; the table's own heartbeats see the
silence and treat it as any dropped link.

Tests: tests/net/reach/test_tunnel.py (loopback, a mailbox and a relay in the test's
reactor), tests/net/reach/test_internet_rendezvous.py (homes behind NAT).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

import logging

from twisted.internet import protocol

from net.transport.reactor_types import (Clock, HostAddress, NetReactor, twisted_clock,
                                         twisted_tcp)

if TYPE_CHECKING:
    from twisted.python.failure import Failure

SUBPROTOCOL = "shogun-table"      # the subchannels' name on both sides
log = logging.getLogger("net.reach.tunnel")
TAMPERED = ("a record through the tunnel failed its authentication (bytes altered, added or "
            "dropped on the way: by the relay or the network); nothing of it reached the "
            "table, and magic-wormhole connects the tunnel again")


@dataclass(frozen=True)
class Link:
    """How the dilated wormhole is connected right now (from magic-wormhole's status)."""
    connected: bool
    through_relay: bool
    description: str      # magic-wormhole's hint: "->relay:tcp:HOST:PORT", "->tcp:HOST:PORT"

    @property
    def where(self) -> str:
        """HOST:PORT of the relay or of the other side."""
        return self.description.split("tcp:", 1)[-1]


def link_of(status: object) -> Link:
    """A magic-wormhole `DilationStatus` read as a `Link`."""
    # only magic-wormhole's `ConnectedPeer` has a hint description (its status classes
    # live in a private module, so it is read by what it holds)
    hint = getattr(getattr(status, "peer_connection", None), "hint_description", None)
    if isinstance(hint, str):
        return Link(True, "relay" in hint, hint)
    return Link(False, False, "")


def no_delay_on_dilated_connections() -> None:
    """Nagle's algorithm off on magic-wormhole's own TCP connections (direct or to the relay).

    Why: magic-wormhole 0.24 leaves it on, so a small record written while the previous one
    is not yet acknowledged waits for that acknowledgement (up to the peer's delayed-ACK
    time, 40 ms on Linux). Measured in the lab with no added delay, the round trip of a
    probe through the relay: 77 ms as magic-wormhole leaves it, 54 ms with this, 5 ms when
    the relay also sets TCP_NODELAY (magic-wormhole-transit-relay 0.5.0 does not; the
    public relay's part is not ours to change). The table's own connections set
    TCP_NODELAY for the same reason. Patched once, on the class: there is no option."""
    from wormhole._dilation.connection import DilatedConnectionProtocol as Dilated
    if getattr(Dilated, "_shogun_no_delay", False):
        return
    made = Dilated.connectionMade

    def connectionMade(self: protocol.Protocol) -> None:
        no_delay = getattr(self.transport, "setTcpNoDelay", None)
        if no_delay is not None:
            no_delay(True)
        made(self)
    Dilated.connectionMade = connectionMade
    Dilated._shogun_no_delay = True



REDIAL_RELAY_EVERY = 3.0     # seconds between looks at a tunnel that is not connected


class SubchannelListener(Protocol):
    """magic-wormhole's listener for one subprotocol (`listener_for`), the part we call."""

    def listen(self, factory: protocol.Factory) -> object: ...    # a Deferred


class Dilated(Protocol):
    """A dilated wormhole (magic-wormhole 0.24's `DilatedWormhole`, untyped there): the
    part the tunnels call. Its connector is an endpoint (`_connect_other_end`)."""

    def listener_for(self, name: str) -> SubchannelListener: ...

    def connector_for(self, name: str) -> object: ...

    def when_dilated(self) -> object: ...                          # a Deferred


class SpliceWire(Protocol):
    """One end's transport: a TCP connection or a subchannel (zope interfaces, which
    mypy cannot read; the part the splice calls)."""

    def write(self, data: bytes) -> None: ...

    def loseConnection(self) -> None: ...

    def getHost(self) -> HostAddress: ...


_observing = False


def say_when_records_fail_authentication() -> None:
    """Log, in this program's log, each record the tunnel refused because its Noise check
    failed.

    Why: magic-wormhole drops such a connection (and reconnects) but says so only in
    Twisted's log, which this program does not show: a relay that tampers with the table's
    bytes would look like a flaky link. The table's own frames are sealed as well (its own
    key exchange), so nothing the relay alters, adds or drops reaches a game."""
    global _observing
    if _observing:
        return
    _observing = True
    from twisted.logger import globalLogPublisher

    def observe(event: dict[str, object]) -> None:
        why = event.get("why")
        if isinstance(why, str) and why.startswith("bad inbound noise"):
            log.warning(TAMPERED)
    # a plain callable serves as an observer (Twisted's interfaces are zope's: cast)
    globalLogPublisher.addObserver(cast(Any, observe))


class RelayRedial:
    """Dial the relay again while a dilated wormhole is not connected.

    Why: magic-wormhole 0.24's Dilation dials the relay once per connection generation. When
    the relay dies mid-game both sides start a new generation at once, find the relay gone,
    and then wait for ever: a relay that comes back (restarted, or the path to it healed)
    is never dialled again, and the table stays paused. Every `every` seconds, while there
    is no connection and no attempt open, this hands the relay hint to the generation's
    connector again (`got_hints`: its own input for hints, which dials them while it is
    connecting and is ignored once it is connected). magic-wormhole offers no option for
    it, so the manager and connector are read by their attribute names (0.24)."""

    def __init__(self, reactor: Clock, dilated: Dilated, every: float = REDIAL_RELAY_EVERY) -> None:
        from twisted.internet.task import LoopingCall
        self.dilated = dilated
        self.redials = 0
        self.loop = LoopingCall(self.look)
        self.loop.clock = twisted_clock(reactor)
        self.loop.start(every, now=False)

    def look(self) -> None:
        manager = getattr(self.dilated, "_manager", None)
        connector = getattr(manager, "_connector", None)
        if connector is None or getattr(manager, "_connection", None) is not None:
            return
        relays = getattr(connector, "_transit_relays", None)
        if not relays or getattr(connector, "_pending_connections", None) \
                or getattr(connector, "_winning_connection", None) is not None:
            return                  # no relay, an attempt is open, or it is connected
        try:
            connector.got_hints(relays)
        except Exception:           # a stopped connector (the wormhole closed) takes none
            return
        self.redials += 1

    def stop(self) -> None:
        if self.loop.running:
            self.loop.stop()


class _End(protocol.Protocol):
    """One end of a splice: what arrives before the other end exists is kept for it.

    Why not twisted.protocols.portforward: it pauses the accepting side until the other
    connects, and pausing a subchannel fails in magic-wormhole 0.24 (its inbound flow
    control calls a method its connection does not have). The table's frames are small
    and bounded (1 MiB), so keeping them in memory for the few milliseconds is fine."""

    def __init__(self) -> None:
        self.other: _End | None = None
        self.waiting: list[bytes] = []
        self.lost = False

    @property
    def wire(self) -> SpliceWire:
        """The transport: a TCP connection or a subchannel."""
        return cast(SpliceWire, self.transport)

    def connectionMade(self) -> None:
        no_delay = getattr(self.transport, "setTcpNoDelay", None)
        if no_delay is not None:          # a TCP end: the frames are small, latency counts
            no_delay(True)

    def dataReceived(self, data: bytes) -> None:
        if self.other is None:
            self.waiting.append(data)
        elif not self.other.lost:
            # (a subchannel closed by the far side takes no more: bytes the table sent
            # meanwhile go nowhere, as on any closed link; writing them raised inside
            # magic-wormhole, seen after a stalled relay flowed again: issue 47)
            self.other.wire.write(data)

    def connectionLost(self, reason: Failure | None = None) -> None:
        self.lost = True
        if self.other is not None:
            self.other.wire.loseConnection()


def _splice(first: _End, second: _End) -> None:
    """Join two ends once the second is connected."""
    first.other, second.other = second, first
    if first.lost:
        # the end that asked for this one is gone (a friend's redial given up while a
        # relay held the tunnel): what it sent is stale, and a table given it would do a
        # key exchange whose answer nobody reads (issue 47: a stalled relay's redials
        # left the host 3.6 s deaf); the table sees a bare connection, closed
        first.waiting.clear()
        second.wire.loseConnection()
        return
    for data in first.waiting:
        second.wire.write(data)
    first.waiting.clear()


def _connect_other_end(first: _End, endpoint: Any,
                       then: Callable[[_End], None] | None = None) -> None:
    """Connect `endpoint` and splice it to `first`; close `first` when it fails."""
    from twisted.internet.protocol import Factory

    def connected(second: _End) -> None:
        if then is not None:
            then(second)
        _splice(first, second)
    d = endpoint.connect(Factory.forProtocol(_End))
    d.addCallbacks(connected, lambda _failure: first.wire.loseConnection())


class _ToTable(_End):
    """Host: a subchannel the friend opened; its other end is the table's TCP port."""

    def connectionMade(self) -> None:
        from twisted.internet.endpoints import TCP4ClientEndpoint, TCP6ClientEndpoint
        server: _TableServer = self.factory
        kind = TCP6ClientEndpoint if ":" in server.table_host else TCP4ClientEndpoint
        _connect_other_end(self, kind(twisted_tcp(server.reactor), server.table_host,
                                      server.table_port),
                           lambda second: server.connected(second.wire.getHost().port))


class _TableServer(protocol.Factory):
    protocol = _ToTable

    def __init__(self, reactor: NetReactor, table_host: str, table_port: int,
                 connected: Callable[[int], None]) -> None:
        self.reactor, self.table_host, self.table_port = reactor, table_host, table_port
        self.connected = connected


def table_end(interface: str) -> str:
    """Where a tunnel's far end connects to this machine's table: its listen interface,
    or loopback when it listens on every address."""
    return interface if interface not in ("", "::", "0.0.0.0") else "127.0.0.1"


def serve_table(reactor: NetReactor, dilated: Dilated, table_host: str, table_port: int,
                connected: Callable[[int], None] = lambda _port: None) -> object:
    """Host: every subchannel the friend opens becomes a TCP connection to the table
    (`connected(its local port)`: the table sees the friend come from that port).
    A Deferred that fires once listening."""
    return dilated.listener_for(SUBPROTOCOL).listen(
        _TableServer(reactor, table_host, table_port, connected))


class _ToSubchannel(_End):
    """Friend: one of the table session's local connections, carried over a new subchannel."""

    def connectionMade(self) -> None:
        super().connectionMade()
        forwarder: Forwarder = self.factory.forwarder
        _connect_other_end(self, forwarder.dilated.connector_for(SUBPROTOCOL))


class Forwarder:
    """Friend: a loopback port whose connections reach the host's table."""

    def __init__(self, reactor: NetReactor, dilated: Dilated, interface: str = "127.0.0.1") -> None:
        self.dilated = dilated
        factory = protocol.Factory()
        factory.protocol = _ToSubchannel
        factory.forwarder = self             # type: ignore[attr-defined]
        self.listener = reactor.listenTCP(0, factory, interface=interface)
        self.host = interface
        self.port: int = self.listener.getHost().port

    def close(self) -> None:
        self.listener.stopListening()
