"""`join NAME:PORT` and `join [IPv6]:PORT` between real processes on this machine's
loopback (issue 16): the address forms a friend types, not only 127.0.0.1."""

from __future__ import annotations

import socket

import pytest

from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.parametrize("interface,address", [
    ("127.0.0.1", "localhost:{port}"),
    pytest.param("::1", "[::1]:{port}", marks=pytest.mark.skipif(
        not _has_ipv6_loopback(), reason="no IPv6 loopback on this machine")),
])
def test_a_game_joined_by_name_or_ipv6_address(tmp_path, interface, address):
    env = {"SHOGUN_NET_INTERFACE": interface}
    host, port = P.host(tmp_path, 3, bots=1, env=env)
    peers = [host]
    try:
        host.wait_for(r"join " + ("\\[::1\\]" if ":" in interface else "127\\.0\\.0\\.1")
                      + f":{port} --code {P.CODE}", 10)
        peers.append(P.Peer("guest", ["join", address.format(port=port), "--code", P.CODE,
                                      "--headless", "--rejoin-timeout", "60",
                                      "--save", str(tmp_path / "guest.save")], tmp_path, env))
        P.wait_all(peers, 180)
    finally:
        P.kill_all(peers)
    assert [p.proc.returncode for p in peers] == [0, 0], [p.errors()[-1500:] for p in peers]
    finals = {p.final_hash() for p in peers}
    assert len(finals) == 1 and None not in finals
