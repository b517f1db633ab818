"""A table from one peer's point of view: lobby, mesh, lockstep, pause, rejoin, spectators.

Why one class: the client (a window) and the headless runner both need the same thing —
open, join, watch or resume a table and be told what happened. `TableSession` never
runs the reactor; its owner drives it (see docs/net.md).
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable


from net import messages
from net.beacon import ChainVerifier, H, HashChain
from net.admission import Credential, TableView, admit
from net.guess_limit import GuessLimiter
from net.lockstep import Lockstep, Offence
from net.expulsion import SignedSeats
from net.liveness import Liveness
from net.seat_keys import SeatKey, seat_proved
from net.peer import PeerConnection, PeerFactory, local_versions
from net.savefile import (CommandLog, default_save_path, read_save, write_desync_report,
                          write_save)

log = logging.getLogger("net.session")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
BUFFER_LIMIT = 5000


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(5))


def parse_address(address: str, default_port: int = 7531) -> tuple[str, int]:
    from net.addresses import parse_address as parse   # IPv4, [IPv6]:port, names (issue 16)
    return parse(address, default_port)


@dataclass
class SessionOptions:
    name: str = "player"
    code: str | None = None
    rejoin_timeout: float = 120.0
    save_path: str | None = None
    interface: str = ""              # where players listen; tests use "127.0.0.1"
    bot: str = "heuristic"           # the bot that plays bot seats
    report_dir: str | None = None    # desync reports (default: next to the save)


def _same_step(a: dict, b: dict) -> bool:
    """Two log entries of one step agree: the same hash as it began, the same commands
    and the same take-overs."""
    return a.get("hash") == b.get("hash") and a.get("commands") == b.get("commands") \
        and sorted(a.get("takeovers", [])) == sorted(b.get("takeovers", []))


def _noop(*args: Any) -> None:
    return None


class TableSession(SignedSeats, Liveness):
    """Host, join, watch or resume a table. Callbacks are attributes (see docs/net.md)."""

    def __init__(self, opts: SessionOptions, role: str, reactor: Any = None,
                 engine: Any = None) -> None:
        if reactor is None:
            from twisted.internet import reactor as default_reactor
            reactor = default_reactor
        if engine is None:
            from net.engine import SimEngine
            engine = SimEngine()
        self.opts = opts
        self.role = role                      # host | join | watch | resume
        self.reactor = reactor
        self.engine = engine
        self.name = opts.name
        self.code = opts.code
        self.peer_id = os.urandom(16)
        self.versions = local_versions(getattr(engine, "name", "shogun"))
        self.guess_limit = GuessLimiter(reactor)     # wrong join codes, per address
        self.seat_key: SeatKey | None = SeatKey() if role != "watch" else None
        self.expelled: set[int] = set()              # seats proved to cheat
        self.chain_msgs: dict[int, dict] = {}        # seat -> its signed ChainCommitted
        self._saved_table: bytes | None = None       # resume: my table before CaughtUp
        self._beat: Any = None                       # the next heartbeat (net.liveness)
        self._redialling: set[tuple[str, int]] = set()   # addresses of lost players
        self.listen_port = 0
        self.listener = None
        self.conns: list[PeerConnection] = []        # ready connections (players)
        self.spectators: list[PeerConnection] = []
        self.source: PeerConnection | None = None    # whom a spectator follows
        self.host_conn: PeerConnection | None = None
        self.lobby: dict[str, Any] = {}
        self.start_info: dict[str, Any] | None = None
        self.my_seat: int | None = None
        self.chain: HashChain | None = None
        self.token: bytes | None = None
        self.chain_ends: dict[int, bytes] = {}
        self.token_hashes: dict[int, bytes] = {}
        self.lockstep: Lockstep | None = None
        self.buffer: list[tuple[PeerConnection, dict]] = []
        self.offline: dict[int, Any] = {}            # seat -> timeout DelayedCall
        self.addresses: dict[int, tuple[str, int]] = {}
        self.saved_plans: dict[int, tuple[bytes, dict]] = {}
        self.save_path = opts.save_path
        self.bytes_sent = 0
        self.pending_dials = 0                       # connections being attempted
        self.offence_log: list[tuple[str, str]] = []
        self.desyncs: list[dict] = []
        self.closed = False
        self.refusal: str | None = None
        self.advert: Any = None                      # a LAN announcement to withdraw
        self._log_file: CommandLog | None = None
        self._started_resume = False                 # resume: caught up once already
        self._old_log: list[dict] = []               # my log before a rejoin
        self._early_rejoiners: list[PeerConnection] = []   # rejoined in the handshake
        self.saved_outbox: dict[int, list[dict]] = {}
        # callbacks
        self.on_lobby_changed: Callable[[dict], None] = _noop
        self.on_started: Callable[[Any, Any, Any], None] = _noop
        self.on_events: Callable[[list, Any], None] = _noop
        self.on_decision: Callable[[Any, Any], None] = _noop
        self.on_paused: Callable[[str], None] = _noop
        self.on_resumed: Callable[[], None] = _noop
        self.on_desync: Callable[[dict], None] = _noop
        self.on_refused: Callable[[str], None] = _noop
        self.on_error: Callable[[str], None] = _noop
        self.on_ended: Callable[[Any], None] = _noop

    # ================================================================ opening
    @classmethod
    def host(cls, opts: SessionOptions, port: int = 7531, players: int = 4, side: str = "sun",
             setup: str = "beginner", bots: int = 0, reactor: Any = None,
             engine: Any = None) -> "TableSession":
        s = cls(opts, "host", reactor, engine)
        s.code = opts.code or new_join_code()
        if not 0 <= bots < players:
            raise ValueError("bots must leave at least one human seat")
        seats = [{"seat": i, "kind": "bot" if i >= players - bots else "open",
                  "name": f"bot {i}" if i >= players - bots else "", "peer": None, "key": None}
                 for i in range(players)]
        seats[0].update(kind="human", name=s.name, peer=s.peer_id, key=s.seat_key.public)
        s.lobby = {"players": players, "side": side, "setup": setup, "code": s.code,
                   "started": False, "seats": seats, "tower_vote": False}
        s.my_seat = 0
        s._listen(port)
        return s

    @classmethod
    def join(cls, opts: SessionOptions, address: str, code: str | None = None,
             reactor: Any = None, engine: Any = None) -> "TableSession":
        s = cls(opts, "join", reactor, engine)
        s.code = code if code is not None else opts.code
        s._listen(0)
        host, port = parse_address(address)
        s.host_address = (host, port)
        s._dial(host, port, {"role": "player"})
        return s

    @classmethod
    def watch(cls, opts: SessionOptions, address: str, code: str | None = None,
              reactor: Any = None, engine: Any = None) -> "TableSession":
        s = cls(opts, "watch", reactor, engine)
        s.code = code if code is not None else opts.code
        host, port = parse_address(address)
        s.watch_address = (host, port)
        s._watch_tried = {(host, port)}
        s._dial(host, port, {"role": "spectator"})
        return s

    def _watch_elsewhere(self) -> bool:
        """The player we watched is gone: follow another (its log fills any gap)."""
        if self.role != "watch" or self.start_info is None or self.closed or self._over():
            return False
        for p in self.start_info["peers"]:
            addr = (p["host"] or self.watch_address[0], p["port"])
            if addr not in self._watch_tried:
                self._watch_tried.add(addr)
                self.source = None
                log.warning("following the game through %s:%d now", *addr)
                self._dial(addr[0], addr[1], {"role": "spectator"})
                return True
        self.on_refused("no player left to watch")
        return False

    @classmethod
    def resume(cls, opts: SessionOptions, save_path: str, reactor: Any = None,
               engine: Any = None) -> "TableSession":
        """Rejoin my seat after a crash, from my local save."""
        save = read_save(save_path)
        s = cls(opts, "resume", reactor, engine)
        s.save_path = save_path
        s.peer_id = save["peer"]
        s.name = save["name"]
        s.code = save["code"]
        s.my_seat = save["seat"]
        s.chain = HashChain(save["secret"])
        s.token = save["token"]
        s._saved_table = save["start"]["table"]
        if save.get("seat_key") is not None:
            s.seat_key = SeatKey(save["seat_key"])
        s.saved_plans = {step: (nonce, wire) for step, nonce, wire in save["plans"]}
        s.saved_outbox = {step: msgs for step, msgs in save.get("outbox", [])}
        s.addresses = {seat: (host, port) for seat, host, port in save["addresses"]}
        try:
            s._listen(save.get("listen_port", 0))
        except Exception:
            s._listen(0)
        hello = {"role": "rejoin", "seat": s.my_seat, "token": s.token,
                 "table": save["start"]["table"]}
        for seat, (host, port) in sorted(s.addresses.items()):
            if seat != s.my_seat:
                s._dial(host, port, hello)
        s._start_heartbeat()      # silent while it waits to catch up, it would be dropped
        return s

    def _listen(self, port: int) -> None:
        self.listener = self.reactor.listenTCP(port, PeerFactory(self, dialer=False),
                                               interface=self.opts.interface)
        self.listen_port = self.listener.getHost().port

    def _dial(self, host: str, port: int, hello: dict) -> None:
        self.pending_dials += 1
        self.reactor.connectTCP(host, port, PeerFactory(self, dialer=True, hello=hello),
                                timeout=10)

    # ================================================================ client API
    @property
    def join_code(self) -> str | None:
        return self.code

    @property
    def state(self) -> Any:
        return self.lockstep.state if self.lockstep else None

    @property
    def started(self) -> bool:
        return self.start_info is not None

    @property
    def decision(self) -> Any:
        """`pending(state)` now, or None before the start."""
        return self.lockstep.decision() if self.lockstep else None

    def waiting_for(self) -> list[int]:
        """Seats whose input the current step still lacks (for a status line)."""
        return self.lockstep.waiting_for() if self.lockstep else []

    @property
    def offline_seats(self) -> list[int]:
        """Seats that dropped and may still rejoin."""
        return sorted(self.offline)

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None) -> None:
        """Host only, before the start: change the table."""
        if self.role != "host" or self.started:
            raise ValueError("only the host can change the table before the start")
        lobby = self.lobby
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
                seats[i].update(kind="bot", name=f"bot {i}")
            lobby["players"], lobby["seats"] = players, seats
        self._lobby_changed()

    def request_seat(self, seat: int) -> None:
        if self.role == "host":
            self._move_seat(self.peer_id, seat)
        elif self.host_conn is not None:
            self.host_conn.send({"type": "SeatRequested", "seat": seat})

    def lobby_full(self) -> bool:
        return bool(self.lobby) and all(s["kind"] != "open" for s in self.lobby["seats"])

    def start_game(self) -> None:
        """Host only: every seat must be filled (humans or bots)."""
        if self.role != "host" or self.started:
            raise ValueError("only the host starts, once")
        if not self.lobby_full():
            raise ValueError("there are open seats")
        peers = []
        for seat in self.lobby["seats"]:
            if seat["kind"] != "human":
                continue
            if seat["peer"] == self.peer_id:
                peers.append({"peer": self.peer_id, "host": "", "port": self.listen_port,
                              "seat": seat["seat"]})
            else:
                conn = self._conn_for_peer(seat["peer"])
                peers.append({"peer": seat["peer"], "host": conn.transport.getPeer().host,
                              "port": conn.hello["listen_port"], "seat": seat["seat"]})
        msg = {"type": "GameStarted", "table": os.urandom(16),
               "config": {k: self.lobby[k] for k in ("players", "side", "setup")},
               "seats": [{"seat": s["seat"], "kind": s["kind"], "name": s["name"],
                          "peer": s["peer"], "key": s.get("key")}
                         for s in self.lobby["seats"]],
               "peers": peers, "bot": self.opts.bot}
        msg["config"] = self.engine.config_wire(self.engine.config(
            self.lobby["players"], self.lobby["side"], self.lobby["setup"]))
        for conn in self.conns:
            conn.send(msg)
        self._game_started(msg)

    def submit(self, command: Any) -> None:
        if self.lockstep is None:
            raise ValueError("the game has not started")
        self.lockstep.submit(command)

    def close(self) -> None:
        self.closed = True
        if self._beat is not None and self._beat.active():
            self._beat.cancel()
        for call in self.offline.values():
            if call.active():
                call.cancel()
        self.offline.clear()
        for conn in list(self.conns) + list(self.spectators):
            if conn.transport is not None:
                conn.transport.loseConnection()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self.listener is not None:
            self.listener.stopListening()
            self.listener = None
        if self.advert is not None:
            self.advert.close()

    # ================================================================ from connections
    def count_sent(self, n: int) -> None:
        self.bytes_sent += n

    def offence_logged(self, conn: PeerConnection, reason: str) -> None:
        self.offence_log.append((conn.describe(), reason))

    def dial_failed(self, connector: Any, reason: Any) -> None:
        self.pending_dials -= 1
        dest = connector.getDestination()
        message = f"could not connect to {dest.host}:{dest.port}: {reason.getErrorMessage()}"
        if (dest.host, dest.port) in self._redialling:
            log.info(message)               # redialled every second: not a warning each
            return
        log.warning(message)
        self.on_error(message)
        if self.role in ("join", "watch", "resume") and not self.started and not self.conns \
                and self.pending_dials == 0 and self.source is None:
            self.refusal = message
            self.on_refused(message)
        elif self.role == "watch" and self.source is None:
            self._watch_elsewhere()

    def refused(self, conn: PeerConnection, reason: str) -> None:
        if self.role == "resume" and (self.pending_dials > 0
                                      or any(not c.closed for c in self.conns)):
            # one player said no (it left, say); another may still take me back
            log.warning("rejoin refused by %s: %s", conn.describe(), reason)
            return
        self.refusal = reason
        self.on_refused(reason)

    def admit(self, conn: PeerConnection, hello: dict) -> str | None:
        """Decide on a Hello that passed the version check (the channel proved the join
        code): `net.admission.admit` decides; a reason refuses."""
        info = self.start_info
        seats = {e["seat"]: e for e in info["seats"]} if info is not None else {}
        view = TableView(
            my_role=self.role, closed=self.closed, started=self.started,
            open_seat=any(s["kind"] == "open" for s in self.lobby.get("seats", [])),
            table=info["table"] if info is not None else None, seats=seats,
            token_hashes=dict(self.token_hashes),
            bot_seats=frozenset(self.lockstep.bots if self.lockstep is not None else ()),
            expelled=frozenset(self.expelled),
            connected=frozenset(c.seat for c in self.conns
                                if not c.closed and c.seat is not None))
        cred = Credential(role=hello["role"], peer=hello["peer"], seat=hello["seat"],
                          table=hello["table"], seat_key=hello["seat_key"],
                          seat_proof=hello["seat_proof"], token=hello["token"],
                          binding=conn.binding or b"")
        verdict = admit(view, cred)
        if verdict.pending_mesh:
            conn.pending_mesh = True
        if verdict.replaces is not None:
            old = self._conn_for_seat(verdict.replaces)
            if old is not None:
                old.closed = True
                old.transport.loseConnection()
        return verdict.reason

    def connection_ready(self, conn: PeerConnection) -> None:
        if conn.dialer:
            self._dialed_ready(conn)
            return
        if conn.role == "spectator":
            conn.seat = None
            self.spectators.append(conn)
            if self.lockstep is not None:
                conn.send(self._caught_up())
            return
        self.conns.append(conn)
        if conn.pending_mesh and not self.started:
            conn.seat = conn.hello["seat"]
            return
        if not self.started:                     # the host seats a newcomer
            seat = next(s for s in self.lobby["seats"] if s["kind"] == "open")
            seat.update(kind="human", name=conn.remote_name, peer=conn.remote_peer,
                        key=conn.hello["seat_key"])
            conn.seat = seat["seat"]
            self._lobby_changed()
            return
        conn.seat = conn.hello["seat"]
        if conn.role == "rejoin":
            self._rejoined(conn)
        elif self.chain is not None:
            self._send_chain(conn)
            if self.lockstep is not None:
                self._reconnected(conn)
                self._back_online(conn.seat)

    def _dialed_ready(self, conn: PeerConnection) -> None:
        role = conn.hello["role"]
        if role == "spectator":
            self.source = conn
            return
        self.conns.append(conn)
        if role == "player" and not self.started:
            self.host_conn = conn
            conn.seat = None
            return
        conn.seat = self._seat_of_peer(conn.remote_peer)
        conn.remote_name = self._name_of_seat(conn.seat)
        if role in ("player", "rejoin") and self.chain is not None:
            # a rejoin repeats it: the player may have dropped before it got there
            self._send_chain(conn)
        if role == "player" and self.lockstep is not None:
            self._reconnected(conn)
        if conn.seat in self.offline:
            self._back_online(conn.seat)

    def connection_lost(self, conn: PeerConnection) -> None:
        if conn in self.spectators:
            self.spectators.remove(conn)
            return
        if conn not in self.conns:
            if conn is self.source and not self.closed and not self._over():
                self.on_paused("lost the connection to the peer we were watching")
                self._watch_elsewhere()
            return
        self.conns.remove(conn)
        if self.closed:
            return
        if self.started and self.lockstep is not None and not self._over() \
                and self.my_seat is not None and not any(c.seat is not None for c in self.conns) \
                and (self.desyncs or (conn.offended_reason or "").startswith("desync")):
            # everyone dropped me because my state disagreed with theirs: come back and
            # catch up from their history, like a restarted peer
            self.reactor.callLater(1.0, self._rejoin_all)
        if not self.started:
            if self.role == "host":
                for seat in self.lobby["seats"]:
                    if seat["peer"] == conn.remote_peer and seat["kind"] == "human":
                        seat.update(kind="open", name="", peer=None, key=None)
                self._lobby_changed()
            elif conn is self.host_conn:
                # the table is gone for me. Close the mesh connections of players that did
                # get the host's GameStarted too, or my seat would look alive to them.
                self.close()
                self.refusal = "the host left before the game started"
                self.on_refused(self.refusal)
            return
        seat = conn.seat
        if seat is None or self._conn_for_seat(seat) is not None:
            return
        if self.lockstep is not None and seat in self.lockstep.bots:
            return
        if self.my_seat is not None and seat in self.chain_ends \
                and (self.lockstep is None or seat not in self.lockstep.bots):
            # its chain commitment too: a player that began without it cannot check the
            # links relayed below (it dropped in the start handshake)
            signed = self.chain_msgs.get(seat)
            if signed is not None:
                self._broadcast({"type": "Relayed", "seat": seat, "message": signed})
        if self.lockstep is not None and self.my_seat is not None:
            # pass on what the dropped seat sent me lately, in case it reached me and not
            # the others (see Lockstep.receive_relayed) — even if my game is over
            for m in self.lockstep.heard_from(seat, self.lockstep.step - 4):
                self._broadcast({"type": "Relayed", "seat": seat, "message": m})
        if self._over():
            return
        if self._may_redial(conn):
            self.reactor.callLater(0.2, self._redial, seat)
        if seat not in self.offline:
            timeout = self.opts.rejoin_timeout
            self.offline[seat] = self.reactor.callLater(timeout, self._timed_out, seat)
            reason = (f"seat {seat} ({self._name_of_seat(seat)}) dropped; waiting up to "
                      f"{timeout:g} s for it to rejoin")
            log.warning(reason)
            self.on_paused(reason)

    def received(self, conn: PeerConnection, msg: dict) -> None:
        kind = msg["type"]
        if conn.role == "spectator" and not conn.dialer:
            conn.offence(f"a spectator sent {kind}; spectators can send nothing")
            return
        if conn.pending_mesh and not self.started:
            if len(self.buffer) >= BUFFER_LIMIT:
                conn.drop("too many messages before the game started")
                return
            self.buffer.append((conn, msg))
            return
        handler = getattr(self, "_on_" + kind, None)
        if kind in messages.PLAYER_GAME_MESSAGES and kind not in ("ChainCommitted", "SeatTakenOver"):
            handler = self._on_lockstep
        if handler is None:
            conn.offence(f"unexpected {kind}")
            return
        handler(conn, msg)

    # ================================================================ lobby
    def _lobby_changed(self) -> None:
        if self.role == "host" and self.lobby:
            self.lobby["tower_vote"] = self._tower_needs_vote()
        if self.role == "host":
            wire = {**self.lobby, "seats": [dict(s) for s in self.lobby["seats"]]}
            for conn in self.conns:
                conn.send({"type": "LobbyChanged", "lobby": wire})
        self.on_lobby_changed(self.lobby)

    def _tower_needs_vote(self) -> bool:
        """Whether the seated players' machines compute drops differently (their canaries
        differ): the lobby then says tower results are agreed by vote on this table."""
        canaries = {self.versions.get("canary")}
        for conn in self.conns:
            if conn.hello is not None and conn.role == "player":
                canaries.add(conn.hello.get("versions", {}).get("canary"))
        return len(canaries) > 1

    def _on_LobbyChanged(self, conn: PeerConnection, msg: dict) -> None:
        if conn is not self.host_conn or self.started:
            conn.offence("LobbyChanged from a peer that is not the host")
            return
        lobby = msg["lobby"]
        seats = lobby.get("seats")
        if not isinstance(seats, list) or len(seats) > 5 or \
                not all(isinstance(s, dict) and isinstance(s.get("seat"), int) for s in seats):
            conn.offence("LobbyChanged with malformed seats")
            return
        self.lobby = lobby
        mine = [s["seat"] for s in seats if s.get("peer") == self.peer_id]
        self.my_seat = mine[0] if mine else None
        self.on_lobby_changed(self.lobby)

    def _on_SeatRequested(self, conn: PeerConnection, msg: dict) -> None:
        if self.role != "host" or self.started:
            conn.offence("SeatRequested but this is not an open lobby")
            return
        self._move_seat(conn.remote_peer, msg["seat"])

    def _move_seat(self, peer: bytes, seat: int) -> None:
        seats = self.lobby["seats"]
        if seat >= len(seats) or seats[seat]["kind"] != "open":
            return
        for s in seats:
            if s["peer"] == peer:
                seats[seat].update(kind="human", name=s["name"], peer=peer, key=s.get("key"))
                s.update(kind="open", name="", peer=None, key=None)
                self._seat_conn(peer, seat)
                break
        self._lobby_changed()

    def _seat_conn(self, peer: bytes, seat: int) -> None:
        if peer == self.peer_id:
            self.my_seat = seat
        conn = self._conn_for_peer(peer)
        if conn is not None:
            conn.seat = seat

    # ================================================================ start
    def _on_GameStarted(self, conn: PeerConnection, msg: dict) -> None:
        if conn is not self.host_conn or self.started:
            conn.offence("GameStarted from a peer that is not the host")
            return
        try:
            self._check_start(msg)
        except ValueError as exc:
            self.on_error(f"the host's GameStarted is malformed: {exc}")
            conn.offence(f"malformed GameStarted: {exc}")
            return
        host_addr = self.host_address
        for p in msg["peers"]:
            if p["host"] == "":
                p["host"] = host_addr[0]
        self._game_started(msg)

    def _check_start(self, msg: dict) -> None:
        self._config_from(msg["config"])
        seen = set()
        for s in msg["seats"]:
            if not isinstance(s, dict) or not isinstance(s.get("seat"), int) \
                    or s.get("kind") not in ("human", "bot"):
                raise ValueError("bad seat entry")
            if s["kind"] == "human" and not (isinstance(s.get("key"), bytes)
                                             and len(s["key"]) == 32):
                raise ValueError(f"seat {s['seat']} has no seat key")
            seen.add(s["seat"])
        if seen != set(range(len(msg["seats"]))):
            raise ValueError("seats are not 0..n-1")
        for p in msg["peers"]:
            if not isinstance(p, dict) or not isinstance(p.get("host"), str) \
                    or not isinstance(p.get("port"), int) or not isinstance(p.get("peer"), bytes):
                raise ValueError("bad peer entry")

    def _config_from(self, wire: dict) -> Any:
        return self.engine.config_from_wire(wire)

    def _game_started(self, msg: dict) -> None:
        self.start_info = {k: msg[k] for k in ("table", "config", "seats", "peers", "bot")}
        self.lobby["started"] = True
        self.my_seat = self._seat_of_peer(self.peer_id)
        for p in msg["peers"]:
            self.addresses[p["seat"]] = (p["host"], p["port"])
        for conn in list(self.conns):
            if conn.pending_mesh:
                conn.pending_mesh = False
                entry = self._seat_entry(conn.hello["seat"])
                if conn.hello["table"] != msg["table"] or entry is None \
                        or entry["peer"] != conn.remote_peer:
                    conn.drop("mesh connection for another table or seat")
                    continue
                if not seat_proved(entry.get("key"), msg["table"], entry["seat"],
                                   conn.binding, conn.hello["seat_proof"]):
                    conn.drop(f"mesh connection without seat {entry['seat']}'s key")
                    continue
            if conn.seat is None or conn is self.host_conn:
                conn.seat = self._seat_of_peer(conn.remote_peer)
        self.chain = HashChain()
        self.token = os.urandom(32)
        self.chain_ends[self.my_seat] = self.chain.commitment
        self.token_hashes[self.my_seat] = H(self.token)
        if self.save_path is None:
            self.save_path = default_save_path(self.name)
        self._save()        # before the commitment goes out: a restart must keep this chain
        # a player that never shows up (its GameStarted was lost with the host, say) is
        # treated like one that dropped: after the rejoin timeout a bot takes its seat
        self._watch_absent_seats()
        # the mesh: dial every player with a lower seat we are not yet connected to
        for p in msg["peers"]:
            if p["seat"] < self.my_seat and self._conn_for_peer(p["peer"]) is None:
                self._dial(p["host"], p["port"], {"role": "player", "seat": self.my_seat,
                                                  "table": msg["table"]})
        for conn in self.conns:
            self._send_chain(conn)
        self._start_heartbeat()
        self._drain()
        self._maybe_begin()

    def _watch_absent_seats(self) -> None:
        """Players I have no connection to (yet) get the rejoin timeout, as if they had
        just dropped: one that never shows up, or that the others already gave up
        waiting for while I was away, is taken over like any dropped seat."""
        bots = self.lockstep.bots if self.lockstep is not None else set()
        for seat in self._humans():
            if seat != self.my_seat and seat not in bots and seat not in self.offline \
                    and self._conn_for_seat(seat) is None:
                self.offline[seat] = self.reactor.callLater(self.opts.rejoin_timeout,
                                                            self._timed_out, seat)

    def _send_chain(self, conn: PeerConnection) -> None:
        msg = self.chain_msgs.get(self.my_seat)
        if msg is None:
            msg = self.chain_msgs[self.my_seat] = self.sign(
                {"type": "ChainCommitted", "seat": self.my_seat,
                 "chain_end": self.chain.commitment, "token_hash": H(self.token)})
        conn.send(msg)

    def _on_ChainCommitted(self, conn: PeerConnection, msg: dict) -> None:
        if not self.started or conn.seat is None or msg["seat"] != conn.seat:
            conn.offence(f"ChainCommitted for seat {msg['seat']} from {conn.seat}")
            return
        seat = msg["seat"]
        if not self.signed_by_seat(seat, msg):
            conn.offence(f"ChainCommitted is not signed by seat {seat}'s key")
            return
        old = self.chain_ends.get(seat)
        if old is not None:
            if old != msg["chain_end"] or self.token_hashes[seat] != msg["token_hash"]:
                conn.offence(f"seat {seat} committed to a second chain")
                self._cheated(seat, self.chain_msgs.get(seat), msg)
            return
        self.chain_msgs[seat] = msg
        self.chain_ends[seat] = msg["chain_end"]
        self.token_hashes[seat] = msg["token_hash"]
        if self._conn_for_seat(seat) is not None:
            self._cancel_timeout(seat)               # it showed up: no take-over
        if self.lockstep is not None:
            # the game began here without it (the seat dropped in the handshake and has
            # come back): its links can be checked from now on
            self.lockstep.add_chain(seat, msg["chain_end"], self.token_hashes[seat])
        self._maybe_begin()
        self._catch_up_early_rejoiners()

    def _humans(self) -> list[int]:
        return [s["seat"] for s in self.start_info["seats"] if s["kind"] == "human"]

    def _maybe_begin(self, without_missing: bool = False) -> None:
        """Begin once every player's chain commitment is here — or, after a player dropped
        in the start handshake and did not come back in time, without the missing ones:
        the game then runs to the first step that needs the dropped seat, where a bot
        takes it over, at the same step as at the players that did get its commitment."""
        if self.lockstep is not None or self.role not in ("host", "join") \
                or self.start_info is None:
            return        # a resumed peer begins from the log it is sent (CaughtUp)
        if not without_missing and not all(s in self.chain_ends for s in self._humans()):
            return
        self.lockstep = self._make_lockstep(self.chain_ends)
        log.info("game begins: seat %s of %d", self.my_seat, len(self.start_info["seats"]))
        self.on_started(self.lockstep.config, self.my_seat, self.lockstep.state)
        for conn in self.spectators:
            conn.send(self._caught_up())
        self.lockstep.start()
        self._drain()
        self._catch_up_early_rejoiners()

    def _make_lockstep(self, chain_ends: dict[int, bytes], following: bool = False) -> Lockstep:
        info = self.start_info
        kinds = {s["seat"]: s["kind"] for s in info["seats"]}
        ls = Lockstep(self.engine, self._config_from(info["config"]), kinds,
                      None if following else self.my_seat, None if following else self.chain,
                      chain_ends, bot=info["bot"], tokens=self.token_hashes)
        ls.following = following
        ls.broadcast = self._broadcast
        ls.sign = self.sign
        ls.verify = self.signed_by_seat
        ls.on_cheated = self._cheated
        ls.on_events = lambda events, state: self.on_events(events, state)
        ls.on_decision = lambda d, state: self.on_decision(d, state)
        ls.on_step = self._step_applied
        ls.on_desync = self._desync
        ls.on_offence = self._lockstep_offence
        ls.on_ended = self._ended
        ls.on_saved = self._save
        return ls

    def _drain(self) -> None:
        pending, self.buffer = self.buffer, []
        for conn, msg in pending:
            if not conn.closed:
                self.received(conn, msg)

    # ================================================================ lockstep traffic
    def _on_lockstep(self, conn: PeerConnection, msg: dict) -> None:
        if conn.role == "spectator" or conn is self.source:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if self.lockstep is None or (self.role == "resume" and not self._started_resume):
            if not (self.started or self.role == "resume") or len(self.buffer) >= BUFFER_LIMIT:
                conn.offence(f"{msg['type']} before the game started")
                return
            self.buffer.append((conn, msg))
            return
        if conn.seat is None:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if msg["seat"] == conn.seat and not self.signed_by_seat(conn.seat, msg):
            conn.offence(f"{msg['type']} for step {msg['step']} is not signed by seat "
                         f"{conn.seat}'s key")
            return
        try:
            resent = conn.role == "rejoin" or (conn.dialer and self.role == "resume") \
                or conn.redialed
            self.lockstep.receive(conn.seat, msg, resent=resent)
        except Offence as exc:
            conn.offence(str(exc))
        except ValueError as exc:
            conn.offence(f"rejected {msg['type']}: {exc}")

    def _broadcast(self, msg: dict) -> None:
        for conn in self.conns:
            if conn.ready:
                conn.send(msg)

    def _lockstep_offence(self, seat: int, reason: str) -> None:
        conn = self._conn_for_seat(seat)
        if conn is not None:
            conn.offence(reason)
        else:
            log.warning("rejected input from seat %d: %s", seat, reason)

    def _step_applied(self, entry: dict) -> None:
        for conn in self.spectators:
            conn.send({"type": "StepApplied", "entry": entry})
        self._append_log(entry)

    def _append_log(self, entry: dict) -> None:
        """The command log next to the save: one msgpack entry appended per step."""
        if self.save_path is None or self.my_seat is None:
            return
        try:
            if self._log_file is None:
                self._log_file = CommandLog(self.save_path + ".log", self.lockstep.log[:-1])
            self._log_file.append(entry)
        except OSError as exc:
            log.error("could not append to the command log: %s", exc)

    def _ended(self, state: Any) -> None:
        for call in self.offline.values():
            if call.active():
                call.cancel()
        self.offline.clear()
        self.on_ended(state)

    def _over(self) -> bool:
        return self.lockstep is not None and self.lockstep.ended

    # ================================================================ pause, rejoin, take-over
    def _timed_out(self, seat: int) -> None:
        self.offline.pop(seat, None)
        if self._conn_for_seat(seat) is not None or self.closed:
            return
        if self.lockstep is None:
            self._maybe_begin(without_missing=True)   # it dropped in the start handshake
        if self.lockstep is None or self._over() or seat in self.lockstep.bots:
            return
        if seat not in self.lockstep.waiting_for():
            # not blocked on that seat yet: look again soon (everyone takes over at the
            # same step: the first one that needs the missing seat)
            self.offline[seat] = self.reactor.callLater(1.0, self._timed_out, seat)
            return
        if not self._majority_here(seat):
            self.offline[seat] = self.reactor.callLater(1.0, self._timed_out, seat)
            return
        step = self.lockstep.step
        log.warning("seat %d did not rejoin in time: a bot plays it from step %d", seat, step)
        self._broadcast({"type": "SeatTakenOver", "step": step, "seat": seat})
        self.lockstep.take_over(seat, step)
        self._maybe_resumed()

    def _on_Relayed(self, conn: PeerConnection, msg: dict) -> None:
        seat = msg["seat"]
        if isinstance(msg["message"], dict) and msg["message"].get("type") == "ChainCommitted":
            self._relayed_chain(conn, seat, msg["message"])
            return
        if self.lockstep is None and self.started and conn.seat is not None \
                and conn.role != "spectator" and seat != conn.seat \
                and len(self.buffer) < BUFFER_LIMIT:
            # a dropped seat's last input, relayed before the game began here: kept for
            # then, or I would fork from the players that got it
            self.buffer.append((conn, msg))
            return
        if conn.seat is None or conn.role == "spectator" or conn is self.source \
                or self.lockstep is None or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        # taken even while the seat still looks connected here: its drop may reach me
        # after the relay does. Signed by the seat, it proves itself, from any relayer.
        try:
            inner = messages.check(msg["message"])
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if inner.get("seat") != seat or not self.signed_by_seat(seat, inner):
            conn.offence(f"relayed {inner['type']} for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        try:
            self.lockstep.receive_relayed(seat, inner)
        except Offence as exc:
            conn.offence(str(exc))

    def _relayed_chain(self, conn: PeerConnection, seat: int, inner: dict) -> None:
        """A dropped seat's chain commitment, relayed: signed by the seat, it proves
        itself, so it is taken from any relayer (the links relayed after it can then be
        checked)."""
        if conn.seat is None or conn.role == "spectator" or conn is self.source \
                or not self.started or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        try:
            inner = messages.check(inner)
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if inner["seat"] != seat or seat == self.my_seat or seat not in self._humans():
            conn.offence(f"relayed chain commitment for seat {inner['seat']} is not relayable")
            return
        if not self.signed_by_seat(seat, inner):
            conn.offence(f"relayed ChainCommitted for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        known = self.chain_ends.get(seat)
        if known is not None:
            if known != inner["chain_end"]:
                self._cheated(seat, self.chain_msgs.get(seat), inner)
            return
        self.chain_msgs[seat] = inner
        self.chain_ends[seat] = inner["chain_end"]
        self.token_hashes[seat] = inner["token_hash"]
        if self.lockstep is not None:
            self.lockstep.add_chain(seat, inner["chain_end"], inner["token_hash"])
        self._maybe_begin()

    def offender_dropped(self, conn: PeerConnection, reason: str) -> None:
        """I dropped a player for offences: the others drop it too, so that its seat is
        gone for everyone at once (a seat some still hear would fork the table)."""
        if self.started and conn.seat is not None and conn.role != "spectator" \
                and conn is not self.source:
            self._broadcast({"type": "SeatDropped", "seat": conn.seat, "reason": reason[:500]})

    def _on_SeatDropped(self, conn: PeerConnection, msg: dict) -> None:
        seat = msg["seat"]
        if conn.seat is None or not self.started or seat == conn.seat:
            conn.offence("SeatDropped from a connection that cannot send it")
            return
        conn.drop_claims += 1
        if conn.drop_claims > 2:
            conn.offence("too many SeatDropped claims")
            return
        if seat == self.my_seat:
            log.warning("seat %s says it dropped me: %s", conn.seat, msg["reason"])
            return
        other = self._conn_for_seat(seat)
        if other is not None:
            log.warning("dropping seat %d too: seat %s dropped it (%s)", seat, conn.seat,
                        msg["reason"])
            other.drop(f"seat {conn.seat} dropped you: {msg['reason']}"[:500], offender=False)

    def _on_SeatTakenOver(self, conn: PeerConnection, msg: dict) -> None:
        seat = msg["seat"]
        if self.lockstep is None and self.role == "resume":
            return                  # the log I am catching up from carries the take-over
        if self.lockstep is None and self._conn_for_seat(seat) is None:
            self._maybe_begin(without_missing=True)   # it dropped in the start handshake
        if conn.seat is None or self.lockstep is None or seat == conn.seat:
            conn.offence("SeatTakenOver from a connection that cannot send it")
            return
        if seat == self.my_seat:
            conn.offence(f"SeatTakenOver of my own seat {seat}: I am here")
            return
        if self._conn_for_seat(seat) is not None:
            log.warning("ignored take-over of seat %d from seat %s: it is connected here",
                        seat, conn.seat)
            return
        if msg["step"] < self.lockstep.step and seat not in self.lockstep.bots:
            # a step I am past: the sender's history differs from mine (hashes will
            # show which side is alone); my own timer still decides for my history
            log.warning("take-over of seat %d at past step %d ignored (now %d)",
                        seat, msg["step"], self.lockstep.step)
            return
        self._cancel_timeout(seat)
        self.lockstep.take_over(seat, msg["step"])
        self._maybe_resumed()

    def _back_online(self, seat: int) -> None:
        self._cancel_timeout(seat)
        self._maybe_resumed()

    def _cancel_timeout(self, seat: int) -> None:
        call = self.offline.pop(seat, None)
        if call is not None and call.active():
            call.cancel()

    def _maybe_resumed(self) -> None:
        if not self.offline:
            self.on_resumed()

    def _rejoin_all(self) -> None:
        """Rejoin my seat with the peer still running: the same path as `--resume`."""
        if self.closed or self._over() or self.lockstep is None \
                or any(c.seat is not None and not c.closed for c in self.conns):
            return
        old = self.lockstep
        log.warning("dropped by every player: rejoining seat %d", self.my_seat)
        self.on_paused("dropped by the other players; rejoining and catching up")
        self._old_log = list(old.log)
        self.saved_plans = dict(old.my_plans)
        self.saved_outbox = {step: list(msgs) for step, msgs in old.sent.items()}
        for call in self.offline.values():
            if call.active():
                call.cancel()
        self.offline.clear()
        self.role = "resume"
        self._started_resume = False
        self.lockstep = None
        self.buffer = []
        hello = {"role": "rejoin", "seat": self.my_seat, "token": self.token,
                 "table": self.start_info["table"]}
        for seat, (host, port) in sorted(self.addresses.items()):
            if seat != self.my_seat:
                self._dial(host, port, hello)

    def _rejoined(self, conn: PeerConnection) -> None:
        """A dropped player proved its seat: give it the log, then my current messages."""
        seat = conn.seat
        conn.remote_name = self._name_of_seat(seat)
        log.warning("seat %d rejoined", seat)
        self._back_online(seat)
        if self.lockstep is None or seat not in self.chain_ends:
            # it dropped in the start handshake: the log follows once the game has begun
            # here and its commitment (which it sends again) has arrived
            self._early_rejoiners.append(conn)
            return
        self._send_caught_up(conn)

    def _send_caught_up(self, conn: PeerConnection) -> None:
        conn.send(self._caught_up())
        for msg in self.lockstep.resend_from(self.lockstep.step):
            conn.send(msg)

    def _catch_up_early_rejoiners(self) -> None:
        if self.lockstep is None:
            return
        waiting = []
        for conn in self._early_rejoiners:
            if conn.closed or conn not in self.conns:
                continue
            if conn.seat in self.chain_ends:
                self._send_caught_up(conn)
            else:
                waiting.append(conn)
        self._early_rejoiners = waiting

    def _start_wire(self) -> dict:
        return {**self.start_info,
                "chain_ends": [[s, e] for s, e in sorted(self.chain_ends.items())],
                "token_hashes": [[s, t] for s, t in sorted(self.token_hashes.items())]}

    def _caught_up(self) -> dict:
        ls = self.lockstep
        chains = {str(s): [v.next_round, v.last] for s, v in ls.verifiers.items()}
        return {"type": "CaughtUp", "start": self._start_wire(), "log": ls.log,
                "chains": chains, "step": ls.step}

    def _on_CaughtUp(self, conn: PeerConnection, msg: dict) -> None:
        if not conn.dialer or self.role not in ("watch", "resume"):
            conn.offence("CaughtUp sent to a peer that did not ask")
            return
        if self.role == "watch" and conn is not self.source:
            conn.offence("CaughtUp from a peer we do not follow")
            return
        try:
            if self.lockstep is not None and self.role == "watch" \
                    and not self._same_history(msg["log"]):
                # the player we watched had applied steps the others never saw (it
                # dropped mid-step and a bot took its seat): follow the new player's
                # history from the start
                log.warning("rewinding the spectated game to the history of %s", conn.describe())
                self.lockstep = None
            if self.lockstep is None:
                self._begin_from(msg)
            for entry in msg["log"][self.lockstep.step:]:
                if self.lockstep.ended:
                    break
                self.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("could not catch up from %s: %s", conn.describe(), exc)
            self.on_error(f"could not catch up: {exc}")
            return
        if self.role == "resume":
            self.lockstep.following = False
            self.lockstep.chain = self.chain
            self.lockstep.my_seat = self.my_seat
            if self._started_resume is False:
                self._started_resume = True
                self._restore_my_step()
                self._watch_absent_seats()
            else:
                for m in self.lockstep.resend_from(msg["step"]):
                    conn.send(m)
            self._drain()
            self.lockstep.advance()

    def _same_history(self, other: list) -> bool:
        mine = self.lockstep.log
        if len(other) < len(mine):
            return False
        return all(_same_step(a, b) for a, b in zip(mine, other))

    def _begin_from(self, msg: dict) -> None:
        start = msg["start"]
        self._check_start(start)
        self.start_info = {k: start[k] for k in ("table", "config", "seats", "peers", "bot")}
        self.chain_ends = {s: e for s, e in start["chain_ends"]}
        self.token_hashes = {s: t for s, t in start["token_hashes"]}
        if self.role == "resume" and self.chain_ends.get(self.my_seat) != self.chain.commitment:
            raise ValueError("my saved chain does not match my commitment at this table")
        for p in start["peers"]:
            self.addresses.setdefault(p["seat"], (p["host"], p["port"]))
        ls = self._make_lockstep(self.chain_ends, following=True)
        self.lockstep = ls
        for conn in self.conns:
            if conn.seat is None:
                conn.seat = self._seat_of_peer(conn.remote_peer)
        self.on_started(ls.config, self.my_seat, ls.state)
        ls.on_events(ls._initial_events, ls.state)
        for entry in msg["log"]:
            ls.replay(entry)
        for s, (next_round, last) in msg["chains"].items():
            v = ChainVerifier(self.chain_ends[int(s)])
            v.next_round, v.last = next_round, last
            ls.verifiers[int(s)] = v
        if self.role == "resume":
            # my own links: trust my chain, not the peer
            v = ChainVerifier(self.chain.commitment)
            v.next_round = ls.round
            v.last = self.chain.link(ls.round - 1) if ls.round else self.chain.commitment
            ls.verifiers[self.my_seat] = v

    def _restore_my_step(self) -> None:
        """After catching up: my committed plan (from the save) is still my plan."""
        ls = self.lockstep
        old_log = self._old_log
        if not all(_same_step(a, b) for a, b in zip(old_log, ls.log)):
            # my history was not theirs (a desync): what I said from it is void
            log.warning("my history differed from the table's; my earlier messages are void")
            self.saved_plans, self.saved_outbox = {}, {}
        ls.my_plans.update(self.saved_plans)
        ls.restore_outbox(self.saved_outbox)
        for m in ls.resend_from(ls.step):
            self._broadcast(m)

    def _on_StepApplied(self, conn: PeerConnection, msg: dict) -> None:
        if conn is not self.source or self.lockstep is None:
            conn.offence("StepApplied from a peer we do not follow")
            return
        entry = msg["entry"]
        if entry.get("step", -1) < self.lockstep.step:
            return
        try:
            self.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("spectated step rejected: %s", exc)
            self.on_desync({"step": self.lockstep.step, "reason": str(exc)})

    # ================================================================ desync
    def _desync(self, seat: int, step: int, mine: str, theirs: str) -> None:
        report = {"step": step, "seat": seat, "my_seat": self.my_seat, "my_hash": mine,
                  "their_hash": theirs, "versions": self.versions,
                  "log": self.lockstep.log if self.lockstep else []}
        base = self.opts.report_dir or (str(Path(self.save_path).parent) if self.save_path
                                        else os.getcwd())
        try:
            report["path"] = write_desync_report(base, report)
        except OSError as exc:
            log.error("could not write the desync report: %s", exc)
        log.error("DESYNC at step %d: seat %d has %s, I have %s (report %s)",
                  step, seat, theirs, mine, report.get("path"))
        self.desyncs.append(report)
        self.on_desync(report)
        conn = self._conn_for_seat(seat)
        if conn is not None:
            conn.drop(f"desync at step {step}: your state hash differs from mine", offender=False)

    # ================================================================ save
    def _save(self) -> None:
        """My secrets and my latest choices, atomically (the log goes to `<save>.log`)."""
        if self.save_path is None or self.start_info is None or self.my_seat is None \
                or self.chain is None:
            return
        ls = self.lockstep
        plans = ls.my_plans if ls else {}
        current = ls.step if ls else 0
        save = {"start": self._start_wire(), "seat": self.my_seat,
                "peer": self.peer_id, "name": self.name, "code": self.code or "",
                "secret": self.chain.secret, "token": self.token,
                "seat_key": self.seat_key.seed if self.seat_key is not None else None,
                "plans": [[s, n, w] for s, (n, w) in sorted(plans.items()) if s >= current - 1],
                "outbox": [[s, m] for s, m in sorted(ls.sent.items()) if s >= current - 1]
                if ls else [],
                "step": current,
                "addresses": [[s, h, p] for s, (h, p) in sorted(self.addresses.items())],
                "listen_port": self.listen_port}
        try:
            write_save(self.save_path, save)
        except OSError as exc:
            log.error("could not write the save %s: %s", self.save_path, exc)

    # ================================================================ lookups
    def _conn_for_peer(self, peer: bytes | None) -> PeerConnection | None:
        return next((c for c in self.conns if c.remote_peer == peer and not c.closed), None)

    def _conn_for_seat(self, seat: int | None) -> PeerConnection | None:
        return next((c for c in self.conns if c.seat == seat and not c.closed), None)

    def _seat_entry(self, seat: int | None) -> dict | None:
        if self.start_info is None or seat is None:
            return None
        return next((s for s in self.start_info["seats"] if s["seat"] == seat), None)

    def _seat_of_peer(self, peer: bytes | None) -> int | None:
        seats = self.start_info["seats"] if self.start_info else self.lobby.get("seats", [])
        return next((s["seat"] for s in seats if s.get("peer") == peer and peer), None)

    def _name_of_seat(self, seat: int | None) -> str:
        entry = self._seat_entry(seat)
        return entry["name"] if entry else "?"
