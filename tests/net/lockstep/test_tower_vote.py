"""Tower outcomes (issue 11, issue 25): computed by the deterministic build and checked,
voted only among platform builds, never decided by seat order. In-process tables on the
FakeNet with the real rules; the attacks with real processes are in
tests/net/trust/test_tower_attacks.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from net.lockstep.engine import SimEngine
from net.lockstep.core import Offence
from sim.tower.contents import Cube, TowerContents
from tests.net.fakenet import FakeNet
from tests.net.tables import finished, hashes, open_table


class Platform(SimEngine):
    """The real rules on a platform build (the PyPI wheel): drops cannot be checked."""

    def __init__(self) -> None:
        super().__init__()
        self.deterministic = False


class RoundsDifferently(Platform):
    """A platform build whose every drop ends with one cube a hundredth of a unit off:
    what a CPU with other float rounding (FMA, another libm) produces now and then."""

    def __init__(self, every: int = 1, claims_deterministic: bool = False) -> None:
        super().__init__()
        self.every = every
        self.drops = 0
        self.deterministic = claims_deterministic     # a liar claims the checked build

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


def _applied(session) -> list[dict]:
    """The tower outcomes my lockstep applied (its log), in order."""
    return [c for entry in session.lockstep.log for c in entry["commands"]
            if c["type"] == "TowerSettled"]


def test_a_platform_peer_that_rounds_differently_applies_the_deterministic_drop(tmp_path):
    sessions = _game(tmp_path, {2: RoundsDifferently()})
    assert finished(sessions)
    assert len(hashes(sessions)) == 1          # one game, one final state
    odd = sessions[2].lockstep
    assert odd.tower_disagreements and not any(r["mine_agreed"] for r in odd.tower_disagreements)
    for s in (sessions[0], sessions[1], sessions[3]):
        records = s.lockstep.tower_disagreements
        assert records and all(r["mine_agreed"] and r["decided_by"] == "physics"
                               for r in records)
        assert all(r["groups"][1] == [2] for r in records)   # the odd seat is named
    assert all("decided_by" not in c for c in _applied(sessions[0]))   # all computed
    assert not any(s.lockstep.bots for s in sessions)        # nobody expelled


def test_a_lying_deterministic_claim_is_a_proof_and_the_liar_is_expelled(tmp_path, caplog):
    """Issue 25 item 2: a vote that claims the deterministic build and differs from the
    drop that build computes is checked by every deterministic peer: the seat is expelled
    and a bot plays it; the others finish one game."""
    sessions = _game(tmp_path, {2: RoundsDifferently(claims_deterministic=True)})
    honest = [sessions[i] for i in (0, 1, 3)]
    assert finished(honest) and len(hashes(honest)) == 1
    for s in honest:
        assert 2 in s.lockstep.bots and 2 in s.expelled
    assert "CHEATING PROVED: seat 2 signed a tower outcome for the deterministic build" \
        in caplog.text


def test_platform_peers_follow_a_strict_majority(tmp_path):
    everyone = {i: Platform() for i in range(3)}
    sessions = _game(tmp_path, {**everyone, 3: RoundsDifferently()})
    assert finished(sessions) and len(hashes(sessions)) == 1
    records = sessions[0].lockstep.tower_disagreements
    assert records and all(r["decided_by"] == "majority" and r["strict_majority"]
                           for r in records)


def test_two_against_two_on_platform_builds_is_decided_by_neither_seat_order_nor_vote(tmp_path):
    """Issue 25 item 3: 2 against 2 has no strict majority; before, the group with the
    lowest seat won every such drop. Now the drop is settled from its seed
    (`sim.tower.fallback`), logged as `decided_by: model`, the same on every peer."""
    engines = {0: Platform(), 1: Platform(), 2: RoundsDifferently(), 3: RoundsDifferently()}
    sessions = _game(tmp_path, engines)
    assert finished(sessions) and len(hashes(sessions)) == 1
    records = sessions[0].lockstep.tower_disagreements
    assert records and all(r["decided_by"] == "model" and not r["strict_majority"]
                           for r in records)
    model = [c for c in _applied(sessions[0]) if c.get("decided_by") == "model"]
    assert len(model) == len(records)
    # the applied outcome is neither group's vote (the lowest seat's group won before)
    assert all(not r["mine_agreed"] for r in records)


def test_a_second_different_vote_of_a_seat_without_a_signature_is_an_offence(tmp_path):
    sessions = _game(tmp_path, {})
    ls = sessions[0].lockstep
    ls.ended = False
    step = ls.step + 1
    box = ls.box(step)
    first = {"type": "TowerVoted", "step": step, "seat": 1, "hash": "h", "build": "platform",
             "outcome": {"type": "TowerSettled", "out": [], "contents": []}}
    box.votes[1] = first
    with pytest.raises(Offence, match="two different tower outcomes"):
        ls.receive(1, {**first, "outcome": {"type": "TowerSettled", "out": [[0, 1]],
                                            "contents": []}})


def test_one_against_one_on_platform_builds_is_not_the_hosts(tmp_path):
    """2 players + 2 bots, both on platform builds, their drops differing: before, seat 0
    (the host) won every such vote. Now the drop is settled from its seed."""
    sessions = _game(tmp_path, {0: RoundsDifferently(), 1: Platform()}, players=4, bots=2)
    assert finished(sessions) and len(hashes(sessions)) == 1
    for s in sessions:
        records = s.lockstep.tower_disagreements
        assert records and all(r["decided_by"] == "model" and not r["mine_agreed"]
                               for r in records)
