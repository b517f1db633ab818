"""The public state: what everyone at the table can see, as plain data (DESIGN's
`Snapshot` form), for the game log, the window and the network's standings.

Tests: tests/sim/rules/test_setup.py, tests/cli/test_headless.py (the Snapshot event).
"""

from typing import NotRequired, TypedDict

from sim.board import board
from sim.state import SEASONS, State, colour_map


class ProvinceView(TypedDict):
    owner: int | None
    armies: int
    buildings: list[str]
    unrest: int
    excluded: NotRequired[bool]      # only on provinces out of play (R-SETUP-2)


class PlayerView(TypedDict):
    money: int
    rice: int
    score: int
    supply: int
    cards: list[str]
    special: str | None
    position: int | None


class TowerView(TypedDict):
    inside: dict[str, int]
    tray: dict[str, int]


class PublicState(TypedDict):
    """The Snapshot form (keys in the game log's order)."""
    provinces: dict[str, ProvinceView]
    players: dict[str, PlayerView]          # by seat number as a string (JSON keys)
    tower: TowerView
    peasant_supply: int
    year: int
    season: str | None
    actions: list[str | None]
    specials: list[str]
    events: list[int]
    current_event: int | None
    turn_order: list[int]
    side: str
    stage: str


def public_state(state: State) -> PublicState:
    """The Snapshot form of DESIGN.md, plus what a table display needs."""
    b = board()
    provinces: dict[str, ProvinceView] = {}
    for name in b.names:
        p = state.provinces.get(name)
        if p is None:
            provinces[name] = {"owner": None, "armies": 0, "buildings": [], "unrest": 0,
                               "excluded": True}
        else:
            provinces[name] = {"owner": p.owner, "armies": p.armies,
                               "buildings": list(p.buildings), "unrest": p.unrest}
    players: dict[str, PlayerView] = {}
    for seat, player in enumerate(state.players):
        players[str(seat)] = {"money": player.money, "rice": player.rice,
                              "score": player.score, "supply": player.supply,
                              "cards": state.cards_of(seat), "special": player.special,
                              "position": player.position}
    counts = state.tower.counts()
    return {
        "provinces": provinces,
        "players": players,
        "tower": {"inside": colour_map(counts), "tray": colour_map(state.tray)},
        "peasant_supply": state.peasant_supply,
        "year": state.year,
        "season": SEASONS[state.season] if state.season is not None else None,
        "actions": [a for a in state.action_row],
        "specials": list(state.specials_row),
        "events": list(state.year_events),
        "current_event": state.current_event,
        "turn_order": list(state.turn_order),
        "side": state.config.side,
        "stage": state.stage,
    }
