"""No silent waiting (issue 26 item 4): a connected player who keeps an input back.

Real processes on loopback: a host, an honest guest and a withholding guest
(tests/net/withholding_peer.py), three humans, so the two honest ones are the majority
that may hand the silent seat to a bot. Before: the table waited without limit and
without a word while the withholder stayed connected (its heartbeats kept it "alive").
Now: a countdown every peer shows (the runner says "waiting for seat N: T s left", the
window's status line), then the pause and its take-over countdown, then a bot plays the
seat, and the game ends with one final hash."""

from __future__ import annotations

import re
import time

import pytest

from tests.net import processes as P

SCRIPT = P.ROOT / "tests" / "net" / "withholding_peer.py"


def _table_with_a_withholder(tmp_path, what: str) -> tuple[list[P.Peer], P.Peer]:
    """Host + honest guest + withholder; returns (the honest peers, the withholder)."""
    env = {"SHOGUN_TEST_WITHHOLD": what}
    turn = ["--turn-time", "10"] if what == "plan" else []
    host, port = P.host(tmp_path, 3, timeout=5.0, extra=turn)
    peers = [host]
    try:
        honest = P.join(tmp_path, port, "guest0", timeout=5.0)
        peers.append(honest)
        time.sleep(2.0)                 # seated first (the order does not matter)
        withholder = P.Peer("withholder", ["join", f"127.0.0.1:{port}", "--code", P.CODE,
                                           "--headless", "--rejoin-timeout", "5",
                                           "--save", str(tmp_path / "withholder.save")],
                            tmp_path, env, script=SCRIPT)
        peers.append(withholder)
        P.wait_all([host, honest], 120)
        return [host, honest], withholder
    finally:
        P.kill_all(peers)


def _countdown_then_takeover(honest: list[P.Peer], withholder: P.Peer, what: str) -> int:
    started = re.search(r"game started: seat (\d)", withholder.text())
    assert started is not None, withholder.text()[-2000:]
    seat = int(started.group(1))
    assert f"withholding my {what}" in withholder.text()
    for p in honest:
        out, err = p.text(), p.errors()
        assert p.proc.returncode == 0, err[-2000:]
        # the countdown a window shows, said while the table waited for the seat
        assert re.search(rf"waiting for seat {seat}: \d+ s left", out), out[-2000:]
        # then the pause and its take-over countdown, then the take-over
        assert f"seat {seat} (" in err and "sent nothing for" in err, err[-2000:]
        assert re.search(rf"seat {seat} is played by a bot from step", err), err[-2000:]
    assert len({p.final_hash() for p in honest}) == 1 and honest[0].final_hash()
    return seat


@pytest.mark.slow
def test_a_connected_player_who_withholds_a_beacon_link_loses_the_seat(tmp_path):
    """The withholder saw the others' links of a chance step and kept its own back; the
    table waits the few seconds of an automatic input (net.table.input_deadline), pauses,
    and a bot takes the seat: the draw is made from the others' links alone."""
    honest, withholder = _table_with_a_withholder(tmp_path, "link")
    _countdown_then_takeover(honest, withholder, "beacon link")


@pytest.mark.slow
def test_a_player_who_never_submits_a_plan_loses_the_seat_after_the_turn_timer(tmp_path):
    """The table's turn timer (the host's --turn-time 10) runs out for a player asked for
    its plan; its own peer gives its seat to the bot too, so every peer ends with the
    same hash, the withholder's included."""
    honest, withholder = _table_with_a_withholder(tmp_path, "plan")
    _countdown_then_takeover(honest, withholder, "plan")
    assert withholder.final_hash() == honest[0].final_hash()


# ---------------------------------------------------------------- in memory (fast)
def test_the_turn_timer_counts_down_for_everyone_then_a_bot_takes_the_seat(tmp_path):
    """The same path on the in-memory network, with the clocks read: every peer shows the
    withholder's turn timer (`input_countdown`), then the take-over countdown
    (`takeover_countdown`), then a bot plays the seat and the game ends with one hash on
    all three peers, the withholder's included (its own peer gives the seat up too)."""
    from net.table.input_deadline import TURN_TIME
    from tests.net.tables import finished, hashes, open_table
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=20.0,
                                       start=False)
    from net.table.session import SessionOptions, TableSession
    from tests.net.tables import CODE
    watcher = TableSession.watch(SessionOptions(interface="127.0.0.1"), "127.0.0.1:7531", code=CODE, reactor=net,
                                 engine=engine)
    net.pump()
    withholder = sessions[2]
    answer = withholder.on_decision
    withholder.on_decision = lambda d, state: None if d.kind == "plan" else answer(d, state)
    sessions[0].start_game()
    net.pump()
    seat = withholder.my_seat
    assert not finished(sessions) and all(seat in s.waiting_for() for s in sessions)
    assert sessions[0].turn_time() == TURN_TIME == withholder.turn_time()
    net.advance(3)
    for s in sessions:
        left = s.input_countdown()
        assert set(left) == {seat} and TURN_TIME - 5 <= left[seat] <= TURN_TIME - 1
        assert s.takeover_countdown() == {}
    # a spectator sees the same clock, and only that one: it is not sent the plans'
    # commitments, but the player it follows tells it which inputs the step awaits
    # (before, it showed every seat that had planned as still planning)
    left = watcher.input_countdown()
    assert set(left) == {seat} and TURN_TIME - 5 <= left[seat] <= TURN_TIME - 1
    net.advance(TURN_TIME)
    for s in sessions:               # the turn timer ran out: the take-over countdown
        assert s.input_countdown() == {} and 0 < s.takeover_countdown()[seat] <= 20
    net.advance(25)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert all(seat in s.lockstep.bots for s in sessions)
    assert watcher.lockstep.ended and watcher.lockstep.hash in hashes(sessions)
