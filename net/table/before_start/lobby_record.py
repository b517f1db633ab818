"""The lobby and the start as typed records: what a window reads of a table's seats.

Why records: the lobby travels as a map (`LobbyChanged`, checked only as a map with a
list of seats by `net.table.before_start.lobby`), and the start as `GameStarted`'s fields; a reader
of raw maps guesses at keys and defaults in every place it looks. `from_wire` reads a
map once, forgiving what a lobby may lack (a table still being set up), and `to_wire`
gives the map back in the shape the table sends.

Tests: tests/net/table/test_lobby_record.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from net.transport.messages import Wire

from net.trust.peer_text import shown


@dataclass(frozen=True)
class LobbySeat:
    """One seat as the lobby (or the start) lists it."""
    seat: int
    kind: str                  # "human", "bot" or "open" ("" if the map said nothing)
    name: str = ""
    peer: bytes | None = None
    key: bytes | None = None   # a human seat's public seat key
    level: str | None = None   # a bot seat's level

    @classmethod
    def from_wire(cls, wire: Wire) -> LobbySeat:
        level = wire.get("level")
        return cls(seat=int(wire["seat"]), kind=str(wire.get("kind") or ""),
                   name=shown(wire.get("name") or "")[:40], peer=wire.get("peer"),
                   key=wire.get("key"), level=level if isinstance(level, str) else None)

    def to_wire(self) -> Wire:
        wire: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "name": self.name,
                                "peer": self.peer, "key": self.key}
        if self.level is not None:
            wire["level"] = self.level
        return wire


def seats_from_wire(seats: object) -> tuple[LobbySeat, ...]:
    """The well-formed seats of a map's list (a map with an int `seat`), in order."""
    if not isinstance(seats, list):
        return ()
    return tuple(LobbySeat.from_wire(s) for s in seats
                 if isinstance(s, dict) and isinstance(s.get("seat"), int)
                 and not isinstance(s.get("seat"), bool))


@dataclass(frozen=True)
class TableLobby:
    """The table before its start, as the host last said (`net.table.before_start.lobby`)."""
    players: int | None = None
    side: str | None = None
    setup: str | None = None
    code: str | None = None
    started: bool = False
    seats: tuple[LobbySeat, ...] = ()
    tower_vote: bool = False                 # the players' physics builds differ
    platform_seats: tuple[int, ...] = ()
    turn_time: float | None = None           # the host's turn timer, seconds
    watchers: tuple[str, ...] = ()           # the names of those watching

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any] | None) -> TableLobby:
        if not wire:
            return cls()
        players, turn_time, watchers = wire.get("players"), wire.get("turn_time"), \
            wire.get("watchers")
        return cls(
            players=players if isinstance(players, int) else None,
            side=wire.get("side"), setup=wire.get("setup"), code=wire.get("code"),
            started=bool(wire.get("started")), seats=seats_from_wire(wire.get("seats")),
            tower_vote=bool(wire.get("tower_vote")),
            platform_seats=tuple(wire.get("platform_seats") or ()),
            turn_time=float(turn_time) if isinstance(turn_time, (int, float))
            and not isinstance(turn_time, bool) else None,
            watchers=tuple(shown(n)[:40] for n in watchers if isinstance(n, str))[:16]
            if isinstance(watchers, list) else ())

    def to_wire(self) -> Wire:
        wire: dict[str, Any] = {
            "players": self.players, "side": self.side, "setup": self.setup,
            "code": self.code, "started": self.started,
            "seats": [s.to_wire() for s in self.seats], "tower_vote": self.tower_vote,
            "platform_seats": list(self.platform_seats), "turn_time": self.turn_time,
            "watchers": list(self.watchers)}
        return wire

    def __bool__(self) -> bool:
        """A lobby the host has said something about (an empty map is none)."""
        return self != TableLobby()

    def bots(self) -> int:
        return sum(1 for s in self.seats if s.kind == "bot")

    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")


@dataclass(frozen=True)
class StartInfo:
    """What a game was started with (`GameStarted`, as `net.table.before_start.start_mesh` keeps it)."""
    table: bytes = b""
    seats: tuple[LobbySeat, ...] = ()
    config: Mapping[str, Any] = field(default_factory=dict)
    peers: tuple[Mapping[str, Any], ...] = ()
    bot: str = ""
    bot_levels: tuple[tuple[int, str], ...] = ()
    turn_time: float | None = None
    rejoin_timeout: float | None = None

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any] | None) -> StartInfo | None:
        """None for no start (or a map that is not one)."""
        if not isinstance(wire, Mapping):
            return None
        table = wire.get("table")
        return cls(table=table if isinstance(table, bytes) else b"", seats=seats_from_wire(wire.get("seats")),
                   config=wire.get("config") or {},
                   peers=tuple(wire.get("peers") or ()), bot=str(wire.get("bot") or ""),
                   bot_levels=tuple((int(s), str(lv)) for s, lv in wire.get("bot_levels") or ()),
                   turn_time=wire.get("turn_time"), rejoin_timeout=wire.get("rejoin_timeout"))

    def to_wire(self) -> Wire:
        wire: dict[str, Any] = {
            "table": self.table, "config": dict(self.config),
            "seats": [{k: v for k, v in s.to_wire().items() if k != "level"}
                      for s in self.seats],
            "peers": [dict(p) for p in self.peers], "bot": self.bot,
            "bot_levels": [[s, lv] for s, lv in self.bot_levels]}
        for k in ("turn_time", "rejoin_timeout"):
            if getattr(self, k) is not None:
                wire[k] = getattr(self, k)
        return wire
