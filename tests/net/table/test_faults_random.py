"""Random faults on the in-memory network: any peer killed at any moment, back or not."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.recycled_pake import recycled_pake  # noqa: F401  (a fixture)
from tests.net.tables import autoplay, finished, hashes, open_table, scratch_dir


# The game below ends after 41 pump rounds whatever the table's size (FakeEngine(8): the
# test after this one holds it to that), so a kill at round 41 or later was no example:
# `assume` threw it away after a whole game: 22 draws of 45 when rounds ran to 150.
PLAY_ROUNDS = 41


@settings(max_examples=int(os.environ.get("NET_FAULT_EXAMPLES", "40")), deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(3, 5), victim=st.integers(0, 4),
       at_round=st.integers(0, PLAY_ROUNDS - 1),
       comes_back=st.booleans(), delay=st.floats(0.0, 8.0), second=st.booleans(),
       partial=st.integers(0, 4))
# found: the victim's move reached seat 0 only; back, it caught up from seat 0 (a step
# ahead) and never resent that move to seats 1 and 3, who waited for it forever
@example(players=4, victim=2, at_round=10, comes_back=True, delay=0.0, second=False, partial=0)
def test_the_table_survives_a_kill(recycled_pake, players, victim, at_round, comes_back, delay,
                                   second, partial):
    recycled_pake.new_table()      # real key exchanges, computed once per process (its doc)
    victim = victim % players
    tmp = scratch_dir("net-fault-")
    net, engine, sessions = open_table(players=players, tmp_path=tmp, rejoin_timeout=10.0,
                                       start=False, engine=FakeEngine(8))
    sessions[0].start_game()
    # every peer has begun (kills inside the start handshake: the test below)
    net.pump_until(lambda: all(s.lockstep is not None for s in sessions))
    for _ in range(at_round):                      # stop at an arbitrary pump round
        net.pump(rounds=1)
    assume(not finished(sessions))
    dead = sessions[victim]
    # its last frames reach one other peer only (a drop in the middle of a broadcast)
    lucky = sessions[partial % players]
    if lucky is not dead:
        for p in net.pumps:
            ends = {p.client.session, p.server.session}
            if ends == {dead, lucky}:
                p.pump(advanceClock=False)
    net.kill(dead)
    net.advance(delay)
    alive = [s for s in sessions if s is not dead]
    if comes_back:
        back = TableSession.resume(SessionOptions(interface="127.0.0.1"), dead.save_path, reactor=net,
                                   engine=engine)
        autoplay(net, back, engine)
        alive.append(back)
        if second and len(alive) > 3:              # and then somebody else dies for good
            other = alive[1]
            net.pump(rounds=5)
            net.kill(other)
            alive.remove(other)
    net.pump()
    net.advance(25)
    assert finished(alive), [(s.my_seat, s.lockstep and s.lockstep.step) for s in alive]
    assert len(hashes(alive)) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_kill_rounds_cover_the_whole_game(players):
    """A kill may land at any pump round of the game and only there: the table above
    plays PLAY_ROUNDS rounds after every peer began, at each size."""
    net, engine, sessions = open_table(players=players, tmp_path=scratch_dir("net-rounds-"),
                                       rejoin_timeout=10.0, start=False, engine=FakeEngine(8))
    sessions[0].start_game()
    net.pump_until(lambda: all(s.lockstep is not None for s in sessions))
    rounds = 0
    while not finished(sessions) and rounds <= PLAY_ROUNDS:
        net.pump(rounds=1)
        rounds += 1
    assert rounds == PLAY_ROUNDS


@settings(max_examples=int(os.environ.get("NET_FAULT_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(players=st.integers(3, 5), victim=st.integers(0, 4), at_round=st.integers(0, 4),
       comes_back=st.booleans(), delay=st.floats(0.0, 12.0), partial=st.integers(0, 4))
# the host killed and resumed after the others gave the third seat (never started) to a
# bot: it held its own claim alone and waited forever (issue 34's take-over agreement)
@example(players=3, victim=0, at_round=0, comes_back=True, delay=10.0, partial=1)
def test_a_kill_inside_the_start_handshake(recycled_pake, players, victim, at_round, comes_back,
                                           delay, partial):
    """Killed between the host's GameStarted and everyone's chain commitments: the others
    begin without its commitment once the rejoin timeout passes (a bot takes the seat at
    the first step that needs it), or it comes back with its saved chain and plays on."""
    recycled_pake.new_table()
    victim = victim % players
    tmp = scratch_dir("net-handshake-")
    net, engine, sessions = open_table(players=players, tmp_path=tmp, rejoin_timeout=10.0,
                                       start=False, engine=FakeEngine(4))
    sessions[0].start_game()
    for _ in range(at_round):
        net.pump(rounds=1)
    assume(not all(s.lockstep is not None for s in sessions))   # still in the handshake
    dead = sessions[victim]
    lucky = sessions[partial % players]
    if lucky is not dead:                 # its last frames reach one other peer only
        for p in net.pumps:
            if {p.client.session, p.server.session} == {dead, lucky}:
                p.pump(advanceClock=False)
    net.kill(dead)
    net.advance(delay)
    alive = [s for s in sessions if s is not dead]
    lost = [s for s in alive if not s.started]
    if lost:
        # the host died before its GameStarted reached these: they are told and leave
        assert victim == 0
        net.pump()
        assert all(s.closed and s.refusal == "the host left before the game started"
                   for s in lost)
        alive = [s for s in alive if s.started]
        if not alive:
            return
    saved = dead.save_path and Path(dead.save_path).exists()
    if comes_back and saved:
        back = TableSession.resume(SessionOptions(interface="127.0.0.1"), dead.save_path, reactor=net,
                                   engine=engine)
        autoplay(net, back, engine)
        alive.append(back)
    net.pump()
    net.advance(25)
    net.pump()
    net.advance(25)
    back_in = comes_back and saved
    if back_in and alive[-1].refusal is not None:
        # it came back after the timeout: its seat is a bot's now, and it is told so; or
        # nobody answered it for two rejoin timeouts (the others left, a bot may have its
        # seat), and it ended saying so (net.table.policy.cut_off)
        assert "now played by a bot" in alive[-1].refusal or \
            "has gone to a bot if the others play on" in alive[-1].refusal, alive[-1].refusal
        back_in = False
        alive.pop()
    if 2 * len(alive) <= players:
        # a minority of the table's players: it may take no seat over, so it waits for
        # the others (who left) instead of playing a game of its own (net.table.liveness)
        assert not any(s.lockstep is not None and s.lockstep.ended for s in alive)
        assert all(not s.lockstep.bots for s in alive if s.lockstep is not None)
        return
    assert finished(alive), [(s.my_seat, s.lockstep and s.lockstep.step) for s in alive]
    assert len(hashes(alive)) == 1
    if not back_in:
        assert all(victim in s.lockstep.bots for s in alive)
    for s in lost:                 # nor did anyone wait for them: bots took their seats
        assert all(s.my_seat in p.lockstep.bots for p in alive)
