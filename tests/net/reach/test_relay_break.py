"""A relay that dies mid-game and comes back (issue 39 item 3), with real processes and a
mailbox and relay on 127.0.0.1 (tests/net/wormhole_servers.py).

The friend joined by code through the relay (SHOGUN_NET_RELAY_ONLY=1: on loopback every
direct path would work). The relay is killed in the game: both players pause, as for any
dropped link. A relay is started again at the same address: the tunnel reconnects through
it (net/reach/tunnel.py `RelayRedial`; magic-wormhole 0.24 alone dials the relay once and
then waits for ever), the friend's table rejoins, and the game finishes with one hash.

When the relay stays dead the table never splits: tests/net/reach/test_internet_rendezvous.py.
"""

from __future__ import annotations


import pytest

from tests.net import processes as P
from tests.net.reach.conftest import CODE_LINE, RELAY_ONLY as ENV

pytestmark = [pytest.mark.network, pytest.mark.slow]




def test_a_relay_that_comes_back_carries_the_game_on_to_one_hash(servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address,
             "--rejoin-timeout", "300"]
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3", "--bots", "1",
                           "--save", str(tmp_path / "host.save"), *where], tmp_path, ENV)
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        friend = P.Peer("friend", ["join", code, "--headless",
                                   "--save", str(tmp_path / "friend.save"), *where],
                        tmp_path, ENV)
        peers.append(friend)
        friend.wait_for(r"reached the table by code: through the relay", 120)
        host.wait_for(r"game started: seat 0", 120)
        friend.wait_for(r"game started: seat 1", 60)
        servers.stop_relay()
        host.wait_for_error("paused: seat 1", 60)
        friend.wait_for_error("paused: seat 0", 60)
        servers.restart_relay()
        P.wait_all(peers, 400)
    finally:
        P.kill_all(peers)
    codes = [p.proc.returncode for p in peers]
    assert codes == [0, 0], [(p.name, p.text()[-800:], p.errors()[-2000:]) for p in peers]
    finals = {p.name: p.final_hash() for p in peers}
    assert None not in finals.values() and len(set(finals.values())) == 1, finals
    assert "seat 1 is played by a bot" not in host.errors()      # the friend came back
    assert "friend 1 is connected through the relay" in host.text()
