"""A relay that tampers with the bytes it carries (issue 39: the trust issue's attacks
through the relay), as a real process (tests/net/reach/tampering_relay.py) in front of the
real transit relay, everything on 127.0.0.1.

The friend joins by code through that relay (SHOGUN_NET_RELAY_ONLY=1), the game starts,
and the relay alters one bit, injects a frame of its own or drops a chunk of what a
player sends.
The tunnel's Noise check refuses the record; each side's log says so in a sentence
(net/reach/tunnel.py `say_when_records_fail_authentication`); magic-wormhole connects the
tunnel again and the game finishes with one hash: nothing the relay did reached a game.
(What the relay could read: nothing; the table's frames are sealed end to end inside the
tunnel's own encryption. A stranger at the mailbox: tests/net/reach/test_rendezvous_attacks.py.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from net.reach.tunnel import TAMPERED
from tests.net import processes as P
from tests.net.reach.conftest import wait_text

pytestmark = [pytest.mark.network, pytest.mark.slow]

CODE_LINE = r"Friends anywhere join with: \./shogun join ([a-z]+(?:-[a-z]+){5})"
ENV = {"SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_RELAY_ONLY": "1"}
ATTACKER = P.ROOT / "tests" / "net" / "reach" / "tampering_relay.py"


@pytest.mark.parametrize("mode", ["alter", "inject", "drop"])
def test_a_relay_that_tampers_forges_nothing_and_the_game_ends_with_one_hash(
        servers, tmp_path, mode):
    port = P.free_port()
    relay_port = servers.relay_address.rsplit(":", 1)[1]
    out = tmp_path / "attacker.out"
    attacker = subprocess.Popen([sys.executable, str(ATTACKER), str(port), relay_port, mode],
                                stdout=open(out, "w"), stderr=subprocess.STDOUT)
    where = ["--rendezvous", servers.mailbox_url, "--relay", f"127.0.0.1:{port}",
             "--rejoin-timeout", "300"]
    peers: list[P.Peer] = []
    try:
        wait_text(out, "listening", 30)
        host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3",
                               "--bots", "1", *where], tmp_path, ENV)
        peers.append(host)
        code = host.wait_for(CODE_LINE, 60).group(1)
        friend = P.Peer("friend", ["join", code, "--headless", *where], tmp_path, ENV)
        peers.append(friend)
        P.wait_all(peers, 400)
    finally:
        P.kill_all(peers)
        attacker.kill()
        attacker.wait(5)
    said = out.read_text()
    assert f"tampered: {mode}" in said, said                      # the attack happened
    assert "through the relay" in friend.text()
    codes = [p.proc.returncode for p in peers]
    assert codes == [0, 0], [(p.name, p.text()[-800:], p.errors()[-2000:]) for p in peers]
    finals = {p.name: p.final_hash() for p in peers}
    assert None not in finals.values() and len(set(finals.values())) == 1, finals
    logs = host.errors() + friend.errors()
    assert TAMPERED in logs, logs[-3000:]                         # said, in a sentence
    assert "desync" not in logs.lower() and "offence" not in logs.lower(), logs[-3000:]
