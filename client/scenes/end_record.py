"""What the end screen tells about a finished game, read from the engine's own events
(issue 27 item 14, issue 28 item 6): each player's score broken down as the rules count it
(R-WINTER-4: one point a province, one a building, the majorities' points, both winters
added up), whether the win was decided by chests (R-END-1), the luck of the tower (cubes
thrown into it against cubes that came out in battles), and the biggest battle.

The events are the `Scored`, `TowerDropped`, `BattleResolved` and `GameEnded` records of
`sim.events`; a game whose commands are known is re-run from its start to get all of them
(`game_events`), so a continued game's screen is as complete as one played in one go.

Battles are numbered 1, 2, … in the order their `BattleResolved` events come (revolts and
attacks on neutral provinces included): the number a film of the battle is asked for by.

Tests: tests/client/scenes/test_end_scene.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from client.sessions.interface import GameSession
from sim import events as ev
from sim.commands import Command
from sim.game import apply, new_game
from sim.state import GameConfig



class EndSummary(TypedDict, total=False):
    """The end screen's figures from the table (`EventPlayer.summary`): the GameEnded
    event's scores, money and winners, each seat's score after every Scored event, the
    seats' names and how many played."""
    scores: dict[str, int]            # by seat number as a string (the event's keys)
    money: dict[str, int]
    winners: list[int]
    history: dict[int, list[int]]
    labels: dict[int, str]
    players: int


@dataclass
class PlayerRecord:
    seat: int
    score: int = 0
    chests: int = 0
    provinces: int = 0          # points for provinces held, both winters
    buildings: int = 0          # points for buildings, both winters
    majorities: int = 0         # majority points, both winters
    regions: dict[str, dict[str, int]] = field(default_factory=dict)   # last winter's majorities
    thrown: int = 0             # own cubes thrown into the tower in battles
    out: int = 0                # own cubes that came out onto the tray in battles
    history: list[int] = field(default_factory=lambda: [0])   # score at the start, each winter

    @property
    def luck(self) -> float | None:
        """Cubes out per cube thrown (None before any battle)."""
        return self.out / self.thrown if self.thrown else None


@dataclass(frozen=True)
class BattleRecord:
    number: int                 # 1-based, in the order of the game's battles
    province: str
    kind: ev.BattleKind
    attacker: int | str         # a seat or "peasant"
    defender: int | str
    cubes: int                  # every cube thrown in
    attacker_count: int
    defender_count: int
    result: ev.BattleResult
    year: int


@dataclass
class EndRecord:
    players: dict[int, PlayerRecord]
    winners: list[int]
    tied_on_score: list[int]    # the seats with the top score (more than one: a tie)
    biggest: BattleRecord | None
    battles: int

    @property
    def decided_by_chests(self) -> bool:
        """R-END-1: the top score was shared and the chests left decided it."""
        return len(self.tied_on_score) > 1 and len(self.winners) < len(self.tied_on_score)

    def standings(self) -> list[PlayerRecord]:
        return sorted(self.players.values(), key=lambda p: (-p.score, -p.chests, p.seat))


def _seat_of(colour: str) -> int | None:
    try:
        return int(colour)
    except (TypeError, ValueError):
        return None


def end_record(events: Iterable[ev.Event], players: int) -> EndRecord:
    """The record of a game from its events (any prefix of them: what is known so far),
    each narrowed by its name to its `sim.events` record."""
    rec = {s: PlayerRecord(s) for s in range(players)}
    winners: list[int] = []
    top: list[int] = []
    biggest: BattleRecord | None = None
    battles = 0
    year = 1
    thrown: dict[str, int] = {}
    for e in events:
        if e["event"] == "YearStarted":
            year = e["year"]
        elif e["event"] == "TowerDropped" and e["reason"] in ("battle", "revolt"):
            thrown = dict(e["thrown"])
            for colour, n in thrown.items():
                seat = _seat_of(colour)
                if seat in rec:
                    rec[seat].thrown += n
            for colour, n in e["out"].items():
                seat = _seat_of(colour)
                if seat in rec:
                    rec[seat].out += n
        elif e["event"] == "BattleResolved":
            battles += 1
            cubes = sum((e["thrown"] or thrown).values())
            b = BattleRecord(battles, e["province"], e["kind"], e["attacker"], e["defender"],
                             cubes, e["attacker_count"], e["defender_count"], e["result"], year)
            if biggest is None or b.cubes > biggest.cubes:
                biggest = b
            thrown = {}
        elif e["event"] == "Scored" and e["seat"] in rec:
            p = rec[e["seat"]]
            p.provinces += e["provinces"]
            p.buildings += e["buildings"]
            p.majorities += e["majority_points"]
            p.regions = {r: dict(k) for r, k in e["regions"].items()}
            p.score = e["score"]
            p.history.append(p.score)
        elif e["event"] == "GameEnded":
            scores = {int(k): v for k, v in e["scores"].items()}
            money = {int(k): v for k, v in e["money"].items()}
            for s, p in rec.items():
                p.score = scores.get(s, p.score)
                p.chests = money.get(s, p.chests)
            winners = list(e["winners"])
            best = max(scores.values(), default=0)
            top = sorted(s for s, v in scores.items() if v == best)
    return EndRecord(rec, winners, top, biggest, battles)


def game_events(config: GameConfig, commands: Sequence[Command]) -> list[ev.Event]:
    """Every event of a game, re-run from its start with its commands (deterministic)."""
    state, events = new_game(config)
    out: list[ev.Event] = list(events)
    for cmd in commands:
        state, more = apply(state, cmd)
        out.extend(more)
    return out


def session_events(session: GameSession | None) -> list[ev.Event] | None:
    """All events of the session's game when it holds its commands (a local game), else
    None."""
    if session is None:
        return None
    commands = [cmd for cmd in session.commands if cmd is not None]
    if len(commands) < len(session.commands):    # only counted (a network table, a replay)
        return None
    try:
        return game_events(session.config, commands)
    except Exception:          # a game the engine cannot re-run: the screen does without
        return None
