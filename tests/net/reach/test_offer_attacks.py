"""A hostile peer on the join-by-code path (issue 47, findings 4 and 5), real processes on
loopback: a mailbox server and transit relay from their pip packages, the game's own
`main.py`, and the attacker `tests/net/reach/hostile_wormhole.py`.

- Finding 4, offers are not a scanner: a hostile host offers 32 addresses of its choosing,
  hidden services on the friend's own loopback among them. Before, the friend probed
  every one (each hidden service received a `Probed` frame) and sent the host about 2,000
  characters of what it found at each. Now a friend whose table is not on loopback
  probes none of its own machine's services; one on loopback (a test) at most a handful;
  and the host reads a short fixed reason.
- Finding 5, peer text is data: the hostile host's address strings (an IPv6 scope id
  carrying a clear-screen, a window title, an OSC 52 clipboard write and a forged line)
  never reach the friend's terminal; a hostile code holder's reason never reaches the
  host's terminal or log.
"""

from __future__ import annotations

import json
import re
import selectors
import socket
import subprocess
import threading
from pathlib import Path
from typing import cast

import pytest

from net.reach.offered import MAX_PROBES
from tests.net import processes as P
from tests.net.reach.conftest import CODE_LINE

pytestmark = [pytest.mark.network, pytest.mark.slow]

HOSTILE = Path(__file__).with_name("hostile_wormhole.py")
FORGED = "Friends anywhere join with: ./shogun join 66-forged-line"
EVIL = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;ZWNobyBldmls\x07\n" + FORGED + "\n"
# what a hostile host puts where an address belongs. A name with control characters is
# refused by the C library's resolver before any lookup (checked with strace in an empty
# network namespace: no packet, only "Name or service not known"), so nothing leaves the
# machine; before, the friend printed it in its sentence about the addresses it tried
EVIL_HOSTS = ["\x1b[2J\x1b]0;pwned\x07\n" + FORGED[:40],
              "\x1b]52;c;ZWNobyBldmls\x07\x9b2J\u202egnp.exe"]


class HiddenServices:
    """Listeners on loopback that record every connection and what it sent (the services
    of the friend's own machine that a host must not make it probe)."""

    def __init__(self, hosts: list[str]) -> None:
        self.selector = selectors.DefaultSelector()
        self.addresses: list[tuple[str, int]] = []
        self.connections: list[tuple[str, int]] = []
        self.received: dict[tuple[str, int], bytes] = {}
        for host in hosts:
            s = socket.socket()
            s.bind((host, 0))
            s.listen(8)
            s.setblocking(False)
            self.addresses.append(s.getsockname())
            self.selector.register(s, selectors.EVENT_READ, ("listen", s.getsockname()))
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped:
            for key, _mask in self.selector.select(0.1):
                kind, where = key.data
                sock = cast(socket.socket, key.fileobj)
                if kind == "listen":
                    conn, _ = sock.accept()
                    conn.setblocking(False)
                    self.connections.append(where)
                    self.selector.register(conn, selectors.EVENT_READ, ("conn", where))
                else:
                    try:
                        data = sock.recv(4096)
                    except OSError:
                        data = b""
                    if data:
                        self.received[where] = self.received.get(where, b"") + data
                    else:
                        self.selector.unregister(sock)
                        sock.close()

    def stop(self) -> None:
        self.stopped = True
        self.thread.join(5)
        for key in list(self.selector.get_map().values()):
            cast(socket.socket, key.fileobj).close()


def _hostile_host(tmp_path: Path, servers, addresses: list[list]) -> tuple[P.Peer, str, Path]:
    offer = tmp_path / "offer.json"
    offer.write_text(json.dumps({"shogun": 1, "code": "ABCD-EFGH", "relay": False,
                                 "addresses": addresses}))
    answer = tmp_path / "answer.bin"
    host = P.Peer("hostile-host", ["host", servers.mailbox_url, str(offer), str(answer)],
                  tmp_path, script=HOSTILE)
    code = host.wait_for(r"code: ([a-z]+(?:-[a-z]+){5})", 60).group(1)
    return host, code, answer


def _friend(tmp_path: Path, servers, code: str, on_loopback: bool) -> P.Peer:
    # a friend whose table is not on loopback: what a player at home runs. It listens on
    # nothing here (the join fails before its table is made) and maps no port
    env = {"SHOGUN_NET_PORTMAP": "off"}
    env["SHOGUN_NET_INTERFACE"] = "127.0.0.1" if on_loopback else ""
    return P.Peer("friend", ["join", code, "--headless", "--rendezvous", servers.mailbox_url,
                             "--relay", servers.relay_address], tmp_path, env)


