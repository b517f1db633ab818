"""Spectators at the door and at the table (issue 34): admission's spectator rows as a
table, silent spectators dropped, and the descriptors that the caps leave for players."""

import resource

import pytest
from twisted.internet.testing import MemoryReactorClock, StringTransport

from net.table.policy.admission import (MAX_SPECTATORS, MAX_SPECTATORS_PER_ADDRESS, Credential,
                                 TableView, admit)
from net.table.phase import Phase
from net.table.session import SessionOptions, TableSession
from net.table.spectate import BEAT_EVERY, SILENT_AFTER
from net.transport.framing import FrameDecoder
from net.transport.handshake_limits import MAX_UNPROVEN, accepted_files_limit
from net.transport.peer import PeerConnection
from tests.net.fake_game import FakeEngine
from tests.net.raw_dialer import RawDialer, hello as make_hello

SPECTATOR = Credential(role="spectator", peer=b"s" * 16, seat=None, table=None,
                       seat_key=None, seat_proof=None, token=None, binding=b"b" * 32)


def view(phase, spectators, there, role="host"):
    return TableView(my_role=role, closed=False, phase=phase, open_seat=True,
                     table=None if phase is Phase.LOBBY else b"t" * 16, seats={},
                     token_hashes={}, bot_seats=frozenset(), expelled=frozenset(),
                     connected=frozenset(), spectators=spectators, spectators_there=there)


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.PLAY])
@pytest.mark.parametrize("spectators, there, admitted, says", [
    (0, 0, True, None),
    (MAX_SPECTATORS - 1, MAX_SPECTATORS_PER_ADDRESS - 1, True, None),
    (MAX_SPECTATORS, 0, False, f"its {MAX_SPECTATORS} spectators"),
    (5, MAX_SPECTATORS_PER_ADDRESS, False, "your address already has"),
])
def test_spectators_are_admitted_up_to_the_caps(phase, spectators, there, admitted, says):
    verdict = admit(view(phase, spectators, there), SPECTATOR)
    assert (verdict.reason is None) is admitted
    if says:
        assert says in verdict.reason


def test_a_spectator_peer_admits_no_spectator_whatever_the_count():
    assert admit(view(Phase.PLAY, 0, 0, role="watch"), SPECTATOR).reason


def test_the_caps_leave_the_open_files_budget_room_for_every_player():
    """At most MAX_UNPROVEN strangers, the spectators and two connections per player
    (a redial replacing a half-open one): far below what the budget allows under a
    desktop's 1,024 (and even a 256) open-files limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        for limit in (256, 1024):
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            assert MAX_UNPROVEN + MAX_SPECTATORS + 2 * 4 < accepted_files_limit()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def spectator_of(host, address="10.0.0.5"):
    from twisted.internet.address import IPv4Address
    conn = PeerConnection(host, dialer=False)
    transport = StringTransport(peerAddress=IPv4Address("TCP", address, 40000))
    conn.makeConnection(transport)
    dialer = RawDialer("ABCD-EFGH")
    conn.dataReceived(dialer.offer())
    dialer.welcomed(FrameDecoder().feed(transport.value())[0])
    conn.dataReceived(dialer.seal(make_hello(host.versions, b"w" * 16, role="spectator")))
    return conn, transport, dialer


def test_a_silent_spectator_is_dropped_and_a_beating_one_kept():
    reactor = MemoryReactorClock()
    host = TableSession.host(SessionOptions(code="ABCD-EFGH", interface="127.0.0.1"),
                             port=7531, players=3, reactor=reactor, engine=FakeEngine())
    silent, silent_transport, _ = spectator_of(host)
    beating, beating_transport, dialer = spectator_of(host)
    assert silent in host.spectators and beating in host.spectators
    t = 0.0
    while t < SILENT_AFTER + 2 * BEAT_EVERY:
        reactor.advance(1.0)
        t += 1.0
        beating.dataReceived(dialer.seal({"type": "Heartbeat"}))
    assert silent_transport.disconnecting and not beating_transport.disconnecting
    assert beating.offences == 0                 # a spectator's heartbeat is no offence


def test_a_spectator_beyond_its_addresss_share_is_refused():
    reactor = MemoryReactorClock()
    host = TableSession.host(SessionOptions(code="ABCD-EFGH", interface="127.0.0.1"),
                             port=7531, players=3, reactor=reactor, engine=FakeEngine())
    for _ in range(MAX_SPECTATORS_PER_ADDRESS):
        conn, _t, _d = spectator_of(host)
        assert conn.ready
    conn, transport, dialer = spectator_of(host)
    assert not conn.ready and transport.disconnecting
    assert "your address already has" in dialer.read(transport.value())[-1]["reason"]
    other, _t, _d = spectator_of(host, "10.0.0.6")
    assert other.ready
