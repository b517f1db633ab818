"""A player that pings the others in a loop all game long (tests/net/pinging_peer.py), as a
real process on loopback: the honest tables answer within their budget
(net/transport/round_trip.py), say so once per connection, count no offence, and the
game ends with one hash, the pinger's included."""

from __future__ import annotations

import re

import pytest

from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

PINGER = P.ROOT / "tests" / "net" / "pinging_peer.py"


def test_a_player_pinging_in_a_loop_gets_a_few_answers_and_the_game_ends_as_one(tmp_path):
    host, port = P.host(tmp_path, players=3, bots=1, timeout=60)
    peers = [host]
    try:
        pinger = P.Peer("pinger", ["join", f"127.0.0.1:{port}", "--code", P.CODE,
                                   "--headless", "--rejoin-timeout", "60",
                                   "--save", str(tmp_path / "pinger.save")],
                        tmp_path, script=PINGER)
        peers.append(pinger)
        pinger.wait_for(r"game started", 120)
        P.wait_all(peers, 300)
    finally:
        P.kill_all(peers)
    for p in peers:
        assert p.proc.returncode == 0, f"{p.name}:\n{p.errors()[-2000:]}"
    finals = {p.name: p.final_hash() for p in peers}
    assert len(set(finals.values())) == 1 and None not in finals.values(), finals
    counts = re.search(r"pinged (\d+) times, answered (\d+)", pinger.text())
    assert counts, pinger.text()[-2000:]
    pinged, answered = int(counts.group(1)), int(counts.group(2))
    # 25 pings every tenth of a second; the host answers 4 at once, then 2 a second
    assert pinged >= 25 and answered < pinged / 2, (pinged, answered)
    assert "pings faster than" in host.errors(), host.errors()[-2000:]
    assert "offence" not in host.errors().lower()
    assert "is played by a bot from step" not in host.errors()
