"""Board facts (provinces, regions, borders, setups), loaded once and validated.

The data lives in `assets/board.json` (a copy of the shared spec). It is checked on load
because every peer's game depends on it: a damaged file must stop the program with a
message that says what is wrong, not produce a subtly different game.

`sim` does no I/O during play; reading the board file happens once at import of
`load_board()` callers (the command line, tests), never inside `apply`.

Tests: tests/sim/test_board.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, NoReturn

BOARD_PATH = Path(__file__).resolve().parent.parent / "assets" / "board.json"

SIDES = ("sun", "moon")
REGIONS = ("brown", "yellow", "red", "purple", "green")
PROVINCE_COUNT = 45
PER_REGION = 9


class BoardDataError(ValueError):
    """The board file is missing, unreadable or inconsistent."""


@dataclass(frozen=True)
class Province:
    name: str
    tax: int
    rice: int
    slots: int
    region: Mapping[str, str]  # side -> region colour
    pos: tuple[float, float]


@dataclass(frozen=True)
class Board:
    """Immutable board facts. Province names are kept sorted: that is the canonical order."""

    provinces: Mapping[str, Province]
    names: tuple[str, ...]
    neighbours: Mapping[str, Mapping[str, tuple[str, ...]]]  # side -> name -> sorted names
    land_borders: tuple[tuple[str, str], ...]
    sea_routes: Mapping[str, tuple[tuple[str, str], ...]]
    excluded_3p: Mapping[str, tuple[str, ...]]
    starting_money: Mapping[int, int]
    beginner_setups_sun: Mapping[int, tuple[Mapping[str, int], ...]]
    draft_army_groups: Mapping[int, tuple[int, ...]]
    tower_fill_armies: int
    tower_fill_peasants: int
    revolt_table: tuple[tuple[int, int | None, int, int], ...]  # min, max, revolts, extra
    # sides whose 3-player exclusions are this edition's choice (the rulebooks' lists are
    # pictures we do not have): board.json marks them "_PROPOSED"; players are told so
    excluded_3p_chosen: frozenset[str] = frozenset()

    def region_of(self, name: str, side: str) -> str:
        return self.provinces[name].region[side]

    def in_play(self, side: str, players: int) -> tuple[str, ...]:
        """Provinces in play, canonical order (R-SETUP-2)."""
        if players == 3:
            out = set(self.excluded_3p[side])
            return tuple(n for n in self.names if n not in out)
        return self.names

    def revolts_for(self, shortage: int) -> tuple[int, int]:
        """(revolting provinces, extra peasants each) for a rice shortage (R-WINTER-2)."""
        if shortage <= 0:
            return (0, 0)
        for lo, hi, revolts, extra in self.revolt_table:
            if shortage >= lo and (hi is None or shortage <= hi):
                return (revolts, extra)
        raise BoardDataError(f"revolt table has no row for shortage {shortage}")


def _fail(why: str) -> NoReturn:
    raise BoardDataError(f"board data invalid: {why}")


def parse_board(raw: object) -> Board:
    """Validate the JSON structure and build a `Board`; raise `BoardDataError` naming the fault."""
    if not isinstance(raw, dict):
        _fail("top level is not an object")
    for key in ("provinces", "land_borders", "sea_routes", "three_player_excluded",
                "starting_money", "beginner_setups_sun", "draft_army_groups",
                "initial_tower_fill", "revolt_table"):
        if key not in raw:
            _fail(f"missing key '{key}'")
    provs_raw = raw["provinces"]
    if not isinstance(provs_raw, dict) or len(provs_raw) != PROVINCE_COUNT:
        _fail(f"expected {PROVINCE_COUNT} provinces, found "
              f"{len(provs_raw) if isinstance(provs_raw, dict) else 'none'}")
    provinces: dict[str, Province] = {}
    for name, p in provs_raw.items():
        try:
            tax, rice, slots = int(p["tax"]), int(p["rice"]), int(p["building_slots"])
            region = {side: p["region"][side] for side in SIDES}
            pos = (float(p["pos"][0]), float(p["pos"][1]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            _fail(f"province {name!r} is malformed ({exc!r})")
        if not 1 <= slots <= 3:
            _fail(f"province {name!r} has {slots} building slots (must be 1-3)")
        if tax < 0 or rice < 0:
            _fail(f"province {name!r} has a negative tax or rice value")
        for side in SIDES:
            if region[side] not in REGIONS:
                _fail(f"province {name!r} has unknown {side} region {region[side]!r}")
        provinces[name] = Province(name, tax, rice, slots, MappingProxyType(region), pos)
    names = tuple(sorted(provinces))
    for side in SIDES:
        for reg in REGIONS:
            n = sum(1 for p in provinces.values() if p.region[side] == reg)
            if n != PER_REGION:
                _fail(f"{side} side region {reg} has {n} provinces, expected {PER_REGION}")

    def pairs(rows: object, what: str) -> tuple[tuple[str, str], ...]:
        if not isinstance(rows, list):
            _fail(f"{what} is not a list")
        out = []
        for row in rows:
            if (not isinstance(row, list) or len(row) != 2 or row[0] not in provinces
                    or row[1] not in provinces or row[0] == row[1]):
                _fail(f"{what} has a bad pair {row!r}")
            out.append(tuple(sorted(row)))
        if len(set(out)) != len(out):
            _fail(f"{what} lists a pair twice")
        return tuple(sorted(out))

    land = pairs(raw["land_borders"], "land_borders")
    sea: dict[str, tuple[tuple[str, str], ...]] = {}
    excluded: dict[str, tuple[str, ...]] = {}
    chosen: set[str] = set()
    for side in SIDES:
        sea_key = side if side in raw["sea_routes"] else f"{side}_PROPOSED"
        ex_key = side if side in raw["three_player_excluded"] else f"{side}_PROPOSED"
        if ex_key != side:
            chosen.add(side)
        if sea_key not in raw["sea_routes"]:
            _fail(f"no sea routes for the {side} side")
        if ex_key not in raw["three_player_excluded"]:
            _fail(f"no 3-player exclusions for the {side} side")
        sea[side] = pairs(raw["sea_routes"][sea_key], f"{side} sea_routes")
        ex = raw["three_player_excluded"][ex_key]
        if not isinstance(ex, list) or len(ex) != 8 or any(e not in provinces for e in ex):
            _fail(f"{side} 3-player exclusions must be 8 known provinces")
        excluded[side] = tuple(sorted(ex))

    neighbours: dict[str, Mapping[str, tuple[str, ...]]] = {}
    for side in SIDES:
        adj: dict[str, set[str]] = {n: set() for n in names}
        for a, b in land + sea[side]:
            adj[a].add(b)
            adj[b].add(a)
        for name, ns in adj.items():
            if not ns:
                _fail(f"province {name!r} has no neighbour on the {side} side")
        neighbours[side] = MappingProxyType({n: tuple(sorted(adj[n])) for n in names})

    try:
        money = {int(k): int(v) for k, v in raw["starting_money"].items()}
        groups = {int(k): tuple(int(x) for x in v) for k, v in raw["draft_army_groups"].items()}
        setups = {}
        for k, seats in raw["beginner_setups_sun"].items():
            setups[int(k)] = tuple(MappingProxyType({p: int(a) for p, a in s.items()})
                                   for s in seats)
        fill = raw["initial_tower_fill"]
        fill_armies, fill_peasants = int(fill["armies_per_player"]), int(fill["peasants"])
        table = tuple((int(r["shortage_min"]),
                       None if r["shortage_max"] is None else int(r["shortage_max"]),
                       int(r["revolts"]), int(r["extra_peasants"])) for r in raw["revolt_table"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        _fail(f"setup tables are malformed ({exc!r})")
    for players in (3, 4, 5):
        if players not in money or players not in groups or players not in setups:
            _fail(f"setup tables lack an entry for {players} players")
        if len(setups[players]) != players:
            _fail(f"beginner setup for {players} players has {len(setups[players])} seats")
        claimed: set[str] = set()
        allowed = set(names) if players > 3 else set(names) - set(excluded["sun"])
        for s in setups[players]:
            for p in s:
                if p not in allowed or p in claimed:
                    _fail(f"beginner setup for {players} players uses {p!r} badly")
                claimed.add(p)
    return Board(
        provinces=MappingProxyType(provinces), names=names,
        neighbours=MappingProxyType(neighbours), land_borders=land,
        sea_routes=MappingProxyType(sea), excluded_3p=MappingProxyType(excluded),
        starting_money=MappingProxyType(money), beginner_setups_sun=MappingProxyType(setups),
        draft_army_groups=MappingProxyType(groups), tower_fill_armies=fill_armies,
        tower_fill_peasants=fill_peasants, revolt_table=table,
        excluded_3p_chosen=frozenset(chosen))


def read_json(path: Path | str, what: str, error: type[ValueError]) -> object:
    """A data file's JSON, or `error` with a sentence naming the file and the fault
    (shared by the board and the card data)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {path} is not valid JSON: {exc}") from exc


def load_board(path: Path | str = BOARD_PATH) -> Board:
    """Read and validate a board file."""
    return parse_board(read_json(path, "board file", BoardDataError))


_BOARD: Board | None = None


def board() -> Board:
    """The project's board, loaded and validated once per process."""
    global _BOARD
    if _BOARD is None:
        _BOARD = load_board()
    return _BOARD
