"""Expulsion by proof over a folder (net/correspondence/fork_proof.py, folder_link.py).

Three players, each with a folder of its own; a tiny fake sync copies each seat's file
from its owner's folder into the others' before a session. Seat 0 forks its file: the
record it just wrote goes to player 1 as it is, together with a sync copy holding a
second record of that number (signed by seat 0, empty), and to player 2 only as that
second record. Player 1 finds the fork; player 2 never sees both sides and learns it
only from player 1's proof record. Both must hand seat 0 to a bot at the same step and
end with one hash, whichever of them plays first after the fork, and also when player 1
first accepted the forked record alone and played on past that step (its moves there
are void; it writes them again after its proof record).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgpack
import pytest

from net.correspondence.folder_link import FolderLink
from net.correspondence.folder_names import seat_file_name
from net.correspondence.seat_record import KIND_TABLE, FolderKey, make_record, parse_file
from tests.net.correspondence.test_folder_link import SEATS, folder_table, keys, scripted
from tests.net.fake_game import FakeEngine

ROUNDS = 3
FORKER = 0


def _session(folder: Path, seat: int) -> FolderLink:
    engine = FakeEngine(ROUNDS)
    link = FolderLink(folder_table(folder, engine), seat, keys()[seat], engine, scripted(engine))
    link.session()
    return link


def _sync(folders: dict[int, Path], to: int, seats: tuple[int, ...]) -> None:
    for s in seats:
        src = folders[s] / seat_file_name(s)
        if s != to and src.exists():
            shutil.copyfile(src, folders[to] / seat_file_name(s))


def _takeover_step(link: FolderLink, seat: int) -> int | None:
    assert link.lockstep is not None
    return next((e["step"] for e in link.lockstep.log if seat in e.get("takeovers", ())), None)


FORKS = [
    # (seat 0's session after which it forks, who plays first after, player 1 played on
    #  that side first: None, or whether it got past the take-over step)
    (9, 1, None), (9, 2, None), (9, 2, True),   # its record of step 8's link and a plan
    (6, 1, None), (6, 2, False),     # a plan step, player 1's own plan said before the proof
    (1, 2, None), (1, 1, None),      # its first records: its chain's end no longer counts
]


def _player_folders(tmp_path: Path) -> dict[int, Path]:
    """Each player's own copy of the shared folder (the sync is `_sync`)."""
    folders = {s: tmp_path / f"player-{s}" for s in SEATS}
    for f in folders.values():
        f.mkdir()
    return folders


@pytest.mark.parametrize("forks_after,first_after_fork,played_on", FORKS)
def test_a_seat_that_forks_its_file_is_played_by_a_bot_from_one_step_for_all(
        tmp_path: Path, forks_after: int, first_after_fork: int, played_on: bool | None) -> None:
    folders = _player_folders(tmp_path)
    # play until seat 0 has just written its records of a session nobody has read yet
    turns, forked = 0, None
    while forked is None:
        seat = turns % 3
        turns += 1
        _sync(folders, seat, SEATS)
        link = _session(folders[seat], seat)
        assert not link.proofs and not link.offences
        if seat == FORKER and turns // 3 + 1 == forks_after:
            forked = parse_file((folders[FORKER] / seat_file_name(FORKER)).read_bytes()).records
            assert link.lockstep is None or not link.lockstep.ended
    last = forked[-1]
    assert last.kind == KIND_TABLE
    other = make_record(keys()[FORKER], last.table, FORKER, last.seq, last.prev, KIND_TABLE,
                        FolderKey.for_table(b"S" * 32).seal(msgpack.packb([])))
    one_side = b"".join(r.raw for r in forked)
    other_side = b"".join(r.raw for r in forked[:-1]) + other.raw
    (folders[1] / seat_file_name(FORKER)).write_bytes(one_side)
    (folders[2] / seat_file_name(FORKER)).write_bytes(other_side)
    said_to = None
    if played_on is not None:    # player 1 plays on seat 0's record before the copy comes
        _sync(folders, 1, (2,))
        early = _session(folders[1], 1)
        assert early.lockstep is not None and not early.proofs
        said_to = max(early.lockstep.outbox.sent)   # the last step it wrote a move for
    (folders[1] / "seat-0 (1).shogun").write_bytes(other_side)
    # seat 0 plays no more; players 1 and 2 take turns, syncing only their own files
    ended: dict[int, FolderLink] = {}
    order = (first_after_fork, 3 - first_after_fork)
    offences: list[tuple[int, str]] = []
    for turn in range(200):
        seat = order[turn % 2]
        _sync(folders, seat, (1, 2))
        link = _session(folders[seat], seat)
        offences += link.offences
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
        if len(ended) == 2:
            break
    assert len(ended) == 2, f"players 1 and 2 did not finish (ended: {sorted(ended)})"
    assert not offences, offences
    one, two = ended[1], ended[2]
    assert one.lockstep is not None and two.lockstep is not None
    assert one.lockstep.hash == two.lockstep.hash
    assert len(one.lockstep.log) == len(two.lockstep.log)
    assert FORKER in one.lockstep.bots and FORKER in two.lockstep.bots
    step = _takeover_step(one, FORKER)
    assert step == _takeover_step(two, FORKER)
    assert (step is None) == (forks_after == 1)     # a bot's from the first step: no take-over
    step = step or 0
    assert one.expelled == two.expelled == {FORKER: last.seq}
    assert FORKER in one.reader.proofs          # player 1 saw both sides itself
    assert FORKER not in two.reader.proofs      # player 2 learned it from the proof record
    if said_to is not None:      # how far it went on the forked record
        assert (said_to > step) is played_on, (said_to, step)


