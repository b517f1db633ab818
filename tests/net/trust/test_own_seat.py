"""A host cannot give me a key that is not mine (issue 34 item 4).

The decision (`net.trust.own_seat`) as a table; the wiring on the in-memory network (a host
that pins a key of its own on a joiner's seat; a peer that hands a resuming player such a
start); and, with `--runslow`, the lying host as a real process
(`tests/net/lying_host.py`).
"""

from __future__ import annotations

import subprocess

import pytest

from net.table.session import SessionOptions, TableSession
from net.trust.own_seat import PinnedSeat, own_seat
from net.trust.seat_keys import SeatKey
from tests.net import processes
from tests.net.tables import autoplay, open_table

ME, OTHER = b"m" * 16, b"o" * 16
MINE, THEIRS = b"K" * 32, b"T" * 32


def seats(*entries):
    return [PinnedSeat(i, kind, peer, key) for i, (kind, peer, key) in enumerate(entries)]


CASES = [
    # (the start's seats, my seat or None, a word of the refusal)
    (seats(("human", OTHER, THEIRS), ("human", ME, MINE)), 1, None),
    (seats(("human", ME, MINE), ("bot", None, None)), 0, None),
    (seats(("human", OTHER, THEIRS), ("human", ME, THEIRS)), None, "a key that is not yours"),
    (seats(("human", OTHER, THEIRS), ("human", ME, None)), None, "a key that is not yours"),
    (seats(("human", OTHER, MINE), ("human", ME, THEIRS)), None, "a key that is not yours"),
    (seats(("human", OTHER, THEIRS), ("human", b"x" * 16, MINE)), None, "no seat for you"),
    (seats(("human", OTHER, THEIRS), ("bot", ME, MINE)), None, "no seat for you"),
    (seats(("human", ME, MINE), ("human", ME, MINE)), None, "more than one seat"),
    (seats(("human", ME, MINE), ("bot", ME, None)), None, "more than one seat"),
    ([], None, "no seat for you"),
]


@pytest.mark.parametrize("start, seat, refusal", CASES)
def test_a_start_is_mine_only_with_one_human_seat_under_my_key(start, seat, refusal):
    decision = own_seat(start, ME, MINE)
    assert decision.seat == seat
    if refusal is None:
        assert decision.problem is None
    else:
        assert decision.problem is not None and refusal in decision.problem
        assert "seat" in decision.problem and "\n" not in decision.problem


# ---------------------------------------------------------------- the wiring, in memory
def test_a_joiner_refuses_a_start_that_pins_another_key_on_its_seat():
    """The host pins a key it holds on seat 1: seat 1 refuses the start, says why, and
    leaves; it never commits a chain under the host's key."""
    net, engine, sessions = open_table(players=3, start=False)
    host, victim, other = sessions
    refusals: list[str] = []
    victim.on_refused = refusals.append
    forged = SeatKey()
    host.lobby["seats"][1]["key"] = forged.public
    host.start_game()
    net.pump()
    assert refusals and "a key that is not yours" in refusals[0], refusals
    assert victim.closed and victim.lockstep is None
    assert victim.refusal == refusals[0]
    assert 1 not in other.start.chain_ends        # it never took part in the start


def test_an_honest_start_is_not_refused():
    net, engine, sessions = open_table(players=3)
    net.pump_until(lambda: all(s.lockstep is not None and s.lockstep.ended for s in sessions))
    assert all(s.refusal is None for s in sessions)


