"""Setting up the table: R-COMP-1, R-SETUP-1...4, R-SETUP-6 (the tower fill), R-SETUP-8.

The draft (R-SETUP-5) has its own module; the events of the first year (R-SETUP-7) are
drawn by `rounds` when the year starts.

Tests: tests/sim/rules/test_setup.py.
"""

from __future__ import annotations

from sim.tower import drop as tower
from sim.board import board
from sim.rules.battle import drop_decision, settled
from sim.rules.flow import Events, Next, give_back
from sim.state import (COLOURS, NO_CUBES, PEASANT, PEASANTS, Battle, Decision, DecisionKind,
                       DraftProgress, GameConfig, PlayerState, ProvinceState, State)


def initial_state(config: GameConfig, events: Events) -> State:
    """The table before the first decision: provinces in play, money, supplies."""
    config.check()
    b = board()
    s = State.__new__(State)
    s.config = config
    s.provinces = {n: ProvinceState() for n in b.in_play(config.side, config.players)}
    money = b.starting_money[config.players]                    # R-SETUP-3
    s.players = [PlayerState(money) for _ in range(config.players)]
    s.peasant_supply = PEASANTS
    s.tray = [0] * COLOURS
    s.tower = tower.EMPTY
    s.year, s.season = 1, 0
    s.decision = Decision(DecisionKind.CHANCE, (), "")
    s.event_deck = list(range(1, 13))
    s.year_events, s.current_event = [], None
    s.action_row, s.hidden_actions, s.specials_row = [None] * 10, [], []
    s.turn_order, s.ranking = [], []
    s.round = s.battle = s.draft = s.winter = None
    s.winners, s.chance_count = [], 0
    events.append({"event": "GameStarted", "players": config.players, "side": config.side,
                   "setup": config.setup,
                   "money": {str(i): p.money for i, p in enumerate(s.players)}})
    if config.setup == "beginner":                              # R-SETUP-4
        for seat, claims in enumerate(b.beginner_setups_sun[config.players]):
            for name in sorted(claims):
                claim(s, seat, name, claims[name], events)
        s.stage = "fill"
    else:
        groups = tuple(b.draft_army_groups[config.players])
        for p in s.players:
            p.groups = groups
        s.draft = DraftProgress(unknown=tuple(sorted(s.provinces)), bottom=(), up=(None, None),
                                pick=0, faced=(None,) * config.players, taken=None, need="up")
        s.stage = "draft"
    return s


def claim(s: State, seat: int, name: str, armies: int, events: Events) -> None:
    prov = s.provinces[name]
    prov.owner, prov.armies = seat, armies
    s.players[seat].supply -= armies
    events.append({"event": "ProvinceClaimed", "seat": seat, "province": name, "armies": armies})


def stage_fill(s: State, events: Events) -> Next:
    """R-SETUP-6: 7 armies of each player and 10 peasants into the empty tower; what comes
    out goes back to supply."""
    if s.battle is None:
        b = board()
        held = list(NO_CUBES)
        for seat, p in enumerate(s.players):
            p.supply -= b.tower_fill_armies
            held[seat] = b.tower_fill_armies
        s.peasant_supply -= b.tower_fill_peasants
        held[PEASANT] = b.tower_fill_peasants
        s.battle = Battle(kind="fill", held=tuple(held))
    if not settled(s):
        return drop_decision(s, "fill")
    for colour, n in enumerate(s.tray):
        give_back(s, colour, n)
    s.tray = [0] * COLOURS
    s.battle = None
    return "year"
