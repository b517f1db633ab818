"""Listening for players and dialling them: the table's two ways onto the network.

Why a part of its own: the lobby, the mesh, the redials, a rejoin and a spectator all
dial; each connection is handed to `net.transport.peer.PeerFactory` with the session it
reports to, and the count of dials still under way decides when a guest that reached
no one is refused (`net.table.connections`).

Tests: tests/net/table/test_session.py, tests/net/transport/test_peer.py.
"""

from __future__ import annotations

from typing import Any

from net.transport.messages import Wire

from net.table.shared import ListeningPort, TableSetting
from net.transport.peer import PeerFactory
from net.transport.peer_reports import PeerOwner


class Dialer:
    def __init__(self, setting: TableSetting, session: PeerOwner) -> None:
        self._setting = setting
        self._session = session          # what each connection reports to
        self.listener: ListeningPort | None = None
        self.listen_port = 0
        self.pending_dials = 0           # connections being attempted

    def listen(self, port: int) -> None:
        self.listener = self._setting.reactor.listenTCP(
            port, PeerFactory(self._session, dialer=False), interface=self._setting.opts.interface)
        self.listen_port = self.listener.getHost().port

    def dial(self, host: str, port: int, hello: Wire) -> PeerFactory:
        """Its factory: `built` is the connection once the dial connected."""
        self.pending_dials += 1
        factory = PeerFactory(self._session, dialer=True, hello=hello)
        self._setting.reactor.connectTCP(host, port, factory, timeout=10)
        return factory

    def dial_later(self, host: str, port: int, hello: Wire, delay: float) -> None:
        """A dial `delay` seconds from now, pending from now (a guest told to try again is
        not given up on while it waits)."""
        self.pending_dials += 1

        def dial() -> None:
            self.pending_dials -= 1
            self.dial(host, port, hello)
        self._setting.reactor.callLater(delay, dial)

    def stop_listening(self) -> None:
        if self.listener is not None:
            self.listener.stopListening()
            self.listener = None
