"""Which of the host's `GameStarted` addresses a player dials (net/table/policy/mesh_addresses.py),
as a table: the host's seat where the player reached it, the others of plausible scope from
here, each seat and each address once."""

import ipaddress

import pytest

from net.reach.offered import FriendSide
from net.table.policy.mesh_addresses import (GivenAddress, MeshAddress, PlayerSide, judge_mesh,
                                             refused_sentence)

HOME = FriendSide(local=False, networks=(ipaddress.ip_network("192.168.1.0/24"),
                                         ipaddress.ip_network("fd00:1::/64")),
                  own=frozenset({ipaddress.ip_address("192.168.1.20")}))
TEST = FriendSide(local=True)
HOST_AT = ("203.0.113.7", 7531)        # where this player (seat 2) reached the host (seat 0)


def side(machine: FriendSide = HOME, host_at: tuple[str, int] = HOST_AT) -> PlayerSide:
    return PlayerSide(machine, my_seat=2, host_seat=0, host_at=host_at,
                      players=frozenset({0, 1, 2, 3}))


def one(seat: int, host: str, port: int = 40000, machine: FriendSide = HOME) -> MeshAddress:
    judged = judge_mesh([GivenAddress(seat, host, port)], side(machine))
    assert len(judged) == 1
    return judged[0]


@pytest.mark.parametrize("seat, host, port, machine, keep, why", [
    # a global address: a friend's router mapping, global IPv6
    (1, "198.51.100.9", 40000, HOME, True, ""),
    (1, "2001:db8::9", 40000, HOME, True, ""),
    # this computer's own services
    (1, "127.0.0.1", 40000, HOME, False, "this computer's own address"),
    (1, "127.0.0.53", 53, HOME, False, "this computer's own address"),
    (1, "::1", 40000, HOME, False, "this computer's own address"),
    (1, "::ffff:127.0.0.1", 40000, HOME, False, "this computer's own address"),
    (1, "192.168.1.20", 40000, HOME, False, "this computer's own address"),
    # ... which a table on loopback (a test) does dial
    (1, "127.0.0.1", 40000, TEST, True, ""),
    # the home network the player is on, and somebody else's
    (1, "192.168.1.30", 40000, HOME, True, ""),
    (1, "fd00:1::30", 40000, HOME, True, ""),
    (1, "192.168.7.1", 80, HOME, False, "a private address of another network"),
    (1, "10.0.0.1", 22, HOME, False, "a private address of another network"),
    (1, "100.64.0.1", 40000, HOME, False, "a private address of another network"),
    (1, "10.0.0.1", 22, TEST, False, "a private address of another network"),
    # never
    (1, "169.254.1.1", 40000, HOME, False, "a link-local address"),
    (1, "fe80::1", 40000, HOME, False, "a link-local address"),
    (1, "fe80::1%eth0", 40000, HOME, False, "not an IP address"),
    (1, "0.0.0.0", 40000, HOME, False, "not an address a table listens at"),
    (1, "224.0.0.1", 40000, HOME, False, "not an address a table listens at"),
    (1, "255.255.255.255", 40000, HOME, False, "not an address a table listens at"),
    (1, "printer.local", 9100, HOME, False, "not an IP address"),
    (1, "", 40000, HOME, False, "not an IP address"),
    (1, "198.51.100.9", 0, HOME, False, "not a port a table listens at"),
    (1, "198.51.100.9", 70000, HOME, False, "not a port a table listens at"),
    # seats that are not another player's
    (4, "198.51.100.9", 40000, HOME, False, "not a player's seat"),
    (-1, "198.51.100.9", 40000, HOME, False, "not a player's seat"),
])
def test_each_address_the_host_gives_is_judged_by_the_address_itself(seat, host, port,
                                                                      machine, keep, why):
    judged = one(seat, host, port, machine)
    assert (judged.keep, judged.why) == (keep, why)


def test_a_kept_address_is_written_from_the_parsed_ip():
    assert one(1, "2001:DB8:0::9").host == "2001:db8::9"


def test_the_hosts_seat_is_where_i_reached_it_whatever_the_host_wrote():
    for written in ("", "127.0.0.1", "198.51.100.9"):
        judged = judge_mesh([GivenAddress(0, written, 22)], side())
        assert judged == [MeshAddress(0, *HOST_AT, True)]
    # a host reached through a tunnel's loopback end (net/reach/tunnel.py) is kept there
    tunnelled = judge_mesh([GivenAddress(0, "", 7531)], side(host_at=("127.0.0.1", 41234)))
    assert tunnelled == [MeshAddress(0, "127.0.0.1", 41234, True)]


def test_my_own_seat_is_kept_as_given_and_never_refused():
    assert judge_mesh([GivenAddress(2, "127.0.0.1", 5)], side()) == \
        [MeshAddress(2, "127.0.0.1", 5, True)]


def test_each_seat_and_each_address_once():
    judged = judge_mesh([GivenAddress(1, "198.51.100.9", 40000),
                         GivenAddress(1, "198.51.100.10", 40000),
                         GivenAddress(3, "198.51.100.9", 40000),
                         GivenAddress(0, "", 7531)], side())
    assert [(j.seat, j.keep, j.why) for j in judged] == [
        (1, True, ""), (1, False, "a seat given twice"),
        (3, False, "an address given for two seats"), (0, True, "")]
    # nor the host's own address for another seat (every player would dial the host twice)
    twice = judge_mesh([GivenAddress(1, HOST_AT[0], HOST_AT[1])], side())
    assert (twice[0].keep, twice[0].why) == (False, "an address given for two seats")
    # the same IP at another port is another table (two players behind one router)
    other_port = judge_mesh([GivenAddress(1, "198.51.100.9", 40000),
                             GivenAddress(3, "198.51.100.9", 40001)], side())
    assert all(j.keep for j in other_port)


def test_the_sentence_names_the_seat_and_no_address():
    said = refused_sentence(3)
    assert said.startswith("seat 3 is not dialled") and "127." not in said
