"""A player cut off from more than half of the table stops waiting once the others had
the time to give its seat to a bot, and reads why (net.table.policy.cut_off)."""

import pytest

from net.table.policy.cut_off import CutOff, Verdict, decide, give_up_after
from tests.net.tables import finished, hashes, open_table

T = 30.0                         # the rejoin timeout of the rows below
LONG = give_up_after(T)          # 70 s

# me, humans in play, the seats I reach, awake seconds outvoted -> verdict
ROWS = [
    # half or fewer out of reach: nobody can give my seat away; wait however long
    (1, {0, 1, 2}, {0, 2}, 10_000.0, Verdict(outvoted=False, give_up=False)),
    (1, {0, 1, 2}, {0}, 10_000.0, Verdict(outvoted=False, give_up=False)),
    (0, {0, 1, 2, 3}, {1}, 10_000.0, Verdict(outvoted=False, give_up=False)),   # a 2-2 split
    (0, {0, 1}, set(), 10_000.0, Verdict(outvoted=False, give_up=False)),       # two humans
    # more than half out of reach, not yet for long: wait (and redial)
    (1, {0, 1, 2}, set(), 0.0, Verdict(outvoted=True, give_up=False)),
    (1, {0, 1, 2}, set(), LONG - 0.1, Verdict(outvoted=True, give_up=False)),
    (4, {0, 1, 2, 3, 4}, {3}, LONG - 1, Verdict(outvoted=True, give_up=False)),
    # ... for long enough: the game ends here
    (1, {0, 1, 2}, set(), LONG, Verdict(outvoted=True, give_up=True)),
    (4, {0, 1, 2, 3, 4}, {3}, LONG + 5, Verdict(outvoted=True, give_up=True)),
    (3, {0, 1, 2, 3}, {2}, 10_000.0, Verdict(outvoted=False, give_up=False)),   # 2 of 4 away
    (4, {0, 1, 2, 3, 4}, {0}, LONG, Verdict(outvoted=True, give_up=True)),
    # a seat a bot plays is no human in play: two humans left, one out of reach
    (1, {1, 2}, set(), 10_000.0, Verdict(outvoted=False, give_up=False)),
]


@pytest.mark.parametrize("me,humans,reachable,waited,verdict", ROWS)
def test_the_cut_off_policy(me, humans, reachable, waited, verdict):
    assert decide(CutOff(me=me, humans=frozenset(humans), reachable=frozenset(reachable),
                         outvoted_for=waited, rejoin_timeout=T)) == verdict


def table_with_a_friend_cut_at_step_0(tmp_path):
    """A 3-player table whose seat 1 loses every link at step 0 (as under CI load in
    tests/net/reach/test_tunnel_identity.py): both directions swallow every byte and no
    new connection reaches it or leaves it. Returns net, sessions, the cut one, what it
    was told, and a function that mends the network."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=10.0,
                                       start=False)
    sessions[0].start_game()
    cut = sessions[1]
    net.pump_until(lambda: cut.lockstep is not None)
    told = []
    cut.on_refused = told.append
    cut.on_paused = told.append
    mend = net.unplug(cut)
    return net, sessions, cut, told, mend


def _gave_up(cut, told):
    return cut.closed and any("your seat 1 has gone to a bot if the others play on" in t and
                              "the game ended here for you" in t for t in told)


def test_a_friend_cut_off_at_step_0_is_told_its_seat_went_to_a_bot_and_ends(tmp_path):
    """Before: the others gave seat 1 to a bot and finished; seat 1 said "waiting for
    the others" and waited for ever (its program never ended)."""
    net, sessions, cut, told, mend = table_with_a_friend_cut_at_step_0(tmp_path)
    net.advance(20)
    assert not cut.closed, told          # not before the others could have taken it
    net.advance(100)
    others = [sessions[0], sessions[2]]
    assert finished(others) and len(hashes(others)) == 1
    assert all(1 in s.lockstep.bots for s in others)
    assert _gave_up(cut, told), told
    assert not cut.lockstep.ended and not cut.lockstep.bots      # it never played on alone


def test_a_friend_whose_links_come_back_after_the_take_over_ends_too(tmp_path):
    """Its links come back after the others gave its seat to a bot: its redials are
    refused (a seat a bot plays is not given back), and it ends saying why rather than
    redialling for ever."""
    net, sessions, cut, told, mend = table_with_a_friend_cut_at_step_0(tmp_path)
    net.pump_until(lambda: all(1 in s.lockstep.bots for s in (sessions[0], sessions[2])))
    net.advance(20)
    mend()
    net.advance(100)
    refused = [t for t in told if "is now played by a bot" in t]
    assert len(refused) == 1, told      # said once, not at each redial (every second)
    assert _gave_up(cut, told), told


def test_a_friend_whose_links_come_back_in_time_plays_on(tmp_path):
    """Its links come back before the others' countdown ran out: it rejoins and the
    table plays one game, nobody a bot."""
    net, sessions, cut, told, mend = table_with_a_friend_cut_at_step_0(tmp_path)
    net.advance(7)
    mend()
    for p in list(net.pumps):       # its dead links close now (a reset)
        if cut in (p.client.session, p.server.session):
            p.clientIO.loseConnection()
    net.advance(200)
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert all(not s.lockstep.bots for s in sessions)
    assert not cut.closed or cut.lockstep.ended
