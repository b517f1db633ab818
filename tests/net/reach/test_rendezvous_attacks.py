"""A stranger at the mailbox without the code (issue 39), with real processes on loopback.

The mailbox server is public: anyone can claim the nameplate (the number before the
first dash) of the code the host shows. Without the words the stranger's wormhole key
differs from the host's: magic-wormhole's SPAKE2 fails on both sides, the stranger gets
nothing the host sent (the table's join code, its addresses) and cannot join; the code is
spent, and the host shows a new one, with which the friend joins and plays.
"""

from __future__ import annotations

import re

import pytest

from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

CODE_LINE = r"join (\d+)-([a-z]+-[a-z]+)\s"
LOOPBACK = {"SHOGUN_NET_INTERFACE": "127.0.0.1"}


def test_a_stranger_with_the_nameplate_but_not_the_words_learns_nothing_and_cannot_join(
        servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3", "--bots", "1",
                           *where], tmp_path, LOOPBACK)
    peers = [host]
    try:
        shown = host.wait_for(CODE_LINE, 60)
        table_code = re.search(r"join code (\S+)", host.text()).group(1)
        nameplate, words = shown.group(1), shown.group(2)
        guess = "wrong-guess" if words != "wrong-guess" else "other-guess"
        stranger = P.Peer("stranger", ["join", f"{nameplate}-{guess}", "--headless", *where],
                          tmp_path, LOOPBACK)
        peers.append(stranger)
        stranger.proc.wait(120)
        assert stranger.proc.returncode == 1, stranger.text() + stranger.errors()
        said = stranger.text() + stranger.errors()
        assert "error: cannot join by code: the code is wrong (or someone else used it " \
               "first); ask the host for the code it shows now" in said, said
        assert table_code not in said and "reached the table" not in said
        # the host says the code is spent and shows another
        host.wait_for(r"the invitation code \S+ no longer works: the code is wrong", 60)
        again = host.wait_for(r"The next friend joins with: \./shogun join (\d+-[a-z]+-[a-z]+)",
                              60).group(1)
        assert again != f"{nameplate}-{words}"
        friend = P.Peer("friend", ["join", again, "--headless", *where], tmp_path, LOOPBACK)
        peers.append(friend)
        P.wait_all([host, friend], 300)
    finally:
        P.kill_all(peers)
    assert host.proc.returncode == 0 and friend.proc.returncode == 0, \
        host.errors()[-1500:] + friend.errors()[-1500:]
    assert host.final_hash() is not None and host.final_hash() == friend.final_hash()
    assert "game started: seat 1" in friend.text()


def test_a_code_nobody_answers_is_said_plainly_after_the_wait(servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    friend = P.Peer("friend", ["join", "97-nobody-here", "--headless", *where], tmp_path,
                    {**LOOPBACK, "SHOGUN_NET_RENDEZVOUS_WAIT": "3"})
    try:
        friend.proc.wait(60)
    finally:
        P.kill_all([friend])
    assert friend.proc.returncode == 1
    assert "error: cannot join by code: no table answered that code within 3 s: is the " \
           "host's table still open, and can this computer reach the rendezvous " \
           "server 127.0.0.1?" in friend.errors(), friend.errors()
