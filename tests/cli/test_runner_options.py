"""`host --bot-level`: the command line sets the level of each bot seat at the table."""

import pytest

from main import build_parser
from cli.runner import _set_bot_levels
from tests.net.tables import open_table


def _host(tmp_path, bots=2):
    net, engine, sessions = open_table(players=4, bots=bots, tmp_path=tmp_path, start=False)
    return net, sessions[0], sessions[1]


def _levels(session):
    return [(s["seat"], s.get("level")) for s in session.lobby["seats"] if s["kind"] == "bot"]


def test_one_level_is_for_every_bot_seat_and_reaches_the_guests(tmp_path):
    net, host, guest = _host(tmp_path)
    args = build_parser().parse_args(["host", "--bots", "2", "--bot-level", "hard"])
    assert _set_bot_levels(host, args.bot_level) is None
    net.pump()
    assert _levels(guest) == [(2, "hard"), (3, "hard")]


def test_one_level_per_bot_seat_in_order(tmp_path):
    net, host, guest = _host(tmp_path)
    args = build_parser().parse_args(["host", "--bots", "2", "--bot-level", "easy",
                                      "--bot-level", "hard"])
    assert _set_bot_levels(host, args.bot_level) is None
    net.pump()
    assert _levels(guest) == [(2, "easy"), (3, "hard")]


@pytest.mark.parametrize("levels, says", [
    (["easy", "hard", "normal"], "3 bot levels given for 2 bot seats"),
    (["godlike"], "no bot level called 'godlike'"),
])
def test_a_wrong_level_list_is_explained(tmp_path, levels, says):
    net, host, guest = _host(tmp_path)
    problem = _set_bot_levels(host, levels)
    assert problem is not None and says in problem
