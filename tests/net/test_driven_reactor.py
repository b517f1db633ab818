"""A window drives the reactor from its own clock: sessions work without reactor.run()."""

import time

import pytest

from net.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.processes import free_port
from tests.net.tables import autoplay, finished, hashes

pytestmark = pytest.mark.network


def test_sessions_on_real_sockets_driven_by_iterate(tmp_path):
    from twisted.internet import reactor
    engine = FakeEngine(3)
    port = free_port()
    opts = lambda n: SessionOptions(name=n, code="ITER1", interface="127.0.0.1",
                                    save_path=str(tmp_path / f"{n}.save"))
    host = TableSession.host(opts("h"), port=port, players=3, reactor=reactor, engine=engine)
    guests = [TableSession.join(opts(f"g{i}"), f"127.0.0.1:{port}", code="ITER1",
                                reactor=reactor, engine=engine) for i in range(2)]
    sessions = [host] + guests
    for s in sessions:
        autoplay(reactor, s, engine)
    reactor.startRunning(installSignalHandlers=False)
    try:
        end = time.monotonic() + 20
        started = False
        while time.monotonic() < end and not finished(sessions):
            reactor.iterate(0.01)            # what the window's on_update does
            if not started and host.lobby_full():
                host.start_game()
                started = True
        assert finished(sessions) and len(hashes(sessions)) == 1
    finally:
        for s in sessions:
            s.close()
        for _ in range(20):
            reactor.iterate(0.01)
        reactor.stop()
        reactor.iterate(0)