def test_a_resuming_player_refuses_a_start_with_another_key_on_its_seat(tmp_path):
    """A peer answering a rejoin hands back a start that pins another key on the
    rejoiner's seat: the rejoiner does not catch up from it."""
    net, engine, sessions = open_table(players=4, bots=1, tmp_path=tmp_path, start=False)
    host = sessions[0]
    host.start_game()
    net.pump_until(lambda: host.lockstep is not None and host.lockstep.step >= 5)
    victim = sessions[1]
    net.kill(victim)
    net.pump()
    forged = SeatKey().public
    for s in sessions:
        if s is victim:
            continue
        honest = s.recovery.caught_up

        def lying(spectator=False, honest=honest):
            msg = honest(spectator)
            for entry in msg["start"]["seats"]:
                if entry["seat"] == 1:
                    entry["key"] = forged
            return msg
        s.recovery.caught_up = lying
    back = TableSession.resume(SessionOptions(interface="127.0.0.1"), victim.save_path, reactor=net, engine=engine)
    autoplay(net, back, engine)
    errors: list[str] = []
    back.on_error = errors.append
    net.pump()
    assert back.lockstep is None
    assert any("a key that is not yours" in e for e in errors), errors


def _lying_host_table(tmp_path, host_args: list[str], env: dict) -> list[processes.Peer]:
    """A 3-seat table hosted by `tests/net/lying_host.py` (its lie chosen by `env`), then
    the victim (seat 1) and another joiner: the host, the victim and the other."""
    port = processes.free_port()
    host = processes.Peer("host", ["host", "--headless", "--port", str(port), "--code",
                                   processes.CODE, "--players", "3", "--bots", "0",
                                   *host_args, "--rejoin-timeout", "20",
                                   "--save", str(tmp_path / "host.save")],
                          tmp_path, script=processes.ROOT / "tests" / "net" / "lying_host.py",
                          env=env)
    peers = [host]
    try:
        host.wait_for(r"table open on port", 60)
        peers.append(processes.join(tmp_path, port, "guest0", timeout=20))
        host.wait_for(r"seated: 2 players", 60)     # the victim is seat 1
        peers.append(processes.join(tmp_path, port, "guest1", timeout=20))
    except BaseException:
        processes.kill_all(peers)
        raise
    return peers


# ---------------------------------------------------------------- a real lying host
@pytest.mark.slow
@pytest.mark.network
def test_a_real_joiner_refuses_a_real_lying_hosts_start(tmp_path):
    """Three processes: the host (`tests/net/lying_host.py`) pins a key of its own on
    seat 1. Seat 1 refuses with the sentence and exits non-zero, never begins the game."""
    peers = _lying_host_table(tmp_path, [], {})
    host, victim, other = peers
    try:
        host.wait_for(r"forged key pinned on seat 1", 90)
        victim.proc.wait(90)
        said = victim.errors()
        assert victim.proc.returncode != 0
        assert "a key that is not yours" in said, said[-2000:]
        assert "Traceback" not in said
        assert "game started" not in victim.text()
    finally:
        processes.kill_all(peers)


@pytest.mark.slow
@pytest.mark.network
def test_a_real_lying_host_cannot_give_one_joiner_other_clocks(tmp_path):
    """The host (`tests/net/lying_host.py`, LIE=turn_time) sends seat 1 alone a start
    with five times the turn time. Before (protocol 6), seat 1 began the game showing and
    applying other clocks than the table. Now every chain commitment carries the signed
    digest of its player's start: seat 1 sees that the host signed another start and
    leaves, saying so, and the others play on with a bot in seat 1."""
    peers = _lying_host_table(tmp_path, ["--turn-time", "60"], {"LIE": "turn_time"})
    host, victim, other = peers
    try:
        host.wait_for(r"turn time 300 s sent to seat 1 alone", 90)
        try:
            victim.proc.wait(90)
        except subprocess.TimeoutExpired:
            raise AssertionError("seat 1 played the host's other start:\n"
                                 + victim.errors()[-2000:]) from None
        said = victim.errors()
        assert victim.proc.returncode != 0
        assert "the host signed a different start" in said, said[-2000:]
        assert "Traceback" not in said
        assert "game started" not in victim.text()
        # the others are not wedged: seat 1 never came, so a bot plays it, and they end
        # with one hash
        processes.wait_all([host, other], 300)
        hashes = {host.final_hash(), other.final_hash()}
        assert len(hashes) == 1 and None not in hashes, other.errors()[-2000:]
    finally:
        processes.kill_all(peers)
