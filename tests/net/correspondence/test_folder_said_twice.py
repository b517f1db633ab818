"""Two different signed plans for one step in one seat's own, unforked file
(net/correspondence/said_twice.py, folder_link.py): every honest reader expels the seat
and a bot plays it from one step, with one hash, whether its own lockstep met both plans
or it learned the proof only from another player's proof record.

Three players, each with a folder of its own and a tiny fake sync (as
test_folder_expulsion.py). Seat 0 writes a plan, then a second record holding another
plan for that step, signed and chained as a record of its own file should be; then it
plays no more."""

from __future__ import annotations

from pathlib import Path

import pytest

from net.correspondence.folder_link import FolderLink
from net.correspondence.folder_names import seat_file_name
from tests.net.correspondence.folder_sayer import second_plan
from tests.net.correspondence.test_folder_expulsion import (_player_folders, _session, _sync,
                                                             _takeover_step)
from tests.net.correspondence.test_folder_link import SEATS

CHEAT = 0


@pytest.mark.parametrize("late", [False, True], ids=["both-see-both", "player-2-played-on"])
def test_a_seat_that_says_two_plans_for_one_step_is_expelled_at_one_step_for_all(
        tmp_path: Path, late: bool) -> None:
    folders = _player_folders(tmp_path)
    turns, void = 0, None
    while void is None:
        seat = turns % 3
        turns += 1
        assert turns < 60, "seat 0 never wrote a plan"
        _sync(folders, seat, SEATS)
        link = _session(folders[seat], seat)
        assert not link.proofs and not link.offences
        if seat == CHEAT and turns > 3:
            before = (folders[CHEAT] / seat_file_name(CHEAT)).read_bytes()
            void = second_plan(folders[CHEAT], CHEAT)
    if late:
        # player 2 reads seat 0's first plan only, and plays on with it
        (folders[2] / seat_file_name(CHEAT)).write_bytes(before)
        _sync(folders, 2, (1,))
        early = _session(folders[2], 2)
        assert not early.proofs and not early.expelled
    ended: dict[int, FolderLink] = {}
    offences: list[tuple[int, str]] = []
    for turn in range(200):
        seat = (1, 2)[turn % 2]
        _sync(folders, seat, (0, 1, 2) if seat == 1 or not late else (1, 2))
        link = _session(folders[seat], seat)
        offences += [o for o in link.offences if o[0] != CHEAT]
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
        if len(ended) == 2:
            break
    assert len(ended) == 2, f"players 1 and 2 did not finish (ended: {sorted(ended)})"
    assert not offences, offences
    one, two = ended[1], ended[2]
    assert one.lockstep is not None and two.lockstep is not None
    assert one.expelled == two.expelled == {CHEAT: void}
    assert one.lockstep.hash == two.lockstep.hash
    step = _takeover_step(one, CHEAT)
    assert step is not None and step == _takeover_step(two, CHEAT)
    assert any("signed two different PlanCommitted" in why for s, why in one.proofs if s == CHEAT)
    if late:      # player 2 never held the second plan: it learned it from 1's proof record
        assert (folders[2] / seat_file_name(CHEAT)).read_bytes() == before
