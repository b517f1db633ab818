"""Three players take turns over a plain shared folder: each session starts from the
folder alone, plays what it can and ends (net/correspondence/folder_link.py)."""

from __future__ import annotations

from pathlib import Path

from net.correspondence.folder_link import FolderLink, FolderTable
from net.trust.seat_keys import SeatKey
from tests.net.fake_game import FakeEngine

SEATS = (0, 1, 2)


def keys() -> dict[int, SeatKey]:
    return {s: SeatKey(bytes([s + 40]) * 32) for s in SEATS}


def folder_table(folder: Path, engine: FakeEngine) -> FolderTable:
    return FolderTable(folder, b"F" * 16, b"S" * 32, {s: k.public for s, k in keys().items()},
                       {s: "human" for s in SEATS}, engine.config(3, "sun", "beginner"))


def scripted(engine: FakeEngine):
    def choose(state, decision, seat):
        return engine.choose(state, seat, "x", bytes([seat + 1]) * 32)
    return choose


def session(folder: Path, seat: int, rounds: int = 2) -> FolderLink:
    engine = FakeEngine(rounds)
    link = FolderLink(folder_table(folder, engine), seat, keys()[seat], engine, scripted(engine))
    link.session()
    return link


def test_three_players_taking_turns_over_a_folder_finish_with_one_hash(tmp_path):
    ended: dict[int, FolderLink] = {}
    turns = 0
    while len(ended) < 3 and turns < 400:
        seat = turns % 3
        turns += 1
        link = session(tmp_path, seat)
        assert not link.offences and not link.proofs, (link.offences, link.proofs)
        assert not [f for f in link.findings if f.names_someone]
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
    assert len(ended) == 3, f"not over after {turns} sessions"
    assert len({link.lockstep.hash for link in ended.values()}) == 1
    assert len({len(link.lockstep.log) for link in ended.values()}) == 1
