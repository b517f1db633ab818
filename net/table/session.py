"""A table from one peer's point of view: `TableSession`, the one class the client uses.

Why one class: the client (a window) and the headless runner both need the same thing —
open, join, watch or resume a table and be told what happened. `TableSession` never
runs the reactor; its owner drives it (see docs/net.md).

The class is assembled from one part per phase of a table (`net.table.phase.Phase`):
`net.table.lobby` (seats, start), `net.table.start_mesh` (GameStarted to the first step), `net.table.play`
(lockstep traffic), `net.table.takeover` (offline seats, the countdown, bots taking seats),
`net.table.relays`, `net.table.expulsion` (cheating proofs, drop claims), `net.table.liveness`
(heartbeats, redials, the no-split rule), `net.table.recovery` (rejoin, catch-up),
`net.table.spectate`, `net.table.persistence` (save, command log), `net.table.chat`, and
`net.table.connections` (what `net.transport.peer` calls). This module keeps the constructors, the
client API and the lookups every part shares.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from typing import Any, Callable


from net.lockstep.beacon import HashChain
from net.table.chat import Chat, ChatLine
from net.table.connections import BUFFER_LIMIT, Connections
from net.table.expulsion import DropClaims, SignedSeats
from net.trust.guess_limit import GuessLimiter
from net.table.liveness import Liveness
from net.table.lobby import Lobby
from net.lockstep.core import Lockstep
from net.table.start_mesh import Mesh
from net.transport.peer import PeerConnection, PeerFactory, local_versions
from net.table.persistence import Persistence
from net.table.phase import Phase
from net.table.play import Play
from net.table.recovery import Recovery
from net.table.relays import Relays
from store.table_save import CommandLog, SaveJournal, read_save
from net.trust.seat_keys import SeatKey
from net.table.spectate import Spectate
from net.table.takeover import Takeover

__all__ = ["BUFFER_LIMIT", "ChatLine", "Phase", "SessionOptions", "TableSession"]

log = logging.getLogger("net.table.session")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(5))


def parse_address(address: str, default_port: int = 7531) -> tuple[str, int]:
    from net.reach.addresses import parse_address as parse   # IPv4, [IPv6]:port, names (issue 16)
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


def _noop(*args: Any) -> None:
    return None


class TableSession(Connections, Lobby, Mesh, Play, Takeover, Relays, SignedSeats, DropClaims,
                   Liveness,
                   Recovery, Spectate, Persistence, Chat):
    """Host, join, watch or resume a table. Callbacks are attributes (see docs/net.md)."""

    def __init__(self, opts: SessionOptions, role: str, reactor: Any = None,
                 engine: Any = None) -> None:
        if reactor is None:
            from twisted.internet import reactor as default_reactor
            reactor = default_reactor
        if engine is None:
            from net.lockstep.engine import SimEngine
            engine = SimEngine()
        self.opts = opts
        self.role = role                      # host | join | watch | resume
        self.is_host = role == "host"         # opened the table (kept through a rejoin)
        self.phase = (Phase.SPECTATE if role == "watch" else
                      Phase.RECOVERY if role == "resume" else Phase.LOBBY)
        self.reactor = reactor
        self.engine = engine
        self.name = opts.name
        self.code = opts.code
        self.peer_id = os.urandom(16)
        self.versions = local_versions(getattr(engine, "name", "shogun"))
        self.guess_limit = GuessLimiter(reactor)     # wrong join codes, per address
        self.seat_key: SeatKey | None = SeatKey() if role != "watch" else None
        self.expelled: set[int] = set()              # seats proved to cheat
        self.drop_claims: dict[int, set[int]] = {}   # seat -> seats that dropped it
        self.forwards: dict[int, set[int]] = {}      # seat -> seats I pass its messages to
        self.parted: set[int] = set()                # dropped by me alone, or I by it
        self.chain_msgs: dict[int, dict] = {}        # seat -> its signed ChainCommitted
        self._saved_table: bytes | None = None       # resume: my table before CaughtUp
        self._beat: Any = None                       # the next heartbeat (net.table.liveness)
        self._beat_due = 0.0                         # when it should run
        self._stalled = 0.0                          # seconds this peer was found stalled
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
        self.takeover_deadline: dict[int, float] = {}   # seat -> when a bot may take it
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
        self._save_journal: SaveJournal | None = None     # my save (net.table.persistence)
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
        self.on_chat_received: Callable[[ChatLine], None] = _noop
        # hooks for statistics and test harnesses (the runner's round-trip timing):
        # public, so nobody has to replace a private method
        self.on_broadcast: Callable[[dict], None] = _noop      # before a message goes to all
        self.on_step_applied: Callable[[dict], None] = _noop   # a step's log entry, applied

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
        for seat in seats:
            if seat["kind"] == "bot":
                seat["level"] = opts.bot
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

    def submit(self, command: Any) -> None:
        if self.lockstep is None:
            raise ValueError("the game has not started")
        self.lockstep.submit(command)

    def unlock_plan(self) -> None:
        """Take my locked plan back (only while not every player has locked): see
        `net.lockstep.plan_steps`. ValueError with a sentence for the player otherwise."""
        if self.lockstep is None:
            raise ValueError("The game has not started.")
        self.lockstep.unlock()

    def my_plan(self) -> Any:
        """My locked plan of this round (a `SubmitPlan`), or None: the engine's state holds
        only the cards turned so far, my own too (`net.lockstep.plan_steps`)."""
        return self.lockstep.my_plan() if self.lockstep is not None else None

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
        if self._save_journal is not None:
            self._save_journal.close()
            self._save_journal = None
        if self.listener is not None:
            self.listener.stopListening()
            self.listener = None
        if self.advert is not None:
            self.advert.close()

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
