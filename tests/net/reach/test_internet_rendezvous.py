"""Join by code across the internet (issue 39), in network namespaces this test makes.

A "public" computer on the lab's internet runs a magic-wormhole mailbox server and a
transit relay (the magic-wormhole project's pip packages, started here by `twistd`);
homes sit behind NAT routers (tests/net/netns.py). The host prints a code, the friend
types it; headless bot peers play as real processes, as a player would run them.
"""

from __future__ import annotations

import re

import pytest

from tests.net import processes as P
from tests.net import wormhole_servers
from tests.net.netns import Lab, enter, missing_reason

pytestmark = [pytest.mark.network, pytest.mark.slow]

_missing = missing_reason()
needs_lab = pytest.mark.skipif(_missing is not None, reason=f"no namespace lab: {_missing}")

INTERNET_ENV = {"SHOGUN_NET_INTERFACE": ""}   # as a player runs it: the default interface
CODE_LINE = r"Friends anywhere join with: \./shogun join ([a-z]+(?:-[a-z]+){5})"


@pytest.fixture
def lab(tmp_path):
    with Lab(tmp_path) as made:
        yield made


@pytest.fixture
def public(lab, tmp_path):
    """The mailbox and the relay on a public address of the lab's internet."""
    ns, address = lab.public_computer()
    servers = wormhole_servers.start(tmp_path, address, 4000, 4001, preexec=enter(ns))
    try:
        yield servers
    finally:
        servers.stop()


def _where(servers, direct_only=False):
    return ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address,
            *(["--direct-only"] if direct_only else [])]


def _host(home, tmp_path, servers, direct_only=False, rejoin_timeout=60):
    """A three-player table (the host, one friend, one bot) in `home`."""
    return P.Peer("host", ["host", "--headless", "--port", "7531", "--players", "3",
                           "--bots", "1", "--rejoin-timeout", str(rejoin_timeout),
                           "--save", str(tmp_path / "host.save"),
                           *_where(servers, direct_only)],
                  tmp_path, INTERNET_ENV, preexec=enter(home.pc))


def _friend(home, tmp_path, servers, code, rejoin_timeout=60):
    return P.Peer("friend", ["join", code, "--headless", "--rejoin-timeout",
                             str(rejoin_timeout), "--save", str(tmp_path / "friend.save"),
                             *_where(servers)],
                  tmp_path, INTERNET_ENV, preexec=enter(home.pc))


def _finish(peers, timeout=300):
    try:
        P.wait_all(peers, timeout)
    finally:
        P.kill_all(peers)
    codes = [p.proc.returncode for p in peers]
    assert codes == [0] * len(peers), [(p.name, p.text()[-800:], p.errors()[-1500:])
                                       for p in peers]
    finals = {p.name: p.final_hash() for p in peers}
    assert None not in finals.values() and len(set(finals.values())) == 1, finals


@needs_lab
def test_two_homes_behind_symmetric_nat_play_by_code_through_the_relay(lab, public, tmp_path):
    """No UPnP, a random public port per connection: neither can dial the other, so the
    table's frames go through the relay; the game ends with one hash."""
    homes = [lab.home(upnp=False, symmetric=True) for _ in range(2)]
    host = _host(homes[0], tmp_path, public)
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        peers.append(_friend(homes[1], tmp_path, public, code))
        _finish(peers)
    finally:
        P.kill_all(peers)
    friend = peers[1]
    assert re.search(r"reached the table by code: through the relay 11\.0\.0\.\d+:4001, "
                     r"round trip [\d.]+ ms", friend.text()), friend.text()
    assert re.search(r"friend 1 is connected through the relay", host.text()), host.text()
    assert "game started: seat 1" in friend.text()


@needs_lab
def test_a_host_behind_a_router_with_upnp_is_joined_directly(lab, public, tmp_path):
    """The host's router maps its port: the friend who typed the code dials that mapping,
    and the relay carries nothing."""
    homes = [lab.home(), lab.home(upnp=False, symmetric=True)]
    host = _host(homes[0], tmp_path, public)
    peers = [host]
    try:
        public_at = re.escape(f"{homes[0].public_ip}:7531")
        host.wait_for(f"the router forwards {public_at}", 30)
        code = host.wait_for(CODE_LINE, 60).group(1)
        peers.append(_friend(homes[1], tmp_path, public, code))
        _finish(peers)
    finally:
        P.kill_all(peers)
    friend = peers[1]
    assert re.search(f"reached the table by code: directly at {public_at} through the "
                     r"host's router, round trip [\d.]+ ms", friend.text()), friend.text()
    assert "a friend who typed the code dials the table directly" in host.text()
    assert "through the relay" not in host.text() + friend.text()


