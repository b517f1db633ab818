"""Hand-over by agreement at a correspondence table (net/correspondence/seat_handover.py,
folder_link.py): three players over one folder, seat 2 stops playing; its turn timer runs
out on the others' clocks; they each write a claim; every reader hands seat 2 to a bot at
one step and the game ends with one hash. A lone claim changes nothing, and a move seat 2
writes after the hand-over (without having seen it) is ignored and named."""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path

from net.correspondence.folder_link import FolderLink
from net.correspondence.folder_names import seat_file_name
from tests.net.correspondence.test_folder_link import SEATS, folder_table, keys, scripted
from tests.net.fake_game import FakeEngine

ROUNDS = 3
ABSENT = 2
TIMER = 3600
LATE = TIMER + 120          # the timer ran out, whenever a session noted the wait


def _link(folder: Path, seat: int, local: Path | None = None) -> FolderLink:
    engine = FakeEngine(ROUNDS)
    table = replace(folder_table(folder, engine), turn_timer=TIMER)
    return FolderLink(table, seat, keys()[seat], engine, scripted(engine), local=local)


def _session(folder: Path, seat: int) -> FolderLink:
    link = _link(folder, seat)
    link.session()
    return link


def _until_stuck(folder: Path, played: int) -> list[FolderLink]:
    """Seats 0, 1 and 2 in turn for `played` sessions each, then 0 and 1 until nothing
    moves: both wait for seat 2."""
    for turn in range(played * 3):
        _session(folder, turn % 3)
    last: list[FolderLink] = []
    for _ in range(6):
        last = [_session(folder, s) for s in (0, 1)]
    for link in last:
        assert link.lockstep is not None and not link.lockstep.ended
        assert link.lockstep.waiting_for() == [ABSENT]
    return last


def _takeovers(link: FolderLink) -> list[tuple[int, int]]:
    assert link.lockstep is not None
    return [(e["step"], s) for e in link.lockstep.log for s in e.get("takeovers", ())]


def _finish(folder: Path, seats: tuple[int, ...]) -> dict[int, FolderLink]:
    ended: dict[int, FolderLink] = {}
    for turn in range(60):
        seat = seats[turn % len(seats)]
        link = _session(folder, seat)
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
        if len(ended) == len(seats):
            return ended
    raise AssertionError(f"not over: {sorted(ended)} ended")


def test_the_others_hand_an_absent_seat_to_a_bot_at_one_step_and_finish_with_one_hash(
        tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    zero, one = _until_stuck(folder, 2)
    NOW = time.time()
    step = zero.lockstep.step if zero.lockstep else -1
    # the timer has not run out: nobody may claim yet
    zero.overdue(NOW)
    assert zero.hand_over(ABSENT, NOW + 10) == "seat 2: the turn timer has not run out"
    assert zero.overdue(NOW + LATE) == (ABSENT,)
    assert zero.hand_over(ABSENT, NOW + LATE) == ""
    assert zero.hand_over(ABSENT, NOW + LATE) == "seat 2: already claimed"
    assert not zero.handed                                  # one claim of two
    one = _session(folder, 1)
    assert one.lockstep is not None and one.lockstep.waiting_for() == [ABSENT]
    one.overdue(NOW)
    assert one.hand_over(ABSENT, NOW + LATE) == ""
    assert one.handed == {ABSENT: step}
    ended = _finish(folder, (0, 1, 2))
    assert len({link.lockstep.hash for link in ended.values() if link.lockstep}) == 1
    assert {tuple(_takeovers(link)) for link in ended.values()} == {((step, ABSENT),)}


def test_a_lone_claim_changes_nothing_and_the_seat_plays_on(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    zero, _one = _until_stuck(folder, 2)
    NOW = time.time()
    zero.overdue(NOW)
    assert zero.hand_over(ABSENT, NOW + LATE) == ""       # seat 0 alone
    assert not zero.handed
    back = _session(folder, ABSENT)                          # seat 2 comes back and plays
    assert not back.handed and not back.offences
    ended = _finish(folder, (0, 1, 2))
    assert len({link.lockstep.hash for link in ended.values() if link.lockstep}) == 1
    assert all(not _takeovers(link) and not link.handed for link in ended.values())


def test_a_move_written_after_the_hand_over_is_ignored_and_named(tmp_path: Path) -> None:
    folder, stale = tmp_path / "shared", tmp_path / "seat-2-view"
    folder.mkdir()
    _until_stuck(folder, 2)
    NOW = time.time()
    shutil.copytree(folder, stale)                           # seat 2's sync is behind
    for seat in (0, 1):
        link = _session(folder, seat)
        link.overdue(NOW)
        assert link.hand_over(ABSENT, NOW + LATE) == ""
    late = _session(stale, ABSENT)                           # plays, sees no claim
    assert not late.handed
    shutil.copyfile(stale / seat_file_name(ABSENT), folder / seat_file_name(ABSENT))
    ended = _finish(folder, (0, 1))
    assert len({link.lockstep.hash for link in ended.values() if link.lockstep}) == 1
    for link in ended.values():
        assert any(s == ABSENT and "came after the others handed its seat to a bot" in why
                   for s, why in link.offences), link.offences
    # seat 2's own program, once it reads the claims, ends with the same hash
    again = _finish(folder, (ABSENT,))[ABSENT]
    first = ended[0].lockstep
    assert again.lockstep is not None and first is not None
    assert again.lockstep.hash == first.hash


def test_a_claim_in_a_session_that_restarts_is_read_back_from_my_own_file(
        tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    zero, _one = _until_stuck(folder, 2)
    NOW = time.time()
    zero.overdue(NOW)
    assert zero.hand_over(ABSENT, NOW + LATE) == ""
    again = _link(folder, 0)
    again.session()
    assert again.hand_over(ABSENT, NOW + LATE) == "seat 2: already claimed"


def test_a_table_without_a_timer_has_no_hand_over(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    zero, _one = _until_stuck(folder, 1)
    NOW = time.time()
    zero = FolderLink(replace(zero.table, turn_timer=0), 0, keys()[0], zero.game,
                      scripted(FakeEngine(ROUNDS)))
    zero.session()
    assert zero.overdue(NOW + 10 * TIMER) == ()
    assert zero.hand_over(ABSENT, NOW + 10 * TIMER) == "this table has no turn timer"
