"""The pair tunnels' messages (net/table/pair_links.py, issue 39): the host asks both players
of a pair, passes on only the code of a pair it asked for and only from that pair's
serving seat; a player takes `PairTunnelOpened` from its host only. (The wormholes
themselves: tests/net/reach/test_internet_rendezvous.py, three homes behind NAT.)"""

from __future__ import annotations

from types import SimpleNamespace

from net.reach.pair_tunnels import PairTunnel
from net.table.pair_links import PairLinks


class Conn:
    def __init__(self, peer: bytes) -> None:
        self.remote_peer, self.closed = peer, False
        self.sent: list[dict] = []
        self.offences: list[str] = []
        self.seat = None

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def offence(self, why: str) -> None:
        self.offences.append(why)


LOBBY = {"seats": [{"seat": s, "peer": bytes([s + 1]) * 16} for s in range(3)]}


def _links(role, me_seat, conns, host_conn=None):
    from net.table.shared import StartRecord
    start = StartRecord(SimpleNamespace())
    shared = SimpleNamespace(lobby=LOBBY, role=role, my_seat=None)
    me = SimpleNamespace(is_host=role == "host", peer_id=bytes([me_seat + 1]) * 16)
    roster = SimpleNamespace(conns=conns, host_conn=host_conn,
                             conn_for_seat=lambda seat: None)
    dialed: list = []
    dialer = SimpleNamespace(listen_port=7000, dial=lambda *a: dialed.append(a))
    return PairLinks(shared, SimpleNamespace(reactor=None), me, roster, start, dialer), dialed


def _msg(code=None, serving=1, dialling=2):
    return {"type": "PairTunnelOpened", "serving": serving, "dialling": dialling, "code": code}


def test_the_host_asks_both_players_of_a_pair_and_passes_on_the_code():
    one, two = Conn(LOBBY["seats"][1]["peer"]), Conn(LOBBY["seats"][2]["peer"])
    links, _ = _links("host", 0, [one, two])
    links.ask([PairTunnel(1, 2)])
    assert one.sent == [_msg()] and two.sent == [_msg()]
    links.pair_tunnel_opened(one, _msg("adrift-almighty-amulet-guitarist-revenge-uncut"))
    assert two.sent[-1] == _msg("adrift-almighty-amulet-guitarist-revenge-uncut") and not one.offences


def test_the_host_passes_on_no_code_it_did_not_ask_for_nor_one_from_the_other_seat():
    one, two = Conn(LOBBY["seats"][1]["peer"]), Conn(LOBBY["seats"][2]["peer"])
    links, _ = _links("host", 0, [one, two])
    links.pair_tunnel_opened(one, _msg("adrift-almighty-amulet-guitarist-revenge-uncut"))        # never asked
    links.ask([PairTunnel(1, 2)])
    links.pair_tunnel_opened(two, _msg("adrift-almighty-amulet-guitarist-revenge-uncut"))        # not the serving seat
    assert one.offences and two.offences
    assert one.sent == [_msg()] and two.sent == [_msg()]           # only the asks


def test_the_host_passes_a_pairs_code_on_once_and_charges_the_sender_with_the_copies():
    """Issue 47 finding 3: a friend re-sent its own `PairTunnelOpened` three times, the
    host passed every copy on, and the other friend charged the host and dropped it."""
    one, two = Conn(LOBBY["seats"][1]["peer"]), Conn(LOBBY["seats"][2]["peer"])
    links, _ = _links("host", 0, [one, two])
    links.ask([PairTunnel(1, 2)])
    for _ in range(4):
        links.pair_tunnel_opened(one, _msg("4-purple-sausage"))
    assert two.sent == [_msg(), _msg("4-purple-sausage")]          # once
    assert len(one.offences) == 1 and "again" in one.offences[0]   # copies: one offence
    assert not two.offences


def test_a_player_takes_it_from_its_host_only():
    host, other = Conn(LOBBY["seats"][0]["peer"]), Conn(LOBBY["seats"][1]["peer"])
    links, _ = _links("join", 2, [host, other], host_conn=host)
    links.pair_tunnel_opened(other, _msg())
    assert other.offences and links.through_tunnel == set()
    links.pair_tunnel_opened(host, _msg())
    assert links.through_tunnel == {1}          # seat 1 is not dialled at its address


def test_a_code_for_a_pair_the_host_did_not_announce_is_an_offence():
    host = Conn(LOBBY["seats"][0]["peer"])
    links, _ = _links("join", 2, [host], host_conn=host)
    links.pair_tunnel_opened(host, _msg("adrift-almighty-amulet-guitarist-revenge-uncut"))
    assert host.offences and links.ends == {}


