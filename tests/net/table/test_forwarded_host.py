"""A guest that reached the host through a forwarded address redials that address (issue 39).

A friend who joins by code through the relay dials a port on its own loopback
(net/reach/tunnel.py), not the host's listen port; a UPnP mapping may give another public
port too. After a dropped link the guest must dial where it reached the host, or it can
never come back and a bot takes its seat.
"""

from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.fakenet import FakeNet
from tests.net.tables import autoplay, finished, hashes

CODE = "FWD12"
FORWARDED = 50123       # the only port the guest can reach the host at


def test_a_guest_redials_the_host_where_it_reached_it(tmp_path):
    net, engine = FakeNet(), FakeEngine(3)

    def opts(name):
        return SessionOptions(interface="127.0.0.1", name=name, code=CODE, rejoin_timeout=30.0,
                              save_path=str(tmp_path / f"{name}.save"),
                              report_dir=str(tmp_path))
    host = TableSession.host(opts("host"), port=7531, players=3, bots=1, reactor=net,
                             engine=engine)
    net.listeners[FORWARDED] = net.listeners[7531]          # the forwarder's port
    guest = TableSession.join(opts("guest"), f"127.0.0.1:{FORWARDED}", code=CODE,
                              reactor=net, engine=engine)
    net.pump()
    for s in (host, guest):
        autoplay(net, s, engine)
    # from here on the guest cannot reach the host's listen port itself
    connect = net.connectTCP

    def from_outside(h, port, factory, timeout=30):
        if factory.session is guest and port == 7531:
            port = 1        # nobody listens there: refused, as the router would
        return connect(h, port, factory, timeout)
    net.connectTCP = from_outside
    host.start_game()
    net.pump_until(lambda: guest.lockstep is not None and guest.lockstep.step >= 3)
    for conn in list(guest.conns):            # the link drops (the relay broke, say)
        conn.transport.loseConnection()
    net.pump()
    net.advance(60)
    assert finished([host, guest]) and len(hashes([host, guest])) == 1
    assert not guest.lockstep.bots - {2}, "the guest's seat went to a bot: it never came back"
