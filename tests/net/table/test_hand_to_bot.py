"""The host hands a dropped seat to a bot at once (issue 12 item 6, issue 14 item 6), and
every peer can show how long until a bot takes an offline seat (the countdown)."""

import pytest

from tests.net.tables import finished, hashes, open_table


def drop_guest(tmp_path, players=4, bots=1, victims=(1,), at_step=5, timeout=120.0):
    net, engine, sessions = open_table(players=players, bots=bots, tmp_path=tmp_path,
                                       rejoin_timeout=timeout, start=False)
    host = sessions[0]
    host.start_game()
    net.pump_until(lambda: host.lockstep is not None and host.lockstep.step >= at_step)
    for v in victims:
        net.kill(sessions[v])
    net.pump()
    return net, sessions


def test_the_countdown_runs_on_the_fake_clock_and_is_empty_when_nothing_is_pending(tmp_path):
    net, sessions = drop_guest(tmp_path, timeout=120.0)
    host, other = sessions[0], sessions[2]
    assert host.takeover_countdown() == {1: pytest.approx(120.0)}
    net.advance(30)
    assert host.takeover_countdown() == {1: pytest.approx(90.0)}
    assert other.takeover_countdown() == {1: pytest.approx(90.0)}
    net.advance(95)                               # the timeout passed: a bot took it
    assert finished([host, other]) and host.takeover_countdown() == {}
    fresh = open_table(players=3, tmp_path=tmp_path)[2][0]
    assert fresh.takeover_countdown() == {}


def test_the_host_hands_a_dropped_seat_to_a_bot_and_the_table_plays_on_at_once(tmp_path):
    net, sessions = drop_guest(tmp_path, timeout=120.0)
    host, other = sessions[0], sessions[2]
    lobbies = []
    other.on_lobby_changed = lobbies.append
    net.advance(3)
    assert not host.lockstep.ended
    host.hand_seat_to_bot(1)
    assert host.takeover_countdown() == {1: 0.0}
    net.advance(3)                                # seconds, not the 117 left
    assert finished([host, other]) and len(hashes([host, other])) == 1
    assert 1 in host.lockstep.bots and 1 in other.lockstep.bots
    assert net.clock.seconds() < 10
    seat = other.lobby["seats"][1]
    assert seat["kind"] == "bot" and seat["was"] == "guest0" and lobbies


def test_only_the_host_and_only_for_an_offline_seat(tmp_path):
    net, sessions = drop_guest(tmp_path, timeout=120.0)
    host, guest = sessions[0], sessions[2]
    with pytest.raises(ValueError, match="only the host"):
        guest.hand_seat_to_bot(1)
    with pytest.raises(ValueError, match="guest1 \\(seat 2\\) is not offline"):
        host.hand_seat_to_bot(2)
    with pytest.raises(ValueError, match="your own seat"):
        host.hand_seat_to_bot(0)
    with pytest.raises(ValueError, match="already played by a bot"):
        host.hand_seat_to_bot(3)
    lobby_host = open_table(players=3, tmp_path=tmp_path, start=False)[2][0]
    with pytest.raises(ValueError, match="no game running"):
        lobby_host.hand_seat_to_bot(1)


def test_the_hand_over_keeps_the_no_split_rule(tmp_path):
    """Two of four players gone: the host's side is not a majority, so it may not hand a
    seat to a bot (the other half might be playing on)."""
    net, sessions = drop_guest(tmp_path, players=4, bots=0, victims=(2, 3))
    host = sessions[0]
    with pytest.raises(ValueError, match="only 2 of 4 players are connected here"):
        host.hand_seat_to_bot(2)
    net.advance(5)
    assert not host.lockstep.ended and not host.lockstep.bots
