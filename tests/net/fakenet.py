"""An in-memory network and clock that `TableSession` can use as its reactor.

Why: protocol tests must be deterministic and fast. `listenTCP`/`connectTCP` join
protocols with twisted.test.iosim transports; `callLater` is a `task.Clock`. Nothing
touches a socket.

Used by tests/net/tables.py and the FakeNet tables of tests/net, benchmarks/profile_net_peer.py.
"""

from __future__ import annotations

from twisted.internet import task
from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionRefusedError
from twisted.python.failure import Failure
from twisted.test.iosim import FakeTransport, IOPump


class _RecordingTransport(FakeTransport):
    """Records every byte written, per sending session, in order."""

    def write(self, data):
        session = getattr(self.protocol, "session", None)
        self.net.written.append((session, self.protocol, bytes(data)))
        super().write(data)


class _Port:
    def __init__(self, net, port, factory):
        self.net, self.port, self.factory = net, port, factory

    def getHost(self):
        return IPv4Address("TCP", "127.0.0.1", self.port)

    def stopListening(self):
        self.net.listeners.pop(self.port, None)


class _Connector:
    def __init__(self, host, port):
        self.host, self.port = host, port

    def getDestination(self):
        return IPv4Address("TCP", self.host, self.port)


class FakeNet:
    def __init__(self) -> None:
        self.clock = task.Clock()
        self.listeners: dict[int, object] = {}
        self.pumps: list[IOPump] = []
        self._next_port = 40000
        self.written: list[tuple[object, object, bytes]] = []  # (session, connection, bytes)

    # reactor interface used by TableSession
    def callLater(self, delay, fn, *a, **kw):
        return self.clock.callLater(delay, fn, *a, **kw)

    def seconds(self):
        return self.clock.seconds()

    def listenTCP(self, port, factory, interface=""):
        if port == 0:
            self._next_port += 1
            port = self._next_port
        if port in self.listeners:
            raise OSError(f"port {port} in use")
        self.listeners[port] = factory
        return _Port(self, port, factory)

    def connectTCP(self, host, port, factory, timeout=30):
        connector = _Connector(host, port)
        server_factory = self.listeners.get(port)
        if server_factory is None:
            self.clock.callLater(0, factory.clientConnectionFailed, connector,
                                 Failure(ConnectionRefusedError("nobody listens")))
            return connector
        self._next_port += 1
        client_addr = IPv4Address("TCP", "127.0.0.1", self._next_port)
        server_addr = IPv4Address("TCP", "127.0.0.1", port)
        server = server_factory.buildProtocol(client_addr)
        client = factory.buildProtocol(server_addr)
        st = _RecordingTransport(server, True, hostAddress=server_addr, peerAddress=client_addr)
        ct = _RecordingTransport(client, False, hostAddress=client_addr, peerAddress=server_addr)
        st.net = ct.net = self
        server.makeConnection(st)
        client.makeConnection(ct)
        self.pumps.append(IOPump(client, server, ct, st, False, clock=self.clock))
        return connector

    # test controls
    def pump(self, rounds=100000):
        for _ in range(rounds):
            moved = False
            for p in list(self.pumps):
                moved = p.pump(advanceClock=False) or moved
                if p.clientIO.disconnected and p.serverIO.disconnected:
                    self.pumps.remove(p)
            self.clock.advance(0)
            if not moved:
                return

    def advance(self, seconds, step=1.0):
        left = seconds
        while left > 0:
            self.clock.advance(min(step, left))
            left -= step
            self.pump()

    def kill(self, session):
        """Like SIGKILL: every connection of `session` dies, unsent bytes are lost."""
        session.closed = True
        for port, factory in list(self.listeners.items()):
            if getattr(factory, "session", None) is session:
                del self.listeners[port]
        for p in self.pumps:
            if session in (p.clientIO.protocol.session, p.serverIO.protocol.session):
                # nothing more goes out, and nothing in flight to it is read: a killed
                # process acts on nothing (it would dial players from a GameStarted)
                for io in (p.clientIO, p.serverIO):
                    io.stream = []
                    io.disconnecting = True
        self.pump()

    def unplug(self, session):
        """Like a pulled cable: both directions of `session`'s connections swallow every
        byte, nothing closes, and no new connection reaches it or leaves it. Returns a
        function that plugs it back in for new connections (the old ones stay dead)."""
        for p in list(self.pumps):
            if session in (p.client.session, p.server.session):
                for io in (p.clientIO, p.serverIO):
                    io.write = lambda data: None
                    io.stream = []
        connect = self.connectTCP
        down = [True]

        def unplugged(host, port, factory, timeout=30):
            if down[0] and (factory.session is session or port == session.listen_port):
                port = 1
            return connect(host, port, factory, timeout)
        self.connectTCP = unplugged

        def mend():
            down[0] = False
        return mend

    def stall(self, session):
        """Like a transit relay that stalls in front of `session`'s tunnel (issue 47
        finding 6): its connections pass no byte either way (a close still gets through,
        as each end closes its own socket), and a new connection from or to it is made
        at once (a tunnel's loopback end always answers) but passes nothing, not even
        its close, until the relay flows. Returns a function that lets everything kept
        meanwhile through, in order."""
        kept: list[tuple[object, bytes]] = []
        held_ios: list[object] = []
        held_pumps: list[IOPump] = []
        for p in self.pumps:
            if session in (p.client.session, p.server.session):
                for io in (p.clientIO, p.serverIO):
                    io.write = lambda data, io=io: kept.append((io, bytes(data)))
                    held_ios.append(io)
        connect = self.connectTCP

        def stalling(host, port, factory, timeout=30):
            before = len(self.pumps)
            connector = connect(host, port, factory, timeout)
            if factory.session is session or port == session.listen_port:
                held_pumps.extend(self.pumps[before:])
                del self.pumps[before:]
            return connector
        self.connectTCP = stalling

        def flow():
            self.connectTCP = connect
            for io in held_ios:
                del io.write                  # the class's own write again
            for io, data in kept:
                if not io.disconnected:
                    io.write(data)
            kept.clear()
            self.pumps.extend(held_pumps)
            held_pumps.clear()
        return flow

    def pump_until(self, condition, limit=100000):
        for _ in range(limit):
            if condition():
                return True
            self.pump(rounds=1)
        return condition()
