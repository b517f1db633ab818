"""A burner on the mailbox (issue 47, finding 2), with real processes on loopback.

The burner (tests/net/code_burner.py) binds the game's public application id, lists the
open nameplates four times a second and claims each new one at once with a wrong guess.
Before issue 47 that spoiled every code the host showed (the host showed the next, which
the burner claimed again), so no friend got in, and each claim was a 1 in 65,536 chance
of the table's own code and addresses. With codes whose namespace only their holders
can name (net/reach/invite_codes.py) the burner lists nothing it can claim: friends
typing the code get in, and the burner receives nothing the host sent.
"""

from __future__ import annotations

import re

import pytest

from tests.net import code_burner
from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

LOOPBACK = {"SHOGUN_NET_INTERFACE": "127.0.0.1"}


def test_a_burner_listing_the_mailbox_keeps_no_friend_out_and_learns_nothing(
        servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    burner, out = code_burner.start(servers.mailbox_url, tmp_path)
    peers: list[P.Peer] = []
    try:
        code_burner.figures(out)           # it is listing the mailbox before the host opens
        host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3",
                               *where], tmp_path, LOOPBACK)
        peers.append(host)
        host.wait_for(code_burner.SHOWN, 60)
        table_code = re.search(r"join code (\S+)", host.text()).group(1)
        joined, used = [], set()
        for n in (1, 2):
            seconds, attempts, friend = code_burner.friend_joins(
                host, f"friend{n}", where, tmp_path, LOOPBACK, within=30.0, used=used)
            if friend is not None:
                peers.append(friend)
            joined.append((seconds, attempts))
        stats = code_burner.figures(out)
    finally:
        burner.terminate()
        burner.wait(10)
        P.kill_all(peers)
    assert burner.returncode is not None
    said = f"friends (seconds, attempts): {joined}; burner: {stats}"
    assert all(seconds is not None and seconds < 30 for seconds, _ in joined), said
    assert stats["learned"] == [] and table_code not in str(stats), said
    assert stats["lists"] >= 10, said      # it listed all along (four times a second)
