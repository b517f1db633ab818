"""A host that makes its players scan, real processes on loopback (the mesh's door,
net/table/policy/mesh_addresses.py): `scanning_host.py` seats two players, then its
`GameStarted` gives seat 1's address as a hidden service on the players' own loopback (a
TCP listener this test owns, on an ephemeral port). Seat 2 dials the lower seats at the
host's addresses: before, it dialled the hidden service; now a player whose table is not
on loopback (what a player at home runs: it listens on every interface, behind the
table's code) dials none of its own machine's services, and reads one sentence saying
that seat 1 is not dialled.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.net import processes as P
from tests.net.reach.test_offer_attacks import HiddenServices

pytestmark = [pytest.mark.network, pytest.mark.slow]

SCANNING_HOST = Path(__file__).with_name("scanning_host.py")
REFUSED = "seat 1 is not dialled: the host gave an address for it that this computer does not dial"


def test_a_hosts_start_makes_no_player_dial_its_own_loopback(tmp_path):
    hidden = HiddenServices(["127.0.0.1"])
    where = "%s:%d" % hidden.addresses[0]
    port = P.free_port()
    peers: list[P.Peer] = []
    try:
        host = P.Peer("host", ["host", "--headless", "--port", str(port), "--code", P.CODE,
                               "--players", "3", "--bots", "0", "--rejoin-timeout", "20",
                               "--save", str(tmp_path / "host.save")],
                      tmp_path, script=SCANNING_HOST, env={"HIDDEN": where})
        peers.append(host)
        host.wait_for(r"table open on port", 60)
        peers.append(P.join(tmp_path, port, "seat1", timeout=20))
        host.wait_for(r"seated: 2 players", 60)
        # seat 2 at home: its table listens on every interface, not on loopback alone
        victim = P.join(tmp_path, port, "seat2", timeout=20,
                        env={"SHOGUN_NET_INTERFACE": "0.0.0.0", "SHOGUN_NET_PORTMAP": "off"})
        peers.append(victim)
        host.wait_for(r"seat 1's address given as", 60)
        victim.wait_for(r"game started: seat 2", 60)
        # the mesh dial goes out as the start is taken: wait for the sentence or a dial,
        # then a few seconds more (a redial would come in them)
        end = time.monotonic() + 20
        while time.monotonic() < end and not hidden.connections \
                and REFUSED not in victim.errors():
            time.sleep(0.05)
        time.sleep(3)
    finally:
        P.kill_all(peers)
        hidden.stop()
    out = victim.text() + victim.errors()
    assert hidden.connections == [], (hidden.connections, out[-2000:])
    assert hidden.received == {}, hidden.received
    assert out.count(REFUSED) == 1, out[-2000:]
    assert where not in out, out[-2000:]
