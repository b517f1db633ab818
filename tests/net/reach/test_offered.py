"""Which of a host's offered addresses a friend probes (issue 47, finding 4): the decision
`net.reach.offered.judge` as a table, row by row. A hostile host's `Offer` made the friend
probe 32 addresses of the host's choosing, its own loopback services among them; now a
handful, each judged by the address itself (never by the scope the host claims)."""

from __future__ import annotations

import ipaddress

import pytest

from net.reach.addresses import Reachable
from net.reach.offered import MAX_PROBES, FriendSide, judge, not_tried, to_probe

HOME = FriendSide(local=False,
                  networks=(ipaddress.ip_network("192.168.1.0/24"),
                            ipaddress.ip_network("fd00:1::/64"),
                            ipaddress.ip_network("100.101.0.0/16"),
                            ipaddress.ip_network("0.0.0.0/0")),     # a default route's /0
                  own=frozenset({ipaddress.ip_address("192.168.1.20"),
                                 ipaddress.ip_address("2001:db8:9::20")}))
LOCAL = FriendSide(local=True, networks=(ipaddress.ip_network("127.0.0.0/8"),),
                   own=frozenset({ipaddress.ip_address("127.0.0.1")}))


def at(host, port=7531, scope="public"):
    return Reachable(host, port, scope)


@pytest.mark.parametrize("host, side, probed, why", [
    # the internet: the host's router mapping, global IPv6 (lab ranges look public too)
    ("203.0.113.7", HOME, True, ""),
    ("11.0.0.2", HOME, True, ""),
    ("2a01:4f8::1", HOME, True, ""),
    ("2001:db8:5::2", HOME, True, ""),
    # the friend's own machine: only on a local path
    ("127.0.0.1", HOME, False, "this computer's own address"),
    ("127.9.9.9", HOME, False, "this computer's own address"),
    ("::1", HOME, False, "this computer's own address"),
    ("::ffff:127.0.0.1", HOME, False, "this computer's own address"),
    ("192.168.1.20", HOME, False, "this computer's own address"),
    ("2001:db8:9::20", HOME, False, "this computer's own address"),
    ("127.0.0.1", LOCAL, True, ""),
    ("::1", LOCAL, True, ""),
    # link-local: never, not even on a local path
    ("169.254.1.1", HOME, False, "a link-local address"),
    ("fe80::1", HOME, False, "a link-local address"),
    ("fe80::1", LOCAL, False, "a link-local address"),
    # a LAN: only one the friend is on
    ("192.168.1.7", HOME, True, ""),
    ("192.168.2.7", HOME, False, "a private address of another network"),
    ("10.0.0.1", HOME, False, "a private address of another network"),
    ("172.16.5.5", HOME, False, "a private address of another network"),
    ("fd00:1::7", HOME, True, ""),
    ("fd00:2::7", HOME, False, "a private address of another network"),
    ("100.101.3.4", HOME, True, ""),            # the same VPN
    ("100.64.0.1", HOME, False, "a private address of another network"),
    ("10.0.0.1", LOCAL, False, "a private address of another network"),
    # never a table's address
    ("0.0.0.0", HOME, False, "not an address a table listens at"),
    ("::", HOME, False, "not an address a table listens at"),
    ("224.0.0.251", HOME, False, "not an address a table listens at"),
    ("ff02::1", HOME, False, "not an address a table listens at"),
    ("255.255.255.255", HOME, False, "not an address a table listens at"),
    ("240.0.0.1", HOME, False, "not an address a table listens at"),
    # not an IP address: a name would be looked up, a scope id carries text
    ("router.example", HOME, False, "not an IP address"),
    ("localhost", LOCAL, False, "not an IP address"),
    ("::1%\x1b]0;pwned\x07", LOCAL, False, "not an IP address"),
    ("127.0.0.1\n", LOCAL, False, "not an IP address"),
    ("", HOME, False, "not an IP address"),
])
def test_each_address_is_judged_by_what_it_is(host, side, probed, why):
    [judged] = judge([at(host, scope="public")], side)
    assert (judged.probe, judged.why) == (probed, why)


def test_the_scope_the_host_claims_changes_nothing():
    for scope in ("public", "global IPv6", "LAN", "this machine", "\x1b[2J"):
        assert not judge([at("127.0.0.1", scope=scope)], HOME)[0].probe
        assert judge([at("203.0.113.7", scope=scope)], HOME)[0].probe


def test_a_handful_in_the_hosts_order_each_ip_once():
    offered = [at("203.0.113.7", 7531), at("203.0.113.7", 22), at("198.51.100.1"),
               at("127.0.0.1", 6379), at("2a01:4f8::1"), at("192.168.1.7"),
               at("192.168.1.8"), at("192.168.1.9")]
    judged = judge(offered, HOME)
    assert [j.probe for j in judged] == [True, False, True, False, True, True, False, False]
    assert [j.why for j in judged if not j.probe] == [
        "an address offered twice", "this computer's own address",
        "beyond the addresses a friend tries", "beyond the addresses a friend tries"]
    assert [r.dial for r in to_probe(offered, HOME)] == [
        "203.0.113.7:7531", "198.51.100.1:7531", "[2a01:4f8::1]:7531", "192.168.1.7:7531"]
    assert not_tried(judged) == 4


def test_the_issues_offer_of_32_addresses_is_at_most_a_handful():
    offered = [at(f"127.0.0.{i}", 40000 + i) for i in range(1, 33)]
    assert to_probe(offered, HOME) == []
    assert len(to_probe(offered, LOCAL)) == MAX_PROBES
    public = [at(f"198.51.100.{i}", 7531) for i in range(1, 33)]
    assert len(to_probe(public, HOME)) == MAX_PROBES


def test_what_is_probed_is_written_by_the_friend_not_the_host():
    [r] = to_probe([at("2a01:04f8:0000::0001", scope="x" * 40)], HOME)
    assert r.host == "2a01:4f8::1" and len(r.scope) == 32


def test_this_machines_side_is_read_from_its_interfaces():
    side = FriendSide.here(local=False)
    assert ipaddress.ip_address("127.0.0.1") in side.own
    assert not side.local
