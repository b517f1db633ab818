"""The lobby: seats, the host's table settings, per-seat bot levels, the start.

Why: before `GameStarted` the host is the hub (guests connect to it only) and owns the
lobby; everything here is host-decided and ends with `start_game`.

Tests: tests/net/table/test_lobby.py, tests/net/table/test_session.py (the lobby).
"""

from __future__ import annotations

import logging
import os
from typing import Any, TYPE_CHECKING

from net.table.dialer import Dialer
from net.table.shared import Identity, Roster, StartRecord, TableSetting, TableState, transport_of
from net.table.before_start.start_mesh import StartHandshake
from net.transport.message_records import GameStarted, LobbyChanged, SeatRequested

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Lobby:
    """The seats before the start: the host's to decide, the guests' to follow."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, dialer: Dialer, handshake: StartHandshake) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._dialer = dialer           # my listening port goes into GameStarted
        self._handshake = handshake

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None,
                  bot_levels: dict[int, str] | None = None) -> None:
        """Host only, before the start: change the table. `bot_levels`: seat -> level
        for bot seats (`set_bot_level`)."""
        table = self._shared
        if table.role != "host" or self._start.started:
            raise ValueError("only the host can change the table before the start")
        lobby = table.lobby
        old_levels = {s["seat"]: s.get("level") for s in lobby["seats"] if s["kind"] == "bot"}
        if side is not None:
            lobby["side"] = side
        if setup is not None:
            lobby["setup"] = setup
        if players is not None or bots is not None:
            players = players or lobby["players"]
            humans = [s for s in lobby["seats"] if s["kind"] == "human"]
            bots = bots if bots is not None else sum(s["kind"] == "bot" for s in lobby["seats"])
            if len(humans) + bots > players:
                raise ValueError("not enough seats for the players already here")
            seats = []
            for i in range(players):
                seats.append({"seat": i, "kind": "open", "name": "", "peer": None, "key": None})
            for i, h in enumerate(humans):
                seats[i].update(kind="human", name=h["name"], peer=h["peer"], key=h.get("key"))
                self._seat_conn(h["peer"], i)
            for i in range(players - bots, players):
                seats[i].update(kind="bot", name=f"bot {i}",
                                level=old_levels.get(i) or self._setting.opts.bot)
            lobby["players"], lobby["seats"] = players, seats
        for seat, level in (bot_levels or {}).items():
            self._check_bot_level(seat, level)
        for seat, level in (bot_levels or {}).items():
            lobby["seats"][seat]["level"] = level
        self.lobby_changed()

    def set_bot_level(self, seat: int, level: str) -> None:
        """Host only, before the start: the level (`easy`, `normal`, `hard`) of the bot
        that plays bot seat `seat`. Every peer plays that seat at that level."""
        table = self._shared
        if table.role != "host" or self._start.started:
            raise ValueError("only the host can choose the bots' levels, before the start")
        self._check_bot_level(seat, level)
        table.lobby["seats"][seat]["level"] = level
        self.lobby_changed()

    def _check_bot_level(self, seat: int, level: str) -> None:
        from sim.bots import BOT_NAMES, LEVELS
        table = self._shared
        seats = table.lobby["seats"]
        if not isinstance(seat, int) or not 0 <= seat < len(seats) \
                or seats[seat]["kind"] != "bot":
            raise ValueError(f"seat {seat} is not a bot seat")
        if level not in BOT_NAMES:
            raise ValueError(f"there is no bot level called {level!r}; choose "
                             f"{', '.join(LEVELS[:-1])} or {LEVELS[-1]}")

    def request_seat(self, seat: int) -> None:
        table = self._shared
        if table.role == "host":
            self._move_seat(self._me.peer_id, seat)
        elif self._roster.host_conn is not None:
            self._roster.host_conn.send({"type": "SeatRequested", "seat": seat})

    def move_players(self, moves: dict[int, int]) -> None:
        """Host only, before the start: move players between seats at once, `{old seat:
        new seat}`. A new seat must be open or be left by a player who moves too, so two
        players may swap (`request_seat` moves one player to an open seat only). Used by
        the reachability check (`net.reach.internet.reseat`) to give the players who can be
        dialled the lower seats. ValueError (a sentence) for anything else; nothing moves
        then."""
        table = self._shared
        if table.role != "host" or self._start.started:
            raise ValueError("only the host can move players, before the start")
        seats = table.lobby["seats"]
        for old, new in moves.items():
            for seat in (old, new):
                if not isinstance(seat, int) or not 0 <= seat < len(seats):
                    raise ValueError(f"there is no seat {seat} at this table")
            if seats[old]["kind"] != "human":
                raise ValueError(f"seat {old} has no player to move")
            if seats[new]["kind"] == "bot":
                raise ValueError(f"seat {new} is a bot's seat")
            if seats[new]["kind"] != "open" and new not in moves:
                raise ValueError(f"seat {new} is taken by a player who stays there")
        if len(set(moves.values())) != len(moves):
            raise ValueError("two players cannot move to one seat")
        before = {old: dict(seats[old]) for old in moves}
        for old in moves:
            seats[old].update(kind="open", name="", peer=None, key=None)
        for old, new in moves.items():
            entry = before[old]
            seats[new].update(kind="human", name=entry["name"], peer=entry["peer"],
                              key=entry.get("key"))
            self._seat_conn(entry["peer"], new)
        self.lobby_changed()

    def lobby_full(self) -> bool:
        table = self._shared
        return bool(table.lobby) and all(s["kind"] != "open" for s in table.lobby["seats"])

    def start_game(self) -> None:
        """Host only: every seat must be filled (humans or bots)."""
        table = self._shared
        if table.role != "host" or self._start.started:
            raise ValueError("only the host starts, once")
        if not self.lobby_full():
            raise ValueError("there are open seats")
        peers = []
        for seat in table.lobby["seats"]:
            if seat["kind"] != "human":
                continue
            if seat["peer"] == self._me.peer_id:
                peers.append({"peer": self._me.peer_id, "host": "",
                              "port": self._dialer.listen_port, "seat": seat["seat"]})
            else:
                conn = self._roster.conn_for_peer(seat["peer"])
                assert conn is not None and conn.hello is not None   # a seated guest
                peers.append({"peer": seat["peer"], "host": transport_of(conn).getPeer().host,
                              "port": conn.hello["listen_port"], "seat": seat["seat"]})
        msg: GameStarted = {"type": "GameStarted", "table": os.urandom(16),
               "config": {k: table.lobby[k] for k in ("players", "side", "setup")},
               "seats": [{"seat": s["seat"], "kind": s["kind"], "name": s["name"],
                          "peer": s["peer"], "key": s.get("key")}
                         for s in table.lobby["seats"]],
               "peers": peers, "bot": self._setting.opts.bot,
               "turn_time": table.lobby.get("turn_time", self._setting.opts.turn_time),
               "rejoin_timeout": self._setting.opts.rejoin_timeout,
               "bot_levels": [[s["seat"], s.get("level") or self._setting.opts.bot]
                              for s in table.lobby["seats"] if s["kind"] == "bot"]}
        msg["config"] = self._setting.engine.config_wire(self._setting.engine.config(
            table.lobby["players"], table.lobby["side"], table.lobby["setup"]))
        for conn in self._roster.conns:
            conn.send(msg)
        self._handshake.game_started(msg)

    def lobby_changed(self) -> None:
        table = self._shared
        if table.role == "host" and table.lobby:
            platform = self._platform_seats()
            table.lobby["platform_seats"] = platform
            table.lobby["tower_vote"] = bool(platform)
        if table.role == "host":
            # who watches (names only) is listed, and the watchers are told the lobby too
            table.lobby["watchers"] = [str(c.remote_name)[:40]
                                       for c in self._roster.spectators][:16]
            wire = {**table.lobby, "seats": [dict(s) for s in table.lobby["seats"]]}
            for conn in self._roster.conns + self._roster.spectators:
                conn.send({"type": "LobbyChanged", "lobby": wire})
        self._setting.callbacks.on_lobby_changed(table.lobby)

    def _platform_seats(self) -> list[int]:
        """The seated players whose handshake says their physics is not the verified
        deterministic build (`sim.tower.build.verified`): their drops cannot be checked,
        so the table says in advance that it may need the vote and its fallback
        (`net.lockstep.tower_vote`). Everyone else's drops are computed, not voted."""
        from sim.tower.build import verified
        table = self._shared
        said: dict[bytes | None, dict[str, str]] = {self._me.peer_id: self._me.versions}
        for conn in self._roster.conns:
            if conn.hello is not None and conn.role == "player":
                said[conn.remote_peer] = conn.hello.get("versions", {})
        platform = []
        for seat in table.lobby.get("seats", []):
            versions = said.get(seat.get("peer")) if seat.get("kind") == "human" else None
            if versions is not None and not verified(versions.get("physics", ""),
                                                     versions.get("selftest", "")):
                platform.append(seat["seat"])
        return platform

    def lobby_changed_received(self, conn: PeerConnection, msg: LobbyChanged) -> None:
        table = self._shared
        watching = table.role == "watch" and conn is self._roster.source   # a spectator's player
        if (conn is not self._roster.host_conn and not watching) or self._start.started:
            conn.offence("LobbyChanged from a peer that is not the host")
            return
        lobby = msg["lobby"]
        seats = lobby.get("seats")
        if not isinstance(seats, list) or len(seats) > 5 or \
                not all(isinstance(s, dict) and isinstance(s.get("seat"), int) for s in seats):
            conn.offence("LobbyChanged with malformed seats")
            return
        table.lobby = lobby
        mine = [s["seat"] for s in seats if s.get("peer") == self._me.peer_id]
        table.my_seat = mine[0] if mine else None
        for spectator in self._roster.spectators:      # a guest's own watchers see the lobby too
            spectator.send({"type": "LobbyChanged", "lobby": lobby})
        self._setting.callbacks.on_lobby_changed(table.lobby)

    def seat_requested(self, conn: PeerConnection, msg: SeatRequested) -> None:
        table = self._shared
        if table.role != "host" or self._start.started:
            conn.offence("SeatRequested but this is not an open lobby")
            return
        self._move_seat(conn.remote_peer, msg["seat"])

    def _move_seat(self, peer: bytes | None, seat: int) -> None:
        table = self._shared
        seats = table.lobby["seats"]
        if seat >= len(seats) or seats[seat]["kind"] != "open":
            return
        for s in seats:
            if s["peer"] == peer:
                seats[seat].update(kind="human", name=s["name"], peer=peer, key=s.get("key"))
                s.update(kind="open", name="", peer=None, key=None)
                self._seat_conn(peer, seat)
                break
        self.lobby_changed()

    def _seat_conn(self, peer: bytes | None, seat: int) -> None:
        table = self._shared
        if peer == self._me.peer_id:
            table.my_seat = seat
        conn = self._roster.conn_for_peer(peer)
        if conn is not None:
            conn.seat = seat
