"""Board data (assets/board.json): every peer's game depends on it, so it is checked hard."""

import copy
import json

import pytest

from sim.board import BOARD_PATH, REGIONS, SIDES, BoardDataError, board, load_board, parse_board


@pytest.fixture(scope="module")
def raw():
    return json.loads(BOARD_PATH.read_text(encoding="utf-8"))


def test_R_SETUP_1_45_provinces_nine_per_region_on_each_side():
    b = board()
    assert len(b.names) == 45 and list(b.names) == sorted(b.names)
    for side in SIDES:
        for region in REGIONS:
            assert sum(1 for n in b.names if b.region_of(n, side) == region) == 9, (side, region)


def test_R_COMP_4_every_province_has_1_to_3_building_slots():
    assert all(1 <= p.slots <= 3 for p in board().provinces.values())


def test_R_EXEC_11_borders_are_symmetric_and_include_sea_routes():
    b = board()
    for side in SIDES:
        nb = b.neighbours[side]
        for a, ns in nb.items():
            assert a not in ns
            for n in ns:
                assert a in nb[n], f"{side}: {a}-{n} is one-way"
        for a, c in b.land_borders:
            assert c in nb[a]
        assert b.sea_routes[side], f"{side} side has no sea routes"
        for a, c in b.sea_routes[side]:
            assert c in nb[a] and a in nb[c]
    # a sea route is a border (rulebook's Kaga - Tajima) though no land border joins them
    assert ("Kaga", "Tajima") not in b.land_borders
    assert "Tajima" in b.neighbours["sun"]["Kaga"]


def test_R_SETUP_2_eight_excluded_provinces_per_side_for_three_players():
    b = board()
    for side in SIDES:
        ex = set(b.excluded_3p[side])
        assert len(ex) == 8 and ex <= set(b.names)
        assert set(b.in_play(side, 3)) == set(b.names) - ex
        assert b.in_play(side, 4) == b.names == b.in_play(side, 5)


def test_R_SETUP_3_R_SETUP_6_setup_tables():
    b = board()
    assert dict(b.starting_money) == {3: 18, 4: 15, 5: 12}
    assert (b.tower_fill_armies, b.tower_fill_peasants) == (7, 10)
    for players in (3, 4, 5):
        assert len(b.beginner_setups_sun[players]) == players
        assert b.draft_army_groups[players]


def test_R_WINTER_2_revolt_table_covers_every_shortage():
    b = board()
    assert b.revolts_for(0) == (0, 0) and b.revolts_for(-3) == (0, 0)
    assert b.revolts_for(1) == (1, 1)
    assert b.revolts_for(2) == (1, 2)
    previous = (0, 0)
    for shortage in range(1, 46):
        revolts, extra = b.revolts_for(shortage)
        assert revolts >= previous[0] and revolts >= 1
        previous = (revolts, extra)


def _damaged(raw, tmp_path, change):
    data = copy.deepcopy(raw)
    change(data)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, words", [
    (lambda d: d["provinces"].pop("Kai"), "45 provinces"),
    (lambda d: d.pop("land_borders"), "land_borders"),
    (lambda d: d["land_borders"].append(["Kai", "Atlantis"]), "bad pair"),
    (lambda d: d["land_borders"].append(list(d["land_borders"][0])), "twice"),
    (lambda d: d["provinces"]["Kai"].update(building_slots=4), "building slots"),
    (lambda d: d["provinces"]["Kai"]["region"].update(sun="blue"), "unknown sun region"),
    (lambda d: d["provinces"]["Kai"]["region"].update(sun="brown"), "region"),
    (lambda d: d["three_player_excluded"].update(sun=["Kai"]), "exclusions"),
    (lambda d: d["provinces"]["Kai"].pop("tax"), "Kai"),
])
def test_R_SETUP_1_damaged_board_file_gives_clear_BoardDataError(raw, tmp_path, change, words):
    path = _damaged(raw, tmp_path, change)
    with pytest.raises(BoardDataError) as info:
        load_board(path)
    assert words in str(info.value)
    assert "board data invalid" in str(info.value)


def test_R_SETUP_1_unreadable_or_non_json_board_file(tmp_path):
    with pytest.raises(BoardDataError, match="cannot read board file"):
        load_board(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardDataError, match="not valid JSON"):
        load_board(bad)
    with pytest.raises(BoardDataError, match="top level"):
        parse_board([])


def test_R_SETUP_1_shipped_file_loads_the_same_as_the_cached_board():
    assert load_board().names == board().names
