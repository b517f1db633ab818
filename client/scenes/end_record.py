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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from client.sessions.interface import GameSession
from sim import events as ev
from sim.game import apply, new_game

Event = Mapping[str, Any]


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
    kind: str                   # attack | neutral | revolt
    attacker: int | str         # a seat or "peasant"
    defender: int | str
    cubes: int                  # every cube thrown in
    attacker_count: int
    defender_count: int
    result: str                 # attacker | defender | draw
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


def end_record(events: Iterable[Event], players: int) -> EndRecord:
    """The record of a game from its events (any prefix of them: what is known so far)."""
    rec = {s: PlayerRecord(s) for s in range(players)}
    winners: list[int] = []
    top: list[int] = []
    biggest: BattleRecord | None = None
    battles = 0
    year = 1
    thrown: dict[str, int] = {}
    for e in events:
        kind = e.get("event")
        # narrowed by its name to its sim.events record (a log's keys are read with defaults)
        if kind == "YearStarted":
            year = int(cast(ev.YearStarted, e).get("year", year))
        elif kind == "TowerDropped" and (drop := cast(ev.TowerDropped, e)).get("reason") in (
                "battle", "revolt"):
            thrown = dict(drop.get("thrown", {}))
            for colour, n in thrown.items():
                seat = _seat_of(colour)
                if seat in rec:
                    rec[seat].thrown += int(n)
            for colour, n in (drop.get("out") or {}).items():
                seat = _seat_of(colour)
                if seat in rec:
                    rec[seat].out += int(n)
        elif kind == "BattleResolved":
            r = cast(ev.BattleResolved, e)
            battles += 1
            cubes = sum(int(n) for n in (r.get("thrown") or thrown).values())
            b = BattleRecord(battles, str(r.get("province")), str(r.get("kind")),
                             r.get("attacker", "peasant"), r.get("defender", "peasant"), cubes,
                             int(r.get("attacker_count", 0)), int(r.get("defender_count", 0)),
                             str(r.get("result")), year)
            if biggest is None or b.cubes > biggest.cubes:
                biggest = b
            thrown = {}
        elif kind == "Scored" and int((sc := cast(ev.Scored, e))["seat"]) in rec:
            p = rec[int(sc["seat"])]
            p.provinces += int(sc.get("provinces", 0))
            p.buildings += int(sc.get("buildings", 0))
            p.majorities += int(sc.get("majority_points", 0))
            p.regions = {r: dict(k) for r, k in (sc.get("regions") or {}).items()}
            p.score = int(sc.get("score", p.score))
            p.history.append(p.score)
        elif kind == "GameEnded":
            ended = cast(ev.GameEnded, e)
            scores = {int(k): int(v) for k, v in ended.get("scores", {}).items()}
            money = {int(k): int(v) for k, v in ended.get("money", {}).items()}
            for s, p in rec.items():
                p.score = scores.get(s, p.score)
                p.chests = money.get(s, p.chests)
            winners = [int(w) for w in ended.get("winners", [])]
            best = max(scores.values(), default=0)
            top = sorted(s for s, v in scores.items() if v == best)
    return EndRecord(rec, winners, top, biggest, battles)


def game_events(config: Any, commands: Sequence[Any]) -> list[Event]:
    """Every event of a game, re-run from its start with its commands (deterministic)."""
    state, events = new_game(config)
    out: list[Event] = list(events)
    for cmd in commands:
        state, more = apply(state, cmd)
        out.extend(more)
    return out


def session_events(session: GameSession | None) -> list[Event] | None:
    """All events of the session's game when it holds its commands (a local game), else
    None."""
    if session is None:
        return None
    commands = list(session.commands)
    if any(cmd is None for cmd in commands):     # only counted (a network table, a replay)
        return None
    try:
        return game_events(session.config, commands)
    except Exception:          # a game the engine cannot re-run: the screen does without
        return None
