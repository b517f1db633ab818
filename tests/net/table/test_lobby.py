"""The host moves players between seats (`TableSession.move_players`): swaps included,
seen by every guest, and the game starts with the seats as moved."""

import pytest

from net.reach.internet import reseat
from net.reach.reachability import Player
from tests.net.tables import finished, hashes, open_table


def test_the_host_swaps_two_players_and_every_guest_sees_its_new_seat():
    net, engine, sessions = open_table(players=4, bots=1, start=False)
    host, ann, bo = sessions
    names = {s["seat"]: s["name"] for s in host.lobby["seats"]}
    host.move_players({1: 2, 2: 1})
    net.pump()
    assert (ann.my_seat, bo.my_seat) == (2, 1)
    assert host.lobby["seats"][1]["name"] == names[2] and host.lobby["seats"][2]["name"] == names[1]
    for guest in (ann, bo):
        assert guest.lobby["seats"] == host.lobby["seats"]
    host.start_game()
    net.pump()
    net.advance(5)
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert (ann.my_seat, bo.my_seat) == (2, 1)


def test_the_host_moves_itself_to_an_open_seat():
    net, engine, sessions = open_table(players=4, bots=1, start=False, joiners=1)
    host, guest = sessions
    host.move_players({0: 2})
    net.pump()
    assert host.my_seat == 2 and guest.lobby["seats"][0]["kind"] == "open"
    assert guest.lobby["seats"][2]["peer"] == host.peer_id


@pytest.mark.parametrize("moves, reason", [
    ({1: 3}, "seat 3 is a bot's seat"),
    ({1: 2}, "seat 2 is taken by a player who stays there"),
    ({3: 1}, "seat 3 has no player to move"),
    ({1: 7}, "there is no seat 7 at this table"),
    ({0: 1, 1: 0, 2: 0}, "two players cannot move to one seat"),
])
def test_a_move_that_does_not_fit_is_refused_and_nothing_moves(moves, reason):
    net, engine, sessions = open_table(players=4, bots=1, start=False)
    host = sessions[0]
    before = [dict(s) for s in host.lobby["seats"]]
    with pytest.raises(ValueError, match=reason):
        host.move_players(moves)
    assert host.lobby["seats"] == before
    assert [s.my_seat for s in sessions] == [0, 1, 2]


def test_only_the_host_moves_players_and_only_before_the_start():
    net, engine, sessions = open_table(players=3, start=False)
    with pytest.raises(ValueError, match="only the host"):
        sessions[1].move_players({1: 2, 2: 1})
    sessions[0].start_game()
    net.pump()
    with pytest.raises(ValueError, match="only the host"):
        sessions[0].move_players({1: 2, 2: 1})


def test_reseat_gives_the_players_who_can_be_dialled_the_lower_seats():
    net, engine, sessions = open_table(players=3, start=False)
    host = sessions[0]
    said = []
    players = [Player(0, "host", "", 7531, True), Player(1, "guest0", "10.0.0.2", 4000, False),
               Player(2, "guest1", "10.0.0.3", 4001, True)]
    reseat(host, players, said.append)
    net.pump()
    assert [s.my_seat for s in sessions] == [0, 2, 1]
    assert said == ["seats changed so that every pair can connect: guest1 takes seat 1, "
                    "guest0 takes seat 2"]


def test_a_spectator_sees_the_lobby_before_the_start_and_the_host_lists_it():
    """Issue 27, item 5: a watcher stayed at "Connecting…" (no lobby) and the host's
    lobby did not list it."""
    from net.table.session import SessionOptions, TableSession
    from tests.net.tables import CODE
    net, engine, sessions = open_table(players=3, start=False, joiners=1)
    host, guest = sessions
    seen = []
    spy = TableSession.watch(SessionOptions(interface="127.0.0.1", name="Chiyo"), "127.0.0.1:7531", code=CODE,
                             reactor=net, engine=engine)
    spy.on_lobby_changed = lambda lobby: seen.append(lobby)
    net.pump()
    assert seen, "the watcher is told the lobby"
    assert [s["name"] for s in seen[-1]["seats"]] == [s["name"] for s in host.lobby["seats"]]
    assert host.lobby["watchers"] == ["Chiyo"]
    assert guest.lobby["watchers"] == ["Chiyo"]
    assert spy.offence_log == [] and host.offence_log == []
    spy.close()
    net.pump()
    assert host.lobby["watchers"] == []
    host.set_lobby(bots=1)
    net.pump()
    host.start_game()
    net.pump()
    net.advance(5)
    assert finished(sessions) and len(hashes(sessions)) == 1
