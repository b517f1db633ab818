"""A stranger at the mailbox without the code (issues 39 and 47), with real processes on
loopback.

A code's first three words name a namespace of the mailbox that only holders of the code
can find (net/reach/invite_codes.py); here the stranger has them anyway (as the mailbox's
operator could, by hashing word triples offline) but not the last three. magic-wormhole's
SPAKE2 fails on both sides: the stranger gets nothing the host sent (the table's join
code, its addresses) and cannot join. The code is not spent (issue 47): the host opens
the same code again after a pause, and the friend who holds it joins and plays.
"""

from __future__ import annotations

import re

import pytest

from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

CODE_LINE = r"join ([a-z]+-[a-z]+-[a-z]+)-([a-z]+-[a-z]+-[a-z]+)\s"
LOOPBACK = {"SHOGUN_NET_INTERFACE": "127.0.0.1"}


def test_a_stranger_with_the_namespace_but_not_the_secret_words_learns_nothing_and_spends_nothing(
        servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3", "--bots", "1",
                           *where], tmp_path, LOOPBACK)
    peers = [host]
    try:
        shown = host.wait_for(CODE_LINE, 60)
        table_code = re.search(r"join code (\S+)", host.text()).group(1)
        hidden, secret = shown.group(1), shown.group(2)
        guess = "adrift-almighty-amulet" if secret != "adrift-almighty-amulet" else \
            "absurd-pandora-tracker"
        stranger = P.Peer("stranger", ["join", f"{hidden}-{guess}", "--headless", *where],
                          tmp_path, LOOPBACK)
        peers.append(stranger)
        stranger.proc.wait(120)
        assert stranger.proc.returncode == 1, stranger.text() + stranger.errors()
        said = stranger.text() + stranger.errors()
        assert "error: cannot join by code: the code is wrong (or someone else used it " \
               "first); ask the host for the code it shows now" in said, said
        assert table_code not in said and "reached the table" not in said
        # the host counts the guess and keeps the code: the friend who holds it gets in
        host.wait_for(r"someone tried the code \S+ with wrong words at the rendezvous "
                      r"\(1 so far\); the code still works, open again in 1 s", 60)
        assert "The next friend joins with" not in host.text()
        friend = P.Peer("friend", ["join", f"{hidden}-{secret}", "--headless", *where],
                        tmp_path, LOOPBACK)
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
    friend = P.Peer("friend", ["join", "absurd-pandora-tracker-guitarist-revenge-uncut", "--headless",
                              *where], tmp_path,
                    {**LOOPBACK, "SHOGUN_NET_RENDEZVOUS_WAIT": "3"})
    try:
        friend.proc.wait(60)
    finally:
        P.kill_all([friend])
    assert friend.proc.returncode == 1
    assert "error: cannot join by code: no table answered that code within 3 s: is the " \
           "host's table still open, and can this computer reach the rendezvous " \
           "server 127.0.0.1?" in friend.errors(), friend.errors()