def test_a_false_proof_expels_nobody_and_names_its_writer(tmp_path: Path) -> None:
    turns = 0
    ended: dict[int, FolderLink] = {}
    named: list[tuple[int, str]] = []
    lied = False
    while len(ended) < 3 and turns < 400:
        seat = turns % 3
        turns += 1
        link = _session(tmp_path, seat)
        if seat == 2 and not lied and link.lockstep is not None and link.lockstep.step >= 4:
            record0 = link.reader.accepted[0][0].raw
            link.prove(0, record0, record0)          # seat 0's record 0, twice: no fork
            lied = True
        named += [o for o in link.offences if o[0] == 2]
        assert not [o for o in link.offences if o[0] != 2], link.offences
        assert not link.expelled
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
    assert lied and len(ended) == 3, f"not over after {turns} sessions"
    assert len({link.lockstep.hash for link in ended.values() if link.lockstep}) == 1
    assert all(_takeover_step(link, 0) is None for link in ended.values())
    assert any("seat 2 wrote a proof against seat 0 that proves nothing: the same record "
               "twice" == why for _, why in named), named


@pytest.mark.slow
def test_a_forked_seat_at_a_table_of_the_real_rules(tmp_path: Path) -> None:
    """The real rules (three humans and a bot, each player's saved replays on): seat 0
    forks its file past step 30 after seat 1 played on its newest record; seats 1 and 2
    take 30 turns more. Both take seat 0 over at one step and agree on every step's hash.
    (Played to its end once, by hand: 436 steps, one hash, 132 s on the loaded machine.)"""
    from net.lockstep.engine import SimEngine
    from tests.net.correspondence.real_table import SECRET, real_table
    from tests.net.correspondence.real_table import keys as real_keys
    from tests.net.correspondence.real_table import session as real_session
    engine = SimEngine()
    folder, local = tmp_path / "shared", tmp_path / "local"
    folder.mkdir()
    table = real_table(folder, engine)
    for turn in range(300):
        link = real_session(table, engine, turn % 3, local)
        assert not link.offences and not link.proofs, (link.offences, link.proofs)
        if turn % 3 == 0 and link.lockstep is not None and link.lockstep.step >= 30:
            break
    records = parse_file((folder / seat_file_name(0)).read_bytes()).records
    real_session(table, engine, 1, local)                 # seat 1 plays on that record
    last = records[-1]
    other = make_record(real_keys((0, 1, 2))[0], last.table, 0, last.seq, last.prev, KIND_TABLE,
                        FolderKey.for_table(SECRET).seal(msgpack.packb([])))
    (folder / "seat-0 (1).shogun").write_bytes(b"".join(r.raw for r in records[:-1]) + other.raw)
    links: dict[int, FolderLink] = {}
    for turn in range(30):
        seat = (2, 1)[turn % 2]
        links[seat] = link = real_session(table, engine, seat, local)
        assert not link.offences, link.offences
    one, two = links[1].lockstep, links[2].lockstep
    assert one is not None and two is not None
    common = min(len(one.log), len(two.log))
    assert common > 40
    assert [e["hash"] for e in one.log[:common]] == [e["hash"] for e in two.log[:common]]
    taken = [[e["step"] for e in ls.log if 0 in e.get("takeovers", ())] for ls in (one, two)]
    assert taken[0] == taken[1] and len(taken[0]) == 1, taken
