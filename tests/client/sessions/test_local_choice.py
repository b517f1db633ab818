"""One frozen record from the menu to the session (issue 50): `LocalChoice` is what the
menu's seats, `play`'s options and the tests start a local game with, and the session is
built from its fields (no dict with "humans" and "bots" keys on the way)."""

from __future__ import annotations

import dataclasses

import pytest

from client.session_factory import local_game
from client.sessions.local_choice import LocalChoice
from main import build_parser


def test_the_session_sits_the_seats_the_choice_names() -> None:
    choice = LocalChoice(5, "moon", "draft", humans=(1, 3), bots={0: "easy", 2: "hard", 4: "normal"},
                         seed=41)
    session = local_game(choice)
    assert (session.config.players, session.config.side, session.config.setup) == (5, "moon", "draft")
    assert session.my_seats == (1, 3)
    assert session.bots == {0: "easy", 2: "hard", 4: "normal"}
    assert session.seed == 41


def test_plays_game_is_me_at_my_seat_and_its_level_everywhere_else() -> None:
    args = build_parser().parse_args(["play", "--players", "3", "--seat", "2", "--bots", "hard"])
    choice = LocalChoice.one_level(args.bots, players=args.players, humans=(args.seat,))
    assert choice.humans == (2,) and dict(choice.bots) == {0: "hard", 1: "hard"}
    assert local_game(choice).seed is not None         # no seed: the clock's


def test_the_choice_cannot_change_on_its_way() -> None:
    bots = {1: "easy"}
    choice = LocalChoice(humans=(0,), bots=bots)
    bots[2] = "hard"                                    # the caller's dict, changed later
    assert dict(choice.bots) == {1: "easy"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        choice.players = 3                              # type: ignore[misc]
    with pytest.raises(TypeError):
        choice.bots[3] = "normal"                       # type: ignore[index]
