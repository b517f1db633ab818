"""Tower outcomes agreed by vote (DESIGN net "Tower"; issue 11): a peer whose CPU rounds a
drop differently plays on with everyone else's outcome and never splits the table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from net.lockstep.engine import SimEngine
from net.lockstep.core import Offence
from sim.tower.contents import Cube, TowerContents
from tests.net.fakenet import FakeNet
from tests.net.tables import CODE, finished, hashes, open_table  # noqa: F401


class RoundsDifferently(SimEngine):
    """The real rules, but every drop ends with one cube a hundredth of a unit off: what a
    CPU with other float rounding (FMA, another libm) produces now and then."""

    def __init__(self, every: int = 1) -> None:
        super().__init__()
        self.every = every
        self.drops = 0

    def settle(self, decision):
        honest = super().settle(decision)
        self.drops += 1
        cubes = honest.contents.cubes
        if not cubes or self.drops % self.every:
            return honest
        first = cubes[0]
        nudged = Cube(first.colour, first.x + 1 if first.x < 9000 else first.x - 1, first.y,
                      first.angle)
        return replace(honest, contents=TowerContents((nudged,) + cubes[1:]))


def _game(tmp_path, odd: dict[int, SimEngine], players: int = 4, bots: int = 0):
    net = FakeNet()
    _, engine, sessions = open_table(players=players, bots=bots, engine=SimEngine(), net=net,
                                     tmp_path=tmp_path, start=False)
    for index, engine in odd.items():
        sessions[index].engine = engine
    sessions[0].start_game()
    net.pump()
    return sessions


def test_one_peer_rounding_differently_plays_on_with_the_majoritys_outcome(tmp_path):
    sessions = _game(tmp_path, {2: RoundsDifferently()})
    assert finished(sessions)
    assert len(hashes(sessions)) == 1          # one game, one final state
    odd = sessions[2].lockstep
    assert odd.tower_disagreements and not any(r["mine_agreed"] for r in odd.tower_disagreements)
    for s in (sessions[0], sessions[1], sessions[3]):
        records = s.lockstep.tower_disagreements
        assert records and all(r["strict_majority"] and r["mine_agreed"] for r in records)
        assert all(r["groups"][1] == [2] for r in records)   # the odd seat is named


def test_two_odd_peers_of_four_still_make_one_game(tmp_path):
    """2 against 2 has no strict majority: the tie goes to the group with the lowest seat,
    the same choice on every peer."""
    sessions = _game(tmp_path, {2: RoundsDifferently(), 3: RoundsDifferently()})
    assert finished(sessions) and len(hashes(sessions)) == 1
    records = sessions[0].lockstep.tower_disagreements
    assert records and not any(r["strict_majority"] for r in records)


def test_a_peer_that_votes_two_different_outcomes_is_an_offender(tmp_path):
    sessions = _game(tmp_path, {})
    ls = sessions[0].lockstep
    # rebuild a step's box as it was: a vote, then a second, different vote from seat 1
    ls.ended = False
    step = ls.step + 1
    box = ls.box(step)
    box.votes[1] = {"type": "TowerSettled", "out": [], "contents": []}
    with pytest.raises(Offence, match="two different tower outcomes"):
        ls.receive(1, {"type": "TowerVoted", "step": step, "seat": 1, "hash": "h",
                       "outcome": {"type": "TowerSettled", "out": [[0, 1]], "contents": []}})