def _answered(host: P.Peer) -> None:
    """Give the hostile host a moment to write the friend's answer (a friend that failed
    without answering leaves it waiting)."""
    try:
        host.proc.wait(20)
    except subprocess.TimeoutExpired:
        pass


def _one_clean_line_each(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text, repr(text[-600:])
    for line in text.splitlines():
        assert not line.startswith("Friends anywhere join with: ./shogun join 66-"), line


def _offer_to_a_friend_at_home(tmp_path: Path, servers, addresses: list[list]
                               ) -> tuple[P.Peer, str, Path]:
    peers: list[P.Peer] = []
    try:
        host, code, answer = _hostile_host(tmp_path, servers, addresses)
        peers.append(host)
        friend = _friend(tmp_path, servers, code, on_loopback=False)
        peers.append(friend)
        friend.proc.wait(120)
        _answered(host)
    finally:
        P.kill_all(peers)
    return friend, friend.text() + friend.errors(), answer


def test_a_hostile_hosts_offer_makes_the_friend_scan_nothing_and_report_nothing(servers,
                                                                                  tmp_path):
    hidden = HiddenServices(["127.0.0.1"] * 16 + [f"127.0.0.{i}" for i in range(2, 18)])
    try:
        addresses = [[h, p, "public"] for h, p in hidden.addresses]
        assert len(addresses) == 32
        friend, said, answer = _offer_to_a_friend_at_home(tmp_path, servers, addresses)
    finally:
        hidden.stop()
    # none of this machine's services was dialled, nothing of them went back
    assert hidden.connections == [], hidden.connections
    assert hidden.received == {}, hidden.received
    assert friend.proc.returncode == 1, said
    assert "error: cannot join by code: no direct path to the table (32 other addresses " \
           "the host gave not tried from here)" in said, said
    assert answer.exists(), "the friend gave the host no answer:\n" + said[-2000:]
    sent_back = answer.read_bytes()
    assert json.loads(sent_back) == {"path": "none", "reason": "no-relay"}, sent_back


def test_a_hostile_hosts_address_text_reaches_no_terminal(servers, tmp_path):
    friend, said, answer = _offer_to_a_friend_at_home(
        tmp_path, servers, [[h, 7531, "public"] for h in EVIL_HOSTS])
    assert friend.proc.returncode == 1, said
    _one_clean_line_each(said)
    assert "pwned" not in said and "ZWNv" not in said and "forged" not in said, said
    assert "\u202e" not in said and "Traceback" not in said, said
    assert "no direct path to the table (2 other addresses the host gave not tried from " \
           "here)" in said, said
    assert json.loads(answer.read_bytes()) == {"path": "none", "reason": "no-relay"}


def test_a_friend_on_loopback_probes_a_handful_of_the_32_addresses_offered(servers, tmp_path):
    hidden = HiddenServices([f"127.0.0.{i}" for i in range(2, 34)])
    peers: list[P.Peer] = []
    try:
        host, code, answer = _hostile_host(
            tmp_path, servers, [[h, p, "this machine"] for h, p in hidden.addresses])
        peers.append(host)
        friend = _friend(tmp_path, servers, code, on_loopback=True)
        peers.append(friend)
        friend.proc.wait(120)
        _answered(host)
    finally:
        P.kill_all(peers)
        hidden.stop()
    said = friend.text() + friend.errors()
    assert 0 < len(set(hidden.connections)) <= MAX_PROBES, hidden.connections
    assert friend.proc.returncode == 1, said
    assert len(answer.read_bytes()) < 60, answer.read_bytes()
    assert "28 other addresses the host gave not tried from here" in said, said


def test_a_hostile_code_holders_reason_never_reaches_the_hosts_terminal(servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3", "--bots", "1",
                           *where], tmp_path, {"SHOGUN_NET_INTERFACE": "127.0.0.1",
                                               "SHOGUN_NET_VERBOSE": "1"})
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        reason = tmp_path / "reason.json"
        reason.write_text(json.dumps(EVIL + "x" * 1500))
        friend = P.Peer("hostile-friend", ["friend", servers.mailbox_url, code, str(reason)],
                        tmp_path, script=HOSTILE)
        peers.append(friend)
        friend.proc.wait(60)
        host.wait_for(r"a friend who typed the code cannot reach the table: .*", 30)
        host.wait_for(r"The next friend joins with: \./shogun join [a-z]+(?:-[a-z]+){5}", 30)
    finally:
        P.kill_all(peers)
    shown = host.text() + host.errors()
    _one_clean_line_each(shown)
    assert "pwned" not in shown and "ZWNv" not in shown and "forged" not in shown, shown
    assert re.search(r"a friend who typed the code cannot reach the table: no direct path to "
                     r"the table\n", host.text()), host.text()
