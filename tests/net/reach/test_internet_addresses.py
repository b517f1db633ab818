"""Join addresses, the addresses a table prints, the router mapping's sentences and the
pair report, without any network (issue 16)."""

import pytest

from net.reach.addresses import AddressError, Reachable, join_lines, parse_address, reachable_addresses
from net.reach.portmap import PortMapError, PortMapper
from net.reach.reachability import Player, Probe, mesh_order, unreachable_pairs
from net.table.session import parse_address as session_parse


@pytest.mark.parametrize("text,expected", [
    ("192.168.1.20:7000", ("192.168.1.20", 7000)),
    ("192.168.1.20", ("192.168.1.20", 7531)),
    ("[::1]:7531", ("::1", 7531)),
    ("[2001:db8::7]", ("2001:db8::7", 7531)),
    ("2001:db8::7", ("2001:db8::7", 7531)),
    ("[fe80::1%eth0]:9000", ("fe80::1%eth0", 9000)),
    ("ann.example.org:7600", ("ann.example.org", 7600)),
    ("localhost", ("localhost", 7531)),
])
def test_join_addresses_are_read(text, expected):
    assert parse_address(text) == expected
    assert session_parse(text) == expected        # what `join` uses


@pytest.mark.parametrize("text,says", [
    ("", "empty"),
    ("[::1:7531", "never closes"),
    ("[::1]7531", "after the IPv6 address"),
    ("host:http", "not a number"),
    ("host:70000", "not a number from 1 to 65535"),
    ("[nonsense]:7531", "not an IPv6 address"),
    (":7531", "no host"),
])
def test_bad_join_addresses_say_what_is_wrong(text, says):
    with pytest.raises(AddressError, match=says):
        parse_address(text)


def test_the_table_lists_mapped_ipv6_and_lan_addresses_most_reachable_first():
    interfaces = [("lo", "127.0.0.1"), ("lo", "::1"), ("eth0", "192.168.1.20"),
                  ("eth0", "fe80::1"), ("eth0", "2a01:4f8::20")]
    found = reachable_addresses(7531, mapped=[("93.184.216.10", 7531)], interfaces=interfaces)
    assert [(r.host, r.scope) for r in found] == [
        ("93.184.216.10", "public"), ("2a01:4f8::20", "global IPv6"), ("192.168.1.20", "LAN")]
    lines = join_lines(found, "ABCDEFGH")
    assert "./shogun join [2a01:4f8::20]:7531 --code ABCDEFGH" in lines[2]
    assert "./shogun join 93.184.216.10:7531 --code ABCDEFGH" in lines[1]
    assert "router" in lines[1]


def test_a_machine_without_network_lists_loopback():
    assert reachable_addresses(7000, interfaces=[("lo", "127.0.0.1")]) == \
        [Reachable("127.0.0.1", 7000, "this machine", "lo")]


class FakeRouter:
    """miniupnpc's UPnP object as a router that answers (or refuses) as told."""

    def __init__(self, devices=1, refuse=None, public="93.184.216.10"):
        self.devices, self.refuse, self.public = devices, refuse, public
        self.lanaddr = "192.168.1.20"
        self.mappings = {}

    def discover(self):
        return self.devices

    def selectigd(self):
        if not self.devices:
            raise Exception("No UPnP device discovered")

    def externalipaddress(self):
        return self.public

    def addportmapping(self, eport, proto, host, iport, desc, remote):
        if self.refuse:
            raise Exception(self.refuse)
        self.mappings[eport] = (host, iport)
        return True

    def addanyportmapping(self, eport, proto, host, iport, desc, remote):
        raise Exception(self.refuse)

    def deleteportmapping(self, eport, proto):
        del self.mappings[eport]


def test_a_mapping_is_made_and_removed():
    router = FakeRouter()
    mapper = PortMapper(lambda: router)
    m = mapper.open(7531)
    assert (m.public_host, m.public_port, m.local_host) == ("93.184.216.10", 7531, "192.168.1.20")
    assert router.mappings == {7531: ("192.168.1.20", 7531)}
    mapper.close()
    assert router.mappings == {}


def test_no_router_is_said_plainly():
    with pytest.raises(PortMapError) as err:
        PortMapper(lambda: FakeRouter(devices=0)).open(7531)
    assert str(err.value).startswith("No router answered")
    assert "forward TCP port 7531" in str(err.value) and "IPv6" in str(err.value)


def test_a_refusing_router_is_said_plainly():
    with pytest.raises(PortMapError) as err:
        PortMapper(lambda: FakeRouter(refuse="ConflictInMappingEntry")).open(7531)
    assert str(err.value).startswith("The router refused to forward port 7531 "
                                     "(ConflictInMappingEntry)")


def test_a_pair_fails_only_when_neither_can_be_dialled():
    players = [Player(0, "Ann", "", 7531, True), Player(1, "Bo", "11.0.0.2", 4000, False),
               Player(2, "Cy", "11.0.0.3", 4001, True), Player(3, "Di", "11.0.0.4", 4002, False)]
    report = unreachable_pairs(players)
    assert report == [
        "Bo and Di cannot reach each other: neither can be dialled from outside their own "
        "network (Bo at 11.0.0.2:4000, Di at 11.0.0.4:4002). One of them can forward its "
        "TCP port on the router, or use IPv6, or all can join one VPN (ZeroTier, "
        "Tailscale); see docs/net.md."]
    assert unreachable_pairs(players[:3]) == []


