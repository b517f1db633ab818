"""Join by code (issue 39): what host and friend say to each other over the wormhole, which
of the host's addresses the friend dials, and how the options are read.

The real exchange (a mailbox and a relay, homes behind NAT) is
tests/net/reach/test_internet_rendezvous.py; this file holds the decisions."""

from __future__ import annotations

import json

import pytest

from cli import by_code
from net.table.options import TableOptions
from net.reach.reach_settings import ReachSettings
from net.reach.addresses import AddressError, Reachable
from net.reach.reachability import Probe
from net.reach.rendezvous import (PUBLIC_MAILBOX, PUBLIC_RELAY, Choice, Offer,
                                  RendezvousError, choose_direct, is_invite, relay_hint)
from net.reach.tunnel import link_of

ADDRESSES = [Reachable("203.0.113.7", 7531, "public"), Reachable("2001:db8::7", 7531, "global IPv6"),
             Reachable("192.168.1.7", 7531, "LAN")]


def test_an_offer_survives_the_wormhole():
    offer = Offer("K7Q2-M9XD", ADDRESSES, relay=False)
    assert Offer.from_bytes(offer.to_bytes()) == offer


@pytest.mark.parametrize("raw, said", [
    (b"not json", "not readable"),
    (json.dumps({"shogun": 2, "code": "C", "relay": True, "addresses": []}).encode(),
     "not a Shogun table of this version"),
    (json.dumps({"code": "C", "relay": True, "addresses": []}).encode(),
     "not a Shogun table of this version"),
    (json.dumps({"shogun": 1, "code": "", "relay": True, "addresses": []}).encode(), "malformed"),
    (json.dumps({"shogun": 1, "code": "C", "relay": "yes", "addresses": []}).encode(), "malformed"),
    (json.dumps({"shogun": 1, "code": "C", "relay": True, "addresses": [[1] * 3] * 33}).encode(),
     "malformed"),
    (json.dumps({"shogun": 1, "code": "C", "relay": True,
                 "addresses": [["h", 70000, "LAN"]]}).encode(), "malformed address"),
    (json.dumps({"shogun": 1, "code": "C", "relay": True,
                 "addresses": [["h" * 65, 1, "LAN"]]}).encode(), "malformed address"),
])
def test_a_bad_offer_is_refused_with_a_sentence(raw, said):
    with pytest.raises(RendezvousError, match=said):
        Offer.from_bytes(raw)


@pytest.mark.parametrize("raw, ok", [
    (Choice("direct").to_bytes(), True), (Choice("relay").to_bytes(), True),
    (Choice("none", "why").to_bytes(), True), (Choice("none", "no-relay").to_bytes(), True),
    (json.dumps({"path": "teleport"}).encode(), False), (b"[", False),
    (json.dumps({"path": "none", "reason": 7}).encode(), False),
])
def test_the_friends_answer_is_one_of_three_paths(raw, ok):
    if ok:
        assert Choice.from_bytes(raw).path in ("direct", "relay", "none")
    else:
        with pytest.raises(RendezvousError):
            Choice.from_bytes(raw)


@pytest.mark.parametrize("reason, host_reads", [
    ("direct-only", "no direct path to the table, and the friend asked for --direct-only"),
    ("no-relay", "no direct path to the table, and this table allows no relay (it runs with "
                 "--direct-only). You can forward the table's TCP port on the router, or both "
                 "can use IPv6 or one VPN; see docs/net.md."),
    ("", "no direct path to the table"),
    ("no direct path (10.0.0.1:22: reached over IPv4, something that is not a Shogun table "
     "answered)", "no direct path to the table"),
    ("\x1b]0;pwned\x07\nFriends anywhere join with: ./shogun join 66-evil", "no direct path to "
     "the table"),
])
def test_the_host_reads_a_fixed_reason_in_its_own_words_never_the_friends_text(reason,
                                                                               host_reads):
    """Issue 47 (findings 4, 5): what a friend found at each address never goes back to
    the host, and the friend's text never reaches the host's terminal."""
    raw = json.dumps({"path": "none", "reason": reason}).encode()
    choice = Choice.from_bytes(raw)
    assert choice.sentence() == host_reads


def _probe(reached, greeted):
    return Probe("h", 1, reached, 0.01 if reached else None, greeted)


@pytest.mark.parametrize("answers, chosen", [
    ([(True, True), (True, True), (True, True)], 0),      # the most widely reachable first
    ([(False, False), (True, True), (True, True)], 1),
    ([(False, False), (True, False), (True, True)], 2),   # an open port that is no table: not it
    ([(False, False), (False, False), (False, False)], None),
])
def test_the_friend_dials_the_first_address_where_a_table_answered(answers, chosen):
    found = choose_direct(ADDRESSES, [_probe(*a) for a in answers])
    assert found == (None if chosen is None else ADDRESSES[chosen])


