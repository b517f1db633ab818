"""Every player must be given the same start (issue 34): `start_digest` as a table of what
a host could change for one player and whether the digest, signed in each player's
`ChainCommitted`, shows it. Before protocol 7 the players never compared their starts,
so a host could give one player another turn time (another countdown on its screen)."""

import copy

import pytest

from net.table.before_start.start_mesh import start_digest, start_differs

START = {"table": b"t" * 16, "config": {"players": 3, "side": "a", "setup": "x"},
         "seats": [{"seat": 0, "kind": "human", "name": "Ann", "peer": b"a" * 16,
                    "key": b"A" * 32},
                   {"seat": 1, "kind": "human", "name": "Bo", "peer": b"b" * 16,
                    "key": b"B" * 32},
                   {"seat": 2, "kind": "bot", "name": "bot", "peer": None, "key": None}],
         "peers": [{"peer": b"a" * 16, "host": "192.168.1.5", "port": 7000, "seat": 0},
                   {"peer": b"b" * 16, "host": "192.168.1.6", "port": 7001, "seat": 1}],
         "bot": "normal", "bot_levels": [[2, "normal"]], "turn_time": 60.0,
         "rejoin_timeout": 60.0}


def changed(path, value):
    start = copy.deepcopy(START)
    where = start
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return start


@pytest.mark.parametrize("start, same", [
    (copy.deepcopy(START), True),
    # each player is told the others' addresses as it reaches them (the host's own: "")
    (changed(("peers", 0, "host"), "10.0.0.2"), True),
    (changed(("peers", 0, "host"), ""), True),
    (changed(("peers", 1, "port"), 7002), True),
    # the clocks: the turn time and the take-over countdown
    (changed(("turn_time",), 300.0), False),
    (changed(("rejoin_timeout",), 600.0), False),
    # the game: settings, seats, their keys, the bots
    (changed(("config", "players"), 4), False),
    (changed(("seats", 1, "key"), b"X" * 32), False),
    (changed(("seats", 2, "kind"), "human"), False),
    (changed(("bot_levels",), [[2, "hard"]]), False),
    (changed(("bot",), "easy"), False),
    (changed(("table",), b"u" * 16), False),
    # what a resumed player's start record carries besides
    ({**copy.deepcopy(START), "chain_ends": [[0, b"c" * 32]]}, True),
])
def test_what_the_start_digest_shows(start, same):
    assert (start_digest(start) == start_digest(START)) is same


def test_the_sentences_name_who_was_lied_to():
    assert "the host signed a different start" in start_differs(1, from_host=True)
    assert start_differs(2, from_host=False).startswith("seat 2 was given a different start")
