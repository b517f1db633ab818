"""A correspondence table of the real rules, each session starting from the player's own
saved replay (net/correspondence/replay_save.py): the same game as replaying from the
first step, and a save the chain does not confirm is passed over."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from net.correspondence.folder_link import FolderLink
from net.correspondence.replay_save import SaveShelf, recorded_hashes
from net.lockstep.engine import SimEngine
from tests.net.correspondence.real_table import keys, real_table, session

HUMANS = (0, 1, 2)


@pytest.fixture(scope="module")
def engine() -> SimEngine:
    return SimEngine()


def play_until(folder: Path, local: Path, engine: SimEngine, step: int, saves: bool = True
               ) -> list[FolderLink]:
    table = real_table(folder, engine)
    links: list[FolderLink] = []
    turn = 0
    while not links or links[-1].lockstep is None or links[-1].lockstep.step < step:
        assert turn < 300, f"step {step} not reached after {turn} sessions"
        link = session(table, engine, HUMANS[turn % 3], local, saves)
        assert not link.offences and not link.proofs, (link.offences, link.proofs)
        links.append(link)
        turn += 1
    return links


@pytest.fixture(scope="module")
def played(engine, tmp_path_factory) -> tuple[Path, list[FolderLink]]:
    """Three players and a bot to step 34 (within the first round); each test copies it."""
    where = tmp_path_factory.mktemp("played")
    (where / "shared").mkdir()
    return where, play_until(where / "shared", where / "local", engine, 34)


def copied(played: tuple[Path, list[FolderLink]], tmp_path: Path) -> tuple[Path, Path]:
    import shutil
    for part in ("shared", "local"):
        shutil.copytree(played[0] / part, tmp_path / part)
    return tmp_path / "shared", tmp_path / "local"


def test_sessions_start_from_saved_replays_and_reach_what_a_replay_from_the_start_reaches(
        engine, played, tmp_path):
    folder, _ = copied(played, tmp_path)
    links = played[1]
    starts = [link.restored_from for link in links]
    assert max(s or 0 for s in starts) >= 16, starts          # a save within the round
    # a save of a step nobody has written a message of yet waits for the chain
    assert all("in the folder records the saved hash" in why
               for link in links for why in link.passed_over), [l.passed_over for l in links]
    table = real_table(folder, engine)
    for seat in HUMANS:                  # the same folder, read from the first step on
        saved = session(table, engine, seat, tmp_path / "local")
        fresh = FolderLink(table, seat, saved.key, engine, None, local=tmp_path / "fresh" / str(seat),
                           saves=False)
        fresh.session()
        assert fresh.restored_from is None and saved.restored_from is not None
        assert (fresh.lockstep.step, fresh.lockstep.hash) == (saved.lockstep.step,
                                                              saved.lockstep.hash)


def test_a_damaged_or_unconfirmed_save_is_passed_over_for_an_older_one(engine, played, tmp_path):
    """Of the saves the chain confirms, the newest's state changed (its hash no longer the
    one it claims), the next one's hash changed (no signed message records it): both are
    passed over, named, and the session reaches the same step and hash as without saves."""
    folder, local = copied(played, tmp_path)
    shelf = SaveShelf(local / "player-0" / "saved")
    probe = FolderLink(real_table(folder, engine), 0, keys(HUMANS)[0], engine)
    recorded = recorded_hashes([m for q in probe.queues.values() for m in q]
                               + [m for sent in probe._my_sent.values() for m in sent])
    confirmed = [st for st in shelf.steps() if shelf.read(st).hash in recorded.get(st, ())]
    assert len(confirmed) >= 2, (shelf.steps(), confirmed)
    damaged, unconfirmed = confirmed[:2]
    save = shelf.read(damaged)
    shelf.write(replace(save, state=save.state.replace(b"\x01", b"\x02", 1)))
    shelf.write(replace(shelf.read(unconfirmed), hash="0" * 64))
    link = session(real_table(folder, engine), engine, 0, local)
    assert link.restored_from not in (damaged, unconfirmed), link.passed_over
    said = " | ".join(link.passed_over)
    assert f"saved replay of step {damaged}: the saved state does not hash" in said, said
    assert f"no message of step {unconfirmed} in the folder records the saved hash" in said, said
    fresh = FolderLink(real_table(folder, engine), 0, link.key, engine, None,
                       local=tmp_path / "fresh", saves=False)
    fresh.session()
    assert (fresh.lockstep.step, fresh.lockstep.hash) == (link.lockstep.step, link.lockstep.hash)