def test_players_who_can_be_dialled_take_the_lower_seats():
    """The mesh has the higher seat dial the lower: Bo (seat 1) cannot be dialled and
    Cy (seat 2) can, so they swap and Bo dials Cy."""
    players = [Player(0, "Ann", "", 7531, True), Player(1, "Bo", "h", 4000, False),
               Player(2, "Cy", "h", 4001, True)]
    assert mesh_order(players) == {1: 2, 2: 1}
    assert mesh_order([players[0], players[2]]) == {}
    # bot seats in between are not players: only the players' own seats are dealt out
    spread = [Player(0, "Ann", "", 1, True), Player(2, "Bo", "h", 2, False),
              Player(4, "Cy", "h", 3, True)]
    assert mesh_order(spread) == {2: 4, 4: 2}
    # after the moves, no pair has a lower seat that cannot be dialled above one that can
    for order in ([True, False, False, True], [False, True, True, False]):
        ps = [Player(i, str(i), "h", i, ok) for i, ok in enumerate(order)]
        moved = mesh_order(ps)
        seat_of = {p.seat: moved.get(p.seat, p.seat) for p in ps}
        accepts_by_seat = {seat_of[p.seat]: p.accepts for p in ps}
        assert [accepts_by_seat[k] for k in sorted(accepts_by_seat)] == sorted(order, reverse=True)


def test_probe_sentences():
    assert Probe("::1", 7531, True, 0.0021, True).sentence() == \
        "[::1]:7531: reached over IPv6, round trip 2.1 ms, a Shogun table answered"
    assert "not reached (refused)" in Probe("10.0.0.1", 1, False, error="refused").sentence()


def test_ipv4_peers_seen_through_a_dual_stack_socket_read_as_ipv4():
    from net.reach.addresses import plain_host
    assert plain_host("::ffff:11.0.0.2") == "11.0.0.2"
    assert plain_host("2001:db8::1") == "2001:db8::1"
    assert plain_host("10.0.0.1") == "10.0.0.1"


@pytest.mark.alone     # real loopback sockets and a netcheck process with a 0.5 s timeout
def test_netcheck_tells_a_table_from_a_silent_port_and_a_closed_one(tmp_path):
    """Real sockets on loopback: a listener that greets like a table, one that says
    nothing, and a port nobody listens on."""
    import socket
    import subprocess
    import sys
    import threading

    from net.transport.framing import encode_frame
    from tests.net.processes import ROOT, free_port

    greeter, silent = socket.create_server(("127.0.0.1", 0)), socket.create_server(("127.0.0.1", 0))
    closed = free_port()

    def serve(server, greeting):
        conn, _ = server.accept()
        if greeting:
            conn.sendall(greeting)
        conn.recv(1)
        conn.close()
    hello = encode_frame({"type": "Greeted", "versions": {}})     # (protocol 6)
    for server, greeting in ((greeter, hello), (silent, b"")):
        threading.Thread(target=serve, args=(server, greeting), daemon=True).start()
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "netcheck", "--no-router", "--timeout", "0.5",
         f"127.0.0.1:{greeter.getsockname()[1]}", f"127.0.0.1:{silent.getsockname()[1]}",
         f"127.0.0.1:{closed}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "SHOGUN_NET_DISCOVERY": "off"})
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "Reached 1 of 3 addresses:" in out
    lines = out.splitlines()
    assert any(f"127.0.0.1:{greeter.getsockname()[1]}: reached over IPv4, round trip" in ln
               and ln.endswith("a Shogun table answered") for ln in lines), out
    assert any(f"127.0.0.1:{silent.getsockname()[1]}: reached over IPv4" in ln
               and ln.endswith("something that is not a Shogun table answered")
               for ln in lines), out
    assert f"127.0.0.1:{closed}: not reached (the connection was refused" in out
    greeter.close()
    silent.close()


class _Lobby:
    started = False

    def lobby_full(self):
        return True


def _gate(monkeypatch, answers):
    """A StartGate whose lobby checks answer from `answers` in turn, on a fake clock."""
    from twisted.internet import defer, task

    from net.reach import reachability
    from net.reach.internet import StartGate
    monkeypatch.delenv("SHOGUN_NET_REACH_CHECK", raising=False)
    asked = []

    def check(reactor, session):
        asked.append(1)
        return defer.succeed(([], answers[len(asked) - 1]))
    monkeypatch.setattr(reachability, "check_lobby", check)
    clock = task.Clock()
    return StartGate(clock, _Lobby()), clock, asked


def test_the_start_waits_for_a_mapping_still_on_its_way(monkeypatch):
    gate, clock, asked = _gate(monkeypatch, [["Ann and Bo cannot reach each other"], []])
    events = []
    gate.start(lambda: events.append("started"), events.append)
    assert events == [] and len(asked) == 1
    gate.start(lambda: events.append("again"), events.append)     # a lobby change meanwhile
    clock.advance(gate.RETRY_AFTER)
    assert events == ["started"] and len(asked) == 2


def test_a_pair_still_failing_is_reported_and_nothing_starts(monkeypatch):
    failing = ["Ann and Bo cannot reach each other"]
    gate, clock, asked = _gate(monkeypatch, [failing] * 3)
    events = []
    gate.start(lambda: events.append("started"), events.append)
    clock.advance(gate.RETRY_AFTER)
    clock.advance(gate.RETRY_AFTER)
    assert events == [failing] and len(asked) == 3