@needs_lab
def test_a_direct_only_host_says_plainly_why_a_friend_cannot_join(lab, public, tmp_path):
    homes = [lab.home(upnp=False, symmetric=True) for _ in range(2)]
    host = _host(homes[0], tmp_path, public, direct_only=True)
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        friend = _friend(homes[1], tmp_path, public, code)
        peers.append(friend)
        friend.proc.wait(120)
        assert friend.proc.returncode == 1, friend.text() + friend.errors()
        said = friend.errors()
        # the host's LAN address is another home's: not probed from here (issue 47)
        assert "error: cannot join by code: no direct path to the table (" in said, said
        assert f"{homes[0].pc_ip}:7531" not in said and "not tried from here" in said, said
        assert "the host allows no relay (it runs with --direct-only)" in said
        host.wait_for(r"a friend who typed the code cannot reach the table: no direct path to "
                      r"the table, and this table allows no relay", 30)
        assert "game started" not in host.text()
    finally:
        P.kill_all(peers)


@needs_lab
def test_a_relay_that_dies_mid_game_is_a_dropped_link_never_two_games(lab, public, tmp_path):
    """The relay is killed while the friend plays through it: both players pause (a
    dropped link). With two players neither side is a majority: when the rejoin timeout
    has passed, neither gives the other's seat to a bot and neither plays on alone.

    (The relay stays dead here. One that comes back carries the game on to one hash:
    tests/net/reach/test_relay_break.py.)"""
    homes = [lab.home(upnp=False, symmetric=True) for _ in range(2)]
    host = _host(homes[0], tmp_path, public, rejoin_timeout=10)
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        friend = _friend(homes[1], tmp_path, public, code, rejoin_timeout=10)
        peers.append(friend)
        host.wait_for(r"game started: seat 0", 120)
        friend.wait_for(r"game started: seat 1", 60)
        public.stop_relay()
        host.wait_for_error("paused: seat 1", 60)
        friend.wait_for_error("paused: seat 0", 60)
        # the rejoin timeout ran out on both sides: each claims, neither has a majority
        host.wait_for_error("a bot may take a seat only on a side with more than half", 90)
        friend.wait_for_error("a bot may take a seat only on a side with more than half", 90)
        assert host.proc.poll() is None and friend.proc.poll() is None
        assert host.final_hash() is None and friend.final_hash() is None
        assert "seat 1 is played by a bot" not in host.errors()
        assert "seat 0 is played by a bot" not in friend.errors()
    finally:
        P.kill_all(peers)



NEXT_CODE_LINE = r"The next friend joins with: \./shogun join ([a-z]+(?:-[a-z]+){5})"


@needs_lab
def test_three_homes_behind_symmetric_nat_play_by_code_with_a_tunnel_per_pair(
        lab, public, tmp_path):
    """Host and two friends, each behind symmetric NAT with no UPnP: nobody can dial
    anybody. Each friend reaches the host through its own tunnel; the two friends get a
    wormhole of their own (the host passes its code on), so the start check lets the
    table start, and the 3-player game ends with one hash. (Before the pair tunnel the
    host refused: `friend and friend2 cannot reach each other`.)"""
    homes = [lab.home(upnp=False, symmetric=True) for _ in range(3)]
    host = P.Peer("host", ["host", "--headless", "--port", "7531", "--players", "3",
                           "--bots", "0", "--rejoin-timeout", "60",
                           "--save", str(tmp_path / "host.save"), *_where(public)],
                  tmp_path, INTERNET_ENV, preexec=enter(homes[0].pc))
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        peers.append(_friend(homes[1], tmp_path, public, code))
        host.wait_for(r"friend 1 is connected through the relay", 120)
        second = host.wait_for(NEXT_CODE_LINE, 60).group(1)
        peers.append(P.Peer("friend2", ["join", second, "--headless", "--rejoin-timeout",
                                        "60", "--save", str(tmp_path / "friend2.save"),
                                        *_where(public)],
                            tmp_path, INTERNET_ENV, preexec=enter(homes[2].pc)))
        _finish(peers, timeout=420)
    finally:
        P.kill_all(peers)
    assert "cannot reach each other" not in host.text() + host.errors()
    friend, friend2 = peers[1], peers[2]
    assert "game started: seat 1" in friend.text() and "game started: seat 2" in friend2.text()
    assert "seat 2 cannot dial this table directly: a tunnel of our own" in friend.text()
    assert "seat 1 cannot be dialled directly: dialling it through a tunnel of our own" \
        in friend2.text()
    for peer, other in ((friend, 2), (friend2, 1)):
        assert re.search(f"the tunnel to seat {other} is connected through the relay "
                         r"11\.0\.0\.\d+:4001", peer.text()), peer.text()
