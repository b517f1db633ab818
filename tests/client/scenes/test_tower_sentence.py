"""The lobby names the seats whose computers do not run the verified tower (issue 53):
every peer reads it from `platform_seats`, which the host fills from each handshake."""

from __future__ import annotations

from client.scenes.lobby_scene import tower_sentence
from net.table.before_start.lobby_record import LobbySeat, TableLobby

SEATS = (LobbySeat(0, "human", "Aiko"), LobbySeat(1, "human", "Ben"),
         LobbySeat(2, "bot"), LobbySeat(3, "human", ""))


def test_every_computer_verified_says_nothing():
    assert tower_sentence(TableLobby(seats=SEATS)) == ""


def test_one_platform_seat_is_named_to_everyone():
    lobby = TableLobby(seats=SEATS, tower_vote=True, platform_seats=(1,))
    said = tower_sentence(lobby, my_seats=(0,))
    assert "Ben (" in said and "Aiko" not in said and "plays without the verified" in said
    assert "Your computer" not in said


def test_the_player_concerned_is_told_where_to_read_how_to_build_it():
    lobby = TableLobby(seats=SEATS, tower_vote=True, platform_seats=(1, 3))
    said = tower_sentence(lobby, my_seats=(3,))
    assert "Ben (" in said and "You (" in said and "play without the verified" in said
    assert "./shogun says why" in said