def test_without_the_relay_a_serving_player_opens_no_wormhole():
    host = Conn(LOBBY["seats"][0]["peer"])
    links, _ = _links("join", 1, [host], host_conn=host)
    links.pair_tunnel_opened(host, _msg())      # options None: --direct-only or no rendezvous
    assert links.wormholes == [] and host.sent == []


def test_a_code_altered_on_the_way_is_a_tunnel_that_fails_and_says_so(monkeypatch):
    """The host passes on a code the serving player never made: the wormhole's own key
    agreement fails (magic-wormhole's WrongPasswordError), the player says so, dials
    nothing through it, and the seat stays absent (taken over like any that never came)."""
    from twisted.internet import defer
    from wormhole.errors import WrongPasswordError

    from net.reach.rendezvous import RendezvousOptions

    class Wormhole:
        def set_code(self, code):
            self.code = code

        def dilate(self, **kwargs):
            return object()

        def get_versions(self):
            return defer.fail(WrongPasswordError())

        def close(self):
            return defer.succeed(None)

    host, links, dialed = _dialler_with(monkeypatch, Wormhole())
    links._shared.closed = False
    said: list[str] = []
    links.use_relay(RendezvousOptions("ws://mailbox.invalid/v1", "tcp:relay.invalid:4001"),
                    say=said.append)
    links.pair_tunnel_opened(host, _msg())
    links.pair_tunnel_opened(host, _msg("absurd-pandora-tracker-guitarist-revenge-uncut"))
    assert "the tunnel to seat 1 could not be opened: the code is wrong" in " ".join(said), said
    assert dialed == [] and not host.offences      # the game has not started: nothing dialled


def test_the_lobby_names_a_pair_tunnelled_link_by_its_tunnel(monkeypatch):
    """The dialling player reaches seat 1 at its end's loopback port: the lobby says
    `relay` once magic-wormhole's status says so (before: `on this machine`), and no
    round trip (the kernel's would be the loopback's)."""
    from twisted.internet import defer

    from net.transport.round_trip import RoundTrip
    from net.reach.peer_links import PeerLink, table_links
    from net.reach.rendezvous import RendezvousOptions

    statuses: list = []

    class Wormhole:
        def set_code(self, code):
            pass

        def dilate(self, on_status_update, **kwargs):
            statuses.append(on_status_update)
            return object()

        def get_versions(self):
            return defer.Deferred()

    host, links, _ = _dialler_with(monkeypatch, Wormhole())
    links.use_relay(RendezvousOptions("ws://mailbox.invalid/v1", "tcp:relay.invalid:4001"),
                    say=lambda line: None)
    links.pair_tunnel_opened(host, _msg())
    links.pair_tunnel_opened(host, _msg("adrift-almighty-amulet-guitarist-revenge-uncut"))

    class Tcp:                      # my connection to seat 1, through my end of the tunnel
        def getPeer(self):
            return SimpleNamespace(host="127.0.0.1", port=_End.port)

    to_one = SimpleNamespace(seat=1, tcp=Tcp(), closed=False, dialer=True,
                             round_trip=RoundTrip(lambda: 0.0, lambda msg: None))
    table = SimpleNamespace(roster=SimpleNamespace(conns=[to_one], host_conn=None),
                            pair_links=links)
    assert table_links(table)[1].kind == "through magic-wormhole"    # no status yet
    [status] = statuses
    status(SimpleNamespace(peer_connection=SimpleNamespace(
        hint_description="->relay:tcp:203.0.113.9:4001")))
    assert table_links(table)[1] == PeerLink("relay", None)
    status(SimpleNamespace(peer_connection=SimpleNamespace(
        hint_description="->tcp:11.0.0.3:41000")))
    assert table_links(table)[1].kind == "direct through magic-wormhole"


class _End:
    """A pair tunnel's end at a fixed loopback port, forwarding nothing."""
    host, port = "127.0.0.1", 40000

    def __init__(self, reactor, dilated):
        pass

    def close(self):
        pass


def _dialler_with(monkeypatch, wormhole):
    """Seat 2's pair links (the dialling player, seat 0 the host) whose pair tunnels are
    opened on `wormhole`: (the host's connection, the links, the addresses dialled)."""
    import net.table.pair_links as pair_links
    monkeypatch.setattr(pair_links, "wormhole_for",
                        lambda reactor, options, app_id="": wormhole)
    monkeypatch.setattr(pair_links, "Forwarder", _End)
    monkeypatch.setattr(pair_links, "RelayRedial", lambda reactor, dilated: SimpleNamespace())
    host = Conn(LOBBY["seats"][0]["peer"])
    links, dialed = _links("join", 2, [host], host_conn=host)
    return host, links, dialed
