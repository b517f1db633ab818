"""Limits for strangers count per tunnel, never per the 127.0.0.1 every tunnelled friend
shares (issue 47, finding 1): the decision as a table, then the guess limit, the handshake
slots and abandoned exchanges in memory. The real processes: tests/net/reach/
test_tunnel_identity.py."""

import pytest
from net.transport.handshake_limits import MAX_UNPROVEN_PER_ADDRESS, UnprovenConnections
from net.trust.door_identity import Door, door_of
from net.trust.guess_limit import abandoned_is_wrong
from tests.net.trust.test_guess_budget import CODE, Dial, table

TUNNELS = {50001: "tunnel 1", 50002: "tunnel 2", 50003: "tunnel 3"}


@pytest.mark.parametrize("host, port, door", [
    ("127.0.0.1", 50002, Door("tunnel 2", True)),        # through the host's tunnel 2
    ("::1", 50003, Door("tunnel 3", True)),
    ("::ffff:127.0.0.1", 50001, Door("tunnel 1", True)),
    ("127.0.0.1", 40000, Door("127.0.0.1", False)),      # a process on this machine
    ("10.0.0.7", 50002, Door("10.0.0.7", False)),        # someone else's port 50002
    ("192.0.2.1", 40000, Door("192.0.2.1", False)),
    ("?", 50002, Door("?", False)),
])
def test_what_a_connection_counts_as(host, port, door):
    assert door_of(host, port, TUNNELS) == door


@pytest.mark.parametrize("tunnel, proved, wrong", [
    (False, False, True),      # a stranger's exchange for nothing costs it a guess
    (False, True, True),       # an address is not one player: it still costs
    (True, False, True),       # a tunnel that never proved the code: a stranger's
    (True, True, False),       # a friend's redial that a stalled relay held
])
def test_whether_an_abandoned_exchange_is_a_wrong_code(tunnel, proved, wrong):
    assert abandoned_is_wrong(tunnel, proved) is wrong


def tunnelled_table():
    reactor, host = table()
    host.pair_links.tunnelled_ports = lambda: {50001: 1, 50002: 2, 50003: 3}
    return reactor, host


def _dial(host, port, code):
    """A dial from 127.0.0.1:`port`: its outcome ("accepted", "wrong", "turned away")."""
    return Dial(host, "127.0.0.1", code, port).outcome()


def test_one_friends_wrong_codes_into_its_tunnel_never_make_another_friend_wait():
    """Friend B (tunnel 2) tries 8 wrong codes; friend A comes back through a new tunnel
    (3). Before: both were 127.0.0.1, and A was refused ("too many wrong join codes from
    your address; try again in 4 s")."""
    reactor, host = tunnelled_table()
    assert _dial(host, 50002, CODE) == "accepted"           # B proved the code
    for _ in range(8):
        _dial(host, 50002, "WRONGCOD")
        reactor.advance(0.1)
    assert _dial(host, 50002, CODE) == "turned away"         # B waits for its own guesses
    assert _dial(host, 50003, CODE) == "accepted"            # A does not
    assert _dial(host, 40000, CODE) == "accepted"            # nor this machine's address


def test_a_tunnel_that_proved_the_code_may_abandon_exchanges_a_stranger_may_not():
    reactor, host = tunnelled_table()
    assert _dial(host, 50001, CODE) == "accepted"
    for port in (50001, 40000):
        for _ in range(6):                  # answered, then closed without a Hello
            Dial(host, "127.0.0.1", CODE, port).conn.connectionLost(None)
            reactor.advance(0.2)
    assert _dial(host, 50001, CODE) == "accepted"            # a friend's held redials
    assert _dial(host, 40000, CODE) == "turned away"         # six exchanges for nothing


def test_a_tunnels_handshakes_take_slots_of_their_own():
    """The slots' share per address counts per tunnel: a newcomer through tunnel 3 takes
    no slot of tunnel 2's, though both are 127.0.0.1 when accepted."""
    slots = UnprovenConnections(None)
    closed = []
    for i in range(MAX_UNPROVEN_PER_ADDRESS):
        assert slots.admit("127.0.0.1", lambda i=i: closed.append(i),
                           lambda: "tunnel 2") is not None
    assert slots.admit("tunnel 3", lambda: None) is not None
    assert closed == [] and slots.open == MAX_UNPROVEN_PER_ADDRESS + 1
    assert slots.admit("tunnel 2", lambda: None) is not None     # its own share is full
    assert closed == [0]
