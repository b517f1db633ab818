"""Homes behind NAT routers in network namespaces this test makes (issue 16).

Each home is a computer behind a router that masquerades and runs miniupnpd (Debian's
UPnP-IGD service); the routers meet on a bridge standing for the internet. Headless bot
peers run as real processes inside the homes, as a player would run them.
"""

from __future__ import annotations

import os
import re
import subprocess
from contextlib import contextmanager

import pytest

from tests.net import processes as P
from tests.net.netns import Lab, enter, missing_reason

pytestmark = [pytest.mark.network, pytest.mark.slow]

_missing = missing_reason()
needs_lab = pytest.mark.skipif(_missing is not None, reason=f"no namespace lab: {_missing}")

# as a player runs it: the default interface; no code for friends anywhere (issue 39: the
# public mailbox is outside the lab, tests/net/reach/test_internet_rendezvous.py has its own)
INTERNET_ENV = {"SHOGUN_NET_INTERFACE": "", "SHOGUN_NET_RENDEZVOUS": "off"}


@pytest.fixture
def lab(tmp_path):
    with Lab(tmp_path) as made:
        yield made


def _host(ns, tmp_path):
    """A three-player table hosted on port 7531 from inside namespace `ns`."""
    return P.Peer("host", ["host", "--headless", "--port", "7531", "--code", P.CODE,
                           "--players", "3", "--rejoin-timeout", "60",
                           "--save", str(tmp_path / "host.save")],
                  tmp_path, INTERNET_ENV, preexec=enter(ns))


def _join(ns, tmp_path, name, address):
    return P.Peer(name, ["join", address, "--code", P.CODE, "--headless",
                         "--rejoin-timeout", "60", "--save", str(tmp_path / f"{name}.save")],
                  tmp_path, INTERNET_ENV, preexec=enter(ns))


@contextmanager
def _hosting(home, tmp_path):
    """The host in `home`, stopped (as a player closes it) when the block ends."""
    host = _host(home.pc, tmp_path)
    try:
        yield host
    finally:
        host.proc.terminate()
        host.proc.wait(20)


@contextmanager
def _three_homes(homes, tmp_path, bo_ready):
    """The host in homes[0]; once its router forwards the port, Bo joins from homes[1]; once
    `bo_ready(bo)`, Cy from homes[2]. Yields [host, bo, cy]; every peer is killed after."""
    host = _host(homes[0].pc, tmp_path)
    peers = [host]
    try:
        host.wait_for(r"the router forwards 11\.0\.0\.1:7531", 30)
        peers.append(_join(homes[1].pc, tmp_path, "bo", "11.0.0.1:7531"))
        bo_ready(peers[1])
        peers.append(_join(homes[2].pc, tmp_path, "cy", "11.0.0.1:7531"))
        yield peers
    finally:
        P.kill_all(peers)


def _asked_its_router(bo):
    """Bo has dialled in and asked its router (which has no UPnP)."""
    bo.wait_for_error("No router answered", 30)



def _finish(peers, timeout=240):
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
def test_a_router_maps_the_port_and_removes_it_when_the_table_closes(lab, tmp_path):
    home, outside = lab.home(), lab.home(upnp=False)
    with _hosting(home, tmp_path) as host:
        host.wait_for(r"the router forwards 11\.0\.0\.1:7531", 30)
        printed = host.wait_for(r"join 11\.0\.0\.1:7531 --code", 10)
        assert printed
        rules = lab.sh(home.router, "nft", "list", "chain", "inet", "shogunlab",
                       "prerouting_miniupnpd")
        assert "dport 7531 dnat ip to 10.1.0.2:7531" in rules
        # from the other home, `netcheck` reaches the table at the router's address
        check = _netcheck(outside, "11.0.0.1:7531", "11.0.0.1:7532")
        assert re.search(r"11\.0\.0\.1:7531: reached over IPv4, round trip [\d.]+ ms, "
                         r"a Shogun table answered", check.stdout), check.stdout
        assert "11.0.0.1:7532: not reached" in check.stdout
        assert "Reached 1 of 2 addresses" in check.stdout and check.returncode == 1
        # and from inside the home, netcheck finds the router's mapping service
        inside = _netcheck(home, "10.1.0.2:7531", router=True)
        assert "The router offers port mappings; its public address is 11.0.0.1." \
            in inside.stdout, inside.stdout + inside.stderr
        assert inside.returncode == 0
    rules = lab.sh(home.router, "nft", "list", "chain", "inet", "shogunlab",
                   "prerouting_miniupnpd")
    assert "dport 7531" not in rules, "the mapping outlived the table"


