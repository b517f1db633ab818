"""The public state: what everyone at the table can see, as plain data (DESIGN's
`Snapshot` form), for the game log, the window and the network's standings."""

from __future__ import annotations

from typing import Any

from sim.board import board
from sim.state import SEASONS, State, colour_map


def public_state(state: State) -> dict[str, Any]:
    """The Snapshot form of DESIGN.md, plus what a table display needs."""
    b = board()
    provinces = {}
    for name in b.names:
        p = state.provinces.get(name)
        if p is None:
            provinces[name] = {"owner": None, "armies": 0, "buildings": [], "unrest": 0,
                               "excluded": True}
        else:
            provinces[name] = {"owner": p.owner, "armies": p.armies,
                               "buildings": list(p.buildings), "unrest": p.unrest}
    players = {}
    for seat, p in enumerate(state.players):
        players[str(seat)] = {"money": p.money, "rice": p.rice, "score": p.score,
                              "supply": p.supply, "cards": state.cards_of(seat),
                              "special": p.special, "position": p.position}
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
