"""The table's copy of the public state, patched as events play (client/sessions/display_patches.py):
each patch is what the event's record says, and nothing else changes."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, cast

from client.sessions import display_patches as patches
from sim import events as ev

if TYPE_CHECKING:
    from sim.snapshot import PublicState


def _display() -> PublicState:
    return cast("PublicState", {"provinces": {"Kai": {"owner": 0, "armies": 5, "buildings": ["temple"], "unrest": 1},
                          "Mino": {"owner": 1, "armies": 2, "buildings": [], "unrest": 0},
                          "Owari": {"owner": 0, "armies": 1, "buildings": [], "unrest": 0}},
            "actions": [None] * 10, "year": 1, "events": [1, 2, 3, 4], "current_event": 2})


def test_a_move_to_my_own_province_takes_the_armies_along() -> None:
    d = _display()
    moved: ev.Moved = {"event": "Moved", "seat": 0, "from": "Kai", "to": "Owari", "count": 3}
    assert patches.patch_board(d, moved)
    assert (d["provinces"]["Kai"]["armies"], d["provinces"]["Owari"]["armies"]) == (2, 4)


def test_a_move_into_a_battle_leaves_the_target_to_the_battle() -> None:
    d = _display()
    moved: ev.Moved = {"event": "Moved", "seat": 0, "from": "Kai", "to": "Mino", "count": 4}
    patches.patch_board(d, moved)
    assert (d["provinces"]["Kai"]["armies"], d["provinces"]["Mino"]) == (
        1, {"owner": 1, "armies": 2, "buildings": [], "unrest": 0})


def test_an_action_without_armies_changes_nothing_on_the_board() -> None:
    d = _display()
    before = copy.deepcopy(d)
    done: ev.ActionDone = {"event": "ActionDone", "seat": 0, "action": "tax", "province": "Kai",
                           "paid": 0, "money_gained": 3, "rice_gained": 0, "armies_placed": 0}
    assert not patches.patch_board(d, done)
    assert d == before
    done["armies_placed"] = 2
    assert patches.patch_board(d, done) and d["provinces"]["Kai"]["armies"] == 7


def test_a_province_lost_to_the_peasants_falls_empty() -> None:
    d = _display()
    lost: ev.BattleResolved = {
        "event": "BattleResolved", "kind": "revolt", "province": "Kai", "attacker": "peasant",
        "defender": 0, "unrest": 1, "thrown": {}, "out": {}, "attacker_count": 3,
        "defender_count": 1, "result": "attacker", "survivors": 0, "new_owner": None}
    patches.resolve_battle(d, lost)
    assert d["provinces"]["Kai"] == {"owner": None, "armies": 0, "buildings": [], "unrest": 0}


def test_a_won_battle_leaves_the_survivors_and_the_buildings() -> None:
    d = _display()
    won: ev.BattleResolved = {
        "event": "BattleResolved", "kind": "attack", "province": "Mino", "attacker": 0,
        "defender": 1, "unrest": 0, "thrown": {}, "out": {}, "attacker_count": 3,
        "defender_count": 1, "result": "attacker", "survivors": 2, "new_owner": 0}
    patches.resolve_battle(d, won)
    assert d["provinces"]["Mino"] == {"owner": 0, "armies": 2, "buildings": [], "unrest": 0}


def test_the_track_and_the_year() -> None:
    d = _display()
    patches.turn_action(d, {"event": "ActionStarted", "slot": 3, "action": "tax"})
    assert d["actions"][2] == "tax" and d["actions"].count(None) == 9
    patches.start_year(d, {"event": "YearStarted", "year": 2, "events": [5, 6, 7, 8]})
    assert (d["year"], d["events"], d["current_event"]) == (2, [5, 6, 7, 8], None)
