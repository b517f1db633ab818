"""The lobby and start records read a table's maps once and give them back unchanged.

Why: a window reads seats, levels, the turn timer and the watchers through these records
(`client/sessions/network.py`, `client/scenes/lobby_scene.py`); if `from_wire` dropped or
bent a field the table sends, the window would show another table than the one it joined.
"""

from net.table.before_start.lobby_record import LobbySeat, StartInfo, TableLobby
from tests.net.tables import open_table


def test_a_real_lobby_reads_and_writes_back_as_the_host_sent_it():
    net, engine, sessions = open_table(players=4, bots=1, start=False)
    host, guest = sessions[0], sessions[1]
    lobby = TableLobby.from_wire(guest.lobby)
    assert lobby.to_wire() == guest.lobby
    assert [s.kind for s in lobby.seats] == ["human", "human", "human", "bot"]
    assert lobby.bots() == 1 and lobby.open_seats() == 0 and lobby.players == 4
    assert lobby.seats[1].peer == guest.peer_id and lobby.seats[3].level == host.opts.bot


def test_a_real_start_reads_and_writes_back_as_it_was_kept():
    net, engine, sessions = open_table(players=3, bots=1)
    info = sessions[1].start_info
    start = StartInfo.from_wire(info)
    assert start is not None and start.to_wire() == info
    assert [s.seat for s in start.seats] == [0, 1, 2] and start.table == info["table"]


def test_a_lobby_not_yet_said_is_empty_and_false():
    assert not TableLobby.from_wire({}) and not TableLobby.from_wire(None)
    assert TableLobby.from_wire({}).seats == () and TableLobby.from_wire(None).players is None
    assert StartInfo.from_wire(None) is None


def test_malformed_seats_and_watchers_are_left_out_not_guessed():
    lobby = TableLobby.from_wire({"players": "four", "turn_time": True, "seats": [
        {"seat": 0, "kind": "human", "name": "Aiko"}, {"kind": "bot"}, "x", {"seat": True}],
        "watchers": ["Chiyo", 7, "x" * 99]})
    assert lobby.seats == (LobbySeat(0, "human", "Aiko"),)
    assert lobby.players is None and lobby.turn_time is None
    assert lobby.watchers == ("Chiyo", "x" * 40)