@needs_lab
def test_without_upnp_the_host_says_so_and_lists_its_lan_address(lab, tmp_path):
    with _hosting(lab.home(upnp=False), tmp_path) as host:
        host.wait_for(r"join 10\.1\.0\.2:7531 --code", 30)
        assert "No router answered the request for a port mapping" in host.errors()
        assert "forward TCP port 7531" in host.errors()


@needs_lab
def test_a_router_that_refuses_is_said_plainly(lab, tmp_path):
    home = lab.home(allowed="2000-2001")        # miniupnpd maps no other internal port
    with _hosting(home, tmp_path) as host:
        host.wait_for(r"join 10\.1\.0\.2:7531 --code", 30)
        assert "The router refused to forward port 7531 (" in host.errors(), host.errors()
        assert "forward TCP port 7531" in host.errors()
        assert "11.0.0.1" not in host.text()


@needs_lab
def test_three_homes_behind_nat_map_their_ports_and_finish_one_game(lab, tmp_path):
    homes = [lab.home() for _ in range(3)]
    # the mesh: the third player dials the second through the second's router
    with _three_homes(homes, tmp_path,
                      lambda bo: bo.wait_for(r"the router forwards 11\.0\.0\.2:\d+", 30)) as peers:
        _finish(peers)
    assert "game started: seat 2" in peers[2].text()


@needs_lab
def test_either_side_may_dial_the_one_that_can_be_dialled_takes_the_lower_seat(lab, tmp_path):
    """Bo's router offers no UPnP, Cy's does. The mesh has seat 2 dial seat 1: the host
    gives Cy the lower seat, so Bo dials Cy, and the game is played."""
    homes = [lab.home(), lab.home(upnp=False), lab.home()]
    with _three_homes(homes, tmp_path, _asked_its_router) as peers:
        _finish(peers)
    host, bo, cy = peers
    assert re.search(r"seats changed so that every pair can connect: \S+ takes seat 1, "
                     r"\S+ takes seat 2", host.text()), host.text()
    assert "game started: seat 2" in bo.text() and "game started: seat 1" in cy.text()


@needs_lab
def test_an_unreachable_pair_is_reported_before_the_start(lab, tmp_path):
    """Neither Bo's router nor Cy's offers UPnP: no seat order lets them connect. The
    host says so before anything starts, naming both."""
    homes = [lab.home(), lab.home(upnp=False), lab.home(upnp=False)]
    with _three_homes(homes, tmp_path, _asked_its_router) as peers:
        host = peers[0]
        host.proc.wait(60)
    errors = host.errors()
    assert host.proc.returncode == 1, host.text() + errors
    assert re.search(r"cannot start: \S+ and \S+ cannot reach each other: neither "
                     r"can be dialled from outside their own network \(\S+ at "
                     r"11\.0\.0\.2:\d+, \S+ at 11\.0\.0\.3:\d+\)", errors), errors
    assert "game started" not in host.text()
    assert "forward its TCP port" in errors and "ZeroTier" in errors


@needs_lab
def test_an_ipv6_only_game(lab, tmp_path):
    """Three computers with IPv6 addresses only (no IPv4 but loopback) play one game,
    joining by `[2001:db8:5::1]:7531`."""
    computers = [lab.ipv6_computer() for _ in range(3)]
    for ns, _ in computers:
        assert "inet " not in lab.sh(ns, "ip", "-4", "addr", "show", "dev", "eth0")
    (ns0, addr0), others = computers[0], computers[1:]
    host = _host(ns0, tmp_path)
    peers = [host]
    try:
        host.wait_for(re.escape(f"join [{addr0}]:7531 --code"), 30)
        for i, (ns, _) in enumerate(others):
            peers.append(_join(ns, tmp_path, f"v6-{i}", f"[{addr0}]:7531"))
        _finish(peers)
    finally:
        P.kill_all(peers)


def _netcheck(home, *addresses, router=False):
    return subprocess.run([P.PYTHON, str(P.ROOT / "main.py"), "netcheck", *addresses,
                           *(() if router else ("--no-router",))],
                          cwd=P.ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SHOGUN_NET_DISCOVERY": "off"},
                          preexec_fn=enter(home.pc))
