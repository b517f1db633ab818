"""A connection's round trip, end to end (net/transport/round_trip.py, issue 39: the host's
lobby shows a tunnelled friend's round trip). Timed on twisted.internet.task.Clock: no
wall clock anywhere."""

from __future__ import annotations

from twisted.internet.task import Clock

from net.transport.round_trip import ANSWER_BURST, ASK_AGAIN_AFTER, RoundTrip
from tests.net.tables import open_table


def _round_trip():
    clock = Clock()
    sent: list[dict] = []
    return clock, sent, RoundTrip(clock.seconds, sent.append)


def test_a_ping_answered_80_ms_later_is_a_round_trip_of_80_ms():
    clock, sent, rt = _round_trip()
    clock.advance(100.0)
    rt.ask()
    assert sent == [{"type": "Pinged", "ping": 1}] and rt.measured is None
    clock.advance(0.080)
    rt.answered(1)
    assert abs(rt.measured - 0.080) < 1e-9


def test_one_ping_is_out_at_a_time_and_an_overdue_one_is_asked_again():
    clock, sent, rt = _round_trip()
    rt.ask()
    clock.advance(1.0)
    rt.ask()                                     # the first is still out: nothing sent
    assert [m["ping"] for m in sent] == [1]
    clock.advance(ASK_AGAIN_AFTER)
    rt.ask()                                     # overdue: given up, a new number
    assert [m["ping"] for m in sent] == [1, 2]
    rt.answered(1)                               # the late answer to the first: ignored
    assert rt.measured is None
    clock.advance(0.25)
    rt.answered(2)
    assert abs(rt.measured - 0.25) < 1e-9


def test_an_answer_to_no_ping_of_mine_measures_nothing():
    clock, sent, rt = _round_trip()
    rt.answered(7)                               # never asked
    rt.ask()
    clock.advance(0.1)
    rt.answered(8)                               # another number
    assert rt.measured is None and sent == [{"type": "Pinged", "ping": 1}]


def test_pings_are_answered_with_their_number_within_the_budget():
    clock, sent, rt = _round_trip()
    for ping in range(1, 11):                    # a peer pinging in a loop
        rt.pinged(ping)
    assert [m for m in sent] == [{"type": "PingAnswered", "ping": p}
                                 for p in range(1, int(ANSWER_BURST) + 1)]
    assert rt.ignored == 10 - int(ANSWER_BURST)
    clock.advance(1.0)                           # the budget refills: an honest asker
    rt.pinged(11)                                # (one a second) is always answered
    assert sent[-1] == {"type": "PingAnswered", "ping": 11}


def test_the_host_times_a_sealed_link_to_a_player_on_its_reactor_clock():
    """Real connections and the real handshake on a FakeNet: the ping goes sealed to the
    player, which answers; the host reads the time between on its clock."""
    net, _engine, sessions = open_table(players=3, start=False)
    host = sessions[0]
    conn = next(c for c in host.conns if c.ready)
    conn.round_trip.ask()
    net.clock.advance(0.120)                     # the ping is on its way (not delivered yet)
    net.pump()
    assert conn.round_trip.measured is not None
    assert abs(conn.round_trip.measured - 0.120) < 1e-9
    assert not host.offence_log and all(not s.offence_log for s in sessions)
