"""Inputs that did not reach one player reach it through the others (issue 34 item 1,
net/table/missed_inputs.py), and every peer counts the host's clocks
(GameStarted's turn_time and rejoin_timeout). On the in-memory network, clocks read;
the same attack with real processes is tests/net/trust/test_takeover_attacks.py."""

import pytest

from net.table.input_deadline import TURN_TIME
from net.table.missed_inputs import ASK_AFTER, ASK_EVERY, seats_to_ask
from tests.net.tables import finished, hashes, open_table

VICTIM, WITHHOLDER = 1, 2


def test_a_link_kept_from_one_player_reaches_it_through_the_others(tmp_path, caplog):
    """Seat 2 sends its beacon links to everyone but seat 1 and ignores seat 1's asks.
    Before: seat 1 stayed a step behind, looked silent to the others, and lost its seat
    after its countdown. Now it asks, the host relays seat 2's signed links, and the game
    ends with one hash and no bot in any seat."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=20.0,
                                       start=False)
    withholder = sessions[WITHHOLDER]
    everyone = withholder.roster.broadcast
    withholder.roster.broadcast = lambda m: everyone(m) if m["type"] != "LinkRevealed" \
        else [c.send(m) for c in withholder.conns if c.ready and c.seat != VICTIM]
    withholder.connections.handlers["InputsMissed"] = lambda conn, msg: None
    sessions[0].start_game()
    net.pump()
    for _ in range(400):
        if finished(sessions):
            break
        net.advance(1.0)
        net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert all(not s.lockstep.bots for s in sessions)
    assert f"seat {VICTIM} missed seat {WITHHOLDER}'s input for step" in caplog.text


def test_every_peer_counts_the_hosts_take_over_countdown(tmp_path):
    """A guest started with its own --rejoin-timeout of 300 s shows and applies the
    host's 20 s, as the host's turn timer (before: each peer its own countdown, so the
    same seat showed different times on different screens)."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=20.0,
                                       start=False)
    sessions[1].opts.rejoin_timeout = 300.0
    sessions[1].opts.turn_time = 10.0
    withholder = sessions[2]
    answer = withholder.on_decision
    withholder.on_decision = lambda d, state: None if d.kind == "plan" else answer(d, state)
    sessions[0].start_game()
    net.pump()
    seat = withholder.my_seat
    assert {s.turn_time() for s in sessions} == {TURN_TIME}
    net.advance(TURN_TIME + 2)
    for s in sessions:
        assert 15 <= s.takeover_countdown()[seat] <= 20
    net.advance(25)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert all(seat in s.lockstep.bots for s in sessions)


@pytest.mark.parametrize("waited, withheld, since_asked, asked", [
    # a seat caught withholding from me, the only one the step waits for: at once
    ({2: 0.0}, {2}, 0.0, [2]),
    ({1: 0.0, 2: 0.0}, {2}, 0.0, [2]),               # (1 is me)
    # others too: the normal wait, then again every ASK_EVERY seconds
    ({0: 5.0, 2: 5.0}, {2}, ASK_EVERY, [0, 2]),
    ({0: 1.0, 2: 1.0}, {2}, ASK_EVERY, []),
    ({0: 5.0}, set(), ASK_EVERY - 0.1, []),
    ({0: ASK_AFTER, 2: 0.5}, set(), ASK_EVERY, [0]),
    # nothing awaited from the others
    ({1: 9.0}, {2}, 99.0, []),
    ({}, set(), 99.0, []),
])
def test_whose_inputs_i_ask_for(waited, withheld, since_asked, asked):
    assert seats_to_ask(waited, 1, withheld, since_asked) == asked


def _game_seconds(tmp_path, withhold: bool, caplog) -> tuple[float, int]:
    """Virtual seconds until every peer finished, and the links kept from the victim."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=60.0,
                                       start=False)
    kept = []
    if withhold:
        withholder = sessions[WITHHOLDER]
        everyone = withholder.roster.broadcast

        def all_but_the_victim(m):
            if m["type"] != "LinkRevealed":
                return everyone(m)
            kept.append(m["step"])
            return [c.send(m) for c in withholder.conns if c.ready and c.seat != VICTIM]
        withholder.roster.broadcast = all_but_the_victim
        withholder.connections.handlers["InputsMissed"] = lambda conn, msg: None
    sessions[0].start_game()
    net.pump()
    began = net.seconds()
    for _ in range(40_000):
        if finished(sessions):
            break
        net.advance(0.1)
        net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert all(not s.lockstep.bots for s in sessions)
    return net.seconds() - began, len(kept)


def test_a_caught_withholder_costs_the_victim_one_look_a_step(tmp_path, caplog):
    """Seat 2 keeps every beacon link from seat 1, all game long, and ignores its asks.
    Before, seat 1 waited `ASK_AFTER` (3 s) and a look (up to 1 s) for each withheld link;
    now, once caught (its first link came by relay), its links are asked for as soon as
    the step waits for it alone. The figures (virtual seconds) are printed: the game's
    length with and without the withholder, and the delay per withheld step."""
    honest, _ = _game_seconds(tmp_path / "honest", False, caplog)
    caplog.clear()
    withheld, kept = _game_seconds(tmp_path / "withheld", True, caplog)
    print(f"\nvirtual game time: {honest:.1f} s honest, {withheld:.1f} s with seat 2 keeping "
          f"{kept} links from seat 1: {(withheld - honest) / max(kept, 1):.2f} s per "
          "withheld step")
    assert f"from now on I ask the others for seat {WITHHOLDER}'s inputs at once" \
        in caplog.text
