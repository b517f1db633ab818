"""Headless peers are named like people (issue 27, item 13): every log line and the lobby
name a player by it, so "join-normal-28346" read as noise."""

import re

import pytest

from cli.runner import session_options
from lang.names import NAMES, readable_name
from main import build_parser, table_options


@pytest.mark.parametrize("command", [["host"], ["join", "127.0.0.1:7531"], ["watch", "127.0.0.1:7531"]])
def test_a_headless_peer_gets_a_readable_name(command):
    args = build_parser().parse_args([*command, "--headless"])
    name = session_options(table_options(args)).name
    assert name in NAMES
    assert not re.search(r"\d|-", name)


def test_the_name_can_be_given_and_two_peers_side_by_side_differ():
    args = build_parser().parse_args(["join", "127.0.0.1:7531", "--headless", "--name", " Ben "])
    assert session_options(table_options(args)).name == "Ben"
    assert readable_name(28346) != readable_name(28347)