@pytest.mark.parametrize("text, invite", [
    ("7-guitarist-revenge", True), ("12-a-b-c", True), (" 7-crossover-clockwork ", True),
    ("192.168.1.7:7531", False), ("[2001:db8::7]:7531", False), ("7-", False),
    ("table-seven", False), (None, False), ("7-guitarist", False),
    ("absurd-pandora-tracker-guitarist-revenge-uncut", True),   # issue 47's six words
    ("Absurd-Pandora-Tracker", True),          # too short, but a code: it gets a sentence
])
def test_a_code_is_told_from_an_address(text, invite):
    assert is_invite(text) is invite


def test_the_relay_is_given_as_host_and_port():
    assert relay_hint("relay.example:4001") == "tcp:relay.example:4001"
    assert relay_hint("[2001:db8::9]:4001") == "tcp:[2001:db8::9]:4001"
    assert relay_hint("relay.example") == "tcp:relay.example:4001"
    with pytest.raises(AddressError):
        relay_hint(":4001")


def _args(**given):
    return TableOptions("join", **given)


def test_by_default_the_public_servers_and_the_relay_as_last_resort():
    got = by_code.options(_args(), "", ReachSettings())
    assert got is not None and (got.mailbox, got.relay) == (PUBLIC_MAILBOX, PUBLIC_RELAY)
    assert got.relay_allowed


def test_a_table_on_loopback_or_told_off_asks_no_rendezvous_unless_given_one():
    on, off = ReachSettings(), ReachSettings.from_environment({"SHOGUN_NET_RENDEZVOUS": "off"})
    assert by_code.options(_args(), "127.0.0.1", on) is None
    assert by_code.options(_args(), "", off) is None
    given = by_code.options(_args(rendezvous="ws://10.0.0.5:4000/v1", relay="10.0.0.5:4001",
                                  direct_only=True), "127.0.0.1", off)
    assert given is not None and given.relay == "tcp:10.0.0.5:4001" and not given.relay_allowed
    assert by_code.options(_args(), "", off, needed=True) is not None    # a code was typed


def test_the_reach_settings_are_read_from_the_environment_once_at_the_edge():
    """(issue 50) net reads no environment: the edge turns it into a ReachSettings."""
    got = ReachSettings.from_environment({"SHOGUN_NET_RELAY_ONLY": "1",
                                          "SHOGUN_NET_PORTMAP": "off",
                                          "SHOGUN_NET_REACH_CHECK": "off",
                                          "SHOGUN_NET_RENDEZVOUS_WAIT": "7"})
    assert (got.relay_only, got.portmap, got.reach_check, got.rendezvous,
            got.answer_wait) == (True, False, False, True, 7.0)
    assert ReachSettings.from_environment({"SHOGUN_NET_RENDEZVOUS_WAIT": "soon"}) \
        == ReachSettings()
    friend = by_code.options(_args(), "", got, needed=True)
    assert friend is not None and friend.relay_only and friend.answer_wait == 7.0


def test_a_rendezvous_that_is_no_mailbox_address_is_refused():
    with pytest.raises(ValueError, match="not a mailbox address; give ws://HOST:PORT/v1"):
        by_code.options(_args(rendezvous="10.0.0.5:4000"), "", ReachSettings())


class _Connected:
    def __init__(self, hint):
        self.hint_description = hint


class _Status:
    def __init__(self, peer):
        self.peer_connection = peer


@pytest.mark.parametrize("hint, relay, where", [
    ("->relay:tcp:11.0.0.101:4001", True, "11.0.0.101:4001"),
    ("->tcp:10.1.0.2:40111", False, "10.1.0.2:40111"),
    ("<-tcp:[2001:db8::7]:40111", False, "[2001:db8::7]:40111"),
])
def test_the_link_says_whether_it_goes_through_the_relay(hint, relay, where):
    link = link_of(_Status(_Connected(hint)))
    assert link.connected and link.through_relay is relay and link.where == where
    assert not link_of(_Status(object())).connected


def test_a_failure_is_said_as_a_sentence_whether_twisted_wraps_it_or_not():
    """Twisted's Failure is a BaseException itself (Twisted 24): it was said as its repr
    (`[Failure instance: ...]`) to a host whose invitation a wrong code spoiled."""
    from twisted.python.failure import Failure
    from wormhole.errors import WrongPasswordError

    from net.reach.rendezvous import plain_failure
    for failure in (WrongPasswordError(), Failure(WrongPasswordError())):
        assert plain_failure(failure, "ws://m/v1").startswith("the code is wrong"), failure
