"""A table from one peer's point of view: `TableSession`, the one class the client uses.

Why one class: the client (a window) and the headless runner both need the same thing —
open, join, watch or resume a table and be told what happened. `TableSession` never
runs the reactor; its owner drives it (see docs/net.md).

It is composed of parts, each an object with its own state, built here with the
collaborators it calls: `net.table.dialer` (listen, dial), `net.table.expulsion`
(signatures, cheating proofs), `net.table.persistence` (save, command log),
`net.table.drop_claims`, `net.table.liveness` (heartbeats, redials, the no-split rule),
`net.table.takeover` (offline seats, bots taking seats), `net.table.play` (the lockstep),
`net.table.recovery` (rejoin, catch-up), `net.table.before_start.start_mesh` (GameStarted to the first
step), `net.table.relays`, `net.table.before_start.lobby` (seats, start), `net.table.spectate`,
`net.table.chat`, and `net.table.connections` (what `net.transport.peer` calls);
what each role does first (host, join, watch, resume) is `net.table.before_start.opening`. What
several parts share is one record, `net.table.shared.TableState`. This module keeps the
constructors and the client API, delegating to the parts.

Tests: tests/net/table/ (test_session.py first), tests/net/lockstep/, tests/net/trust/.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from net.lockstep.beacon import HashChain
from net.reach.addresses import DEFAULT_PORT, parse_address   # IPv4, [IPv6]:port, names
from net.table.chat import Chat, ChatLine
from twisted.python.failure import Failure

from net.table.connections import Connections, Connector, routes
from net.table.dialer import Dialer
from net.table.drop_claims import DropClaims
from net.table.expulsion import Expulsion
from net.table.seat_signer import SeatSigner
from net.table.input_deadline import InputDeadlines
from net.table.missed_inputs import MissedInputs
from net.table.liveness import Liveness
from net.table.before_start.lobby import Lobby
from net.table.before_start import opening
from net.table.before_start.opening import CODE_ALPHABET, new_join_code   # (their readers import them here)
from net.table.persistence import Persistence
from net.table.phase import Phase
from net.table.play import BUFFER_LIMIT, Play
from net.table.recovery import Recovery
from net.table.pair_links import PairLinks
from net.table.relays import Relays
from net.table.shared import (Callbacks, Delegated, Identity, Role, Roster, SessionOptions,
                              StartRecord, TableEngine, TableOwner, TableReactor, TableSetting,
                              TableState, transport_of)
from net.table.spectate import Spectate
from net.table.before_start.start_mesh import StartHandshake
from net.table.takeover import Takeover
from net.transport.peer_reports import PeerReports
from net.transport.versions import local_versions
from net.trust.door_identity import Door, door_of
from net.trust.guess_limit import GuessLimiter
from net.trust.seat_keys import SeatKey
from store.table_save import read_save

if TYPE_CHECKING:
    from sim import events as ev
    from sim.commands import Command, SubmitPlan
    from sim.state import Decision, GameConfig, State
    from net.lockstep.core import Lockstep
    from net.transport.peer import PeerConnection

__all__ = ["BUFFER_LIMIT", "CODE_ALPHABET", "ChatLine", "Phase", "SessionOptions", "TableSession",
           "new_join_code", "parse_address"]

log = logging.getLogger("net.table.session")

# what builds a table's owner from the table, as the table opens (`TableSession.host`, ...)
OwnerOf = Callable[["TableSession"], TableOwner]

class Advertisement(Protocol):
    """A LAN announcement of the table (`net.reach.discovery`), withdrawn on close."""

    def close(self) -> None: ...


class TableSession:
    """Host, join, watch or resume a table. What it says goes to its `TableOwner`, given to
    the constructors (`owner=`); a harness may replace one callback (see docs/net.md)."""

    # what several parts share (`net.table.shared.TableState`)
    role = Delegated[Role]("shared")
    phase = Delegated[Phase]("shared")
    closed = Delegated[bool]("shared")
    my_seat = Delegated["int | None"]("shared")
    lobby = Delegated["dict[str, Any]"]("shared")
    lockstep = Delegated["Lockstep | None"]("shared")
    expelled = Delegated["set[int]"]("shared")
    # what the table runs in, who I am, who is there, how the game began (`net.table.shared`)
    opts = Delegated[SessionOptions]("setting")
    reactor = Delegated[TableReactor]("setting")
    engine = Delegated[TableEngine]("setting")
    is_host = Delegated[bool]("me")
    name = Delegated[str]("me")
    code = Delegated["str | None"]("me")
    peer_id = Delegated[bytes]("me")
    versions = Delegated["dict[str, str]"]("me")
    seat_key = Delegated["SeatKey | None"]("me")
    save_path = Delegated["str | None"]("me")
    conns = Delegated["list[PeerConnection]"]("roster")
    spectators = Delegated["list[PeerConnection]"]("roster")
    source = Delegated["PeerConnection | None"]("roster")
    host_conn = Delegated["PeerConnection | None"]("roster")
    start_info = Delegated["dict[str, Any] | None"]("start", "info")
    chain = Delegated["HashChain | None"]("start")
    addresses = Delegated["dict[int, tuple[str, int]]"]("start")
    # the owner's callbacks and hooks (`net.table.shared.Callbacks`)
    on_lobby_changed = Delegated[Callable[[dict[str, Any]], None]]("callbacks")
    on_started = Delegated[Callable[["GameConfig", "int | None", "State"], None]]("callbacks")
    on_events = Delegated[Callable[["list[ev.Event]", "State"], None]]("callbacks")
    on_decision = Delegated[Callable[["Decision", "State"], None]]("callbacks")
    on_paused = Delegated[Callable[[str], None]]("callbacks")
    on_resumed = Delegated[Callable[[], None]]("callbacks")
    on_notice = Delegated[Callable[[str], None]]("callbacks")
    on_desync = Delegated[Callable[[dict[str, Any]], None]]("callbacks")
    on_refused = Delegated[Callable[[str], None]]("callbacks")
    on_error = Delegated[Callable[[str], None]]("callbacks")
    on_ended = Delegated[Callable[["State"], None]]("callbacks")
    on_chat_received = Delegated[Callable[[ChatLine], None]]("callbacks")
    on_broadcast = Delegated[Callable[[dict[str, Any]], None]]("callbacks")
    on_step_applied = Delegated[Callable[[dict[str, Any]], None]]("callbacks")
    # what one part owns
    listen_port = Delegated[int]("dialer")
    pending_dials = Delegated[int]("dialer")
    bytes_sent = Delegated[int]("connections")
    offence_log = Delegated["list[tuple[str, str]]"]("connections")
    refusal = Delegated["str | None"]("connections")
    desyncs = Delegated["list[dict[str, Any]]"]("play")
    # replaceable (tests/net/trust)
    sign = Delegated[Callable[[dict[str, Any]], dict[str, Any]]]("signer")

    # the parts (see the module doc)
    shared: TableState
    setting: TableSetting
    me: Identity
    roster: Roster
    start: StartRecord
    callbacks: Callbacks
    dialer: Dialer
    signer: SeatSigner
    persistence: Persistence
    claims: DropClaims
    liveness: Liveness
    takeover: Takeover
    expulsion: Expulsion
    play: Play
    recovery: Recovery
    handshake: StartHandshake
    relays: Relays
    pair_links: PairLinks
    seating: Lobby
    spectate: Spectate
    chat: Chat
    connections: Connections
    reports: PeerReports

    def __init__(self, opts: SessionOptions, role: Role, reactor: TableReactor | None = None,
                 engine: TableEngine | None = None) -> None:
        if reactor is None:
            from twisted.internet import reactor as default_reactor
            reactor = cast(TableReactor, default_reactor)
        if engine is None:
            from net.lockstep.engine import SimEngine
            engine = SimEngine()
        prepare = getattr(engine, "prepare", None)
        if prepare is not None:        # the game's files, read before any stranger comes
            prepare()
        self.setting = setting = TableSetting(opts=opts, reactor=reactor, engine=engine)
        self.callbacks = setting.callbacks
        self.me = me = Identity(
            name=opts.name, code=opts.code, peer_id=os.urandom(16),
            versions=local_versions(getattr(engine, "name", "shogun")),
            seat_key=SeatKey() if role != "watch" else None, save_path=opts.save_path,
            is_host=role == "host")
        self.roster = roster = Roster(setting.callbacks)
        self.start = start = StartRecord(opts)
        self.shared = shared = TableState(
            role=role, phase=(Phase.SPECTATE if role == "watch" else
                              Phase.RECOVERY if role == "resume" else Phase.LOBBY))
        self.guess_limit = GuessLimiter(reactor)     # wrong join codes, per address or tunnel
        self.advert: Advertisement | None = None     # set by the runner (cli.runner)
        # the parts, each built with the parts it calls; a call upwards (to a part built
        # later) is a function handed in, looked up when called
        self.dialer = Dialer(setting, self)
        self.signer = SeatSigner(shared, me, start)
        self.persistence = Persistence(shared, me, start, self.dialer)
        self.claims = DropClaims(shared, roster, start)
        self.liveness = Liveness(shared, setting, roster, start, self.dialer)
        self.takeover = Takeover(shared, setting, me, roster, start, self.liveness, self.claims,
                                 self.signer,
                                 begin_without_missing=lambda: self.handshake.maybe_begin(
                                     without_missing=True))
        self.claims.seat_barred = self.takeover.hand_barred_seat
        self.missed = MissedInputs(shared, setting, roster, self.takeover)
        self.deadlines = InputDeadlines(shared, setting, roster, start, self.liveness,
                                        self.takeover, self.missed)
        self.missed.reached = self.deadlines.inputs_reached
        self.liveness.ticked = self.deadlines.tick
        self.liveness.gave_up = self._cut_off
        self.expulsion = Expulsion(shared, setting, roster, start, self.signer, self.takeover)
        self.play = Play(shared, setting, me, roster, start, self.signer, self.claims,
                         self.takeover, self.expulsion, self.liveness, self.persistence)
        drain = lambda: self.connections.drain()       # noqa: E731
        self.recovery = Recovery(shared, setting, me, roster, start, self.dialer, self.takeover,
                                 self.persistence, self.play, drain)
        self.pair_links = PairLinks(shared, setting, me, roster, start, self.dialer)
        self.handshake = StartHandshake(shared, setting, me, roster, start, self.dialer,
                                        self.signer, self.expulsion, self.takeover,
                                        self.liveness, self.persistence, self.play,
                                        self.recovery, drain, leave=self._refuse_start,
                                        pair_links=self.pair_links)
        self.relays = Relays(shared, roster, start, self.signer, self.expulsion, self.handshake,
                             self.takeover, self.play, self.missed)
        self.seating = Lobby(shared, setting, me, roster, start, self.dialer, self.handshake)
        self.spectate = Spectate(shared, setting, roster, start, self.dialer)
        self.chat = Chat(shared, setting, me, roster, start)
        handlers = routes(self)
        self.connections = Connections(
            shared, setting, roster, start, self.dialer, self.seating, self.handshake, self.play,
            self.takeover, self.claims, self.liveness, self.recovery, self.spectate, handlers,
            self.close, self.chat.recall)
        # what every connection of this table reports, straight to the part that takes it
        c = self.connections
        self.reports = PeerReports(
            received=c.received, lost=c.connection_lost, ready=c.connection_ready,
            refused=c.refused, admit=c.admit, dial_failed=c.dial_failed,
            offence_logged=c.offence_logged, offender_dropped=self.claims.offender_dropped,
            bytes_sent=c.count_sent, awake_seconds=self.liveness.awake_seconds,
            door=self.door)

    def door(self, host: str, port: int) -> Door:
        """What the limits for strangers count a connection from `host`:`port` as: the
        tunnel of mine it came through (the host's friends by code, a pair tunnel I
        serve), else its address (issue 47, `net.trust.door_identity`)."""
        return door_of(host, port, self.pair_links.tunnel_names())

    @classmethod
    def host(cls, opts: SessionOptions, port: int = DEFAULT_PORT, players: int = 4, side: str = "sun",
             setup: str = "beginner", bots: int = 0, reactor: TableReactor | None = None,
             engine: TableEngine | None = None, owner: OwnerOf | None = None) -> TableSession:
        s = cls(opts, "host", reactor, engine)
        opening.hosted(s, port, players, side, setup, bots)
        return s._owned_by(owner)

    @classmethod
    def join(cls, opts: SessionOptions, address: str, code: str | None = None,
             reactor: TableReactor | None = None,
             engine: TableEngine | None = None, owner: OwnerOf | None = None) -> TableSession:
        s = cls(opts, "join", reactor, engine)
        opening.joined(s, address, code)
        return s._owned_by(owner)

    @classmethod
    def watch(cls, opts: SessionOptions, address: str, code: str | None = None,
              reactor: TableReactor | None = None,
              engine: TableEngine | None = None, owner: OwnerOf | None = None) -> TableSession:
        s = cls(opts, "watch", reactor, engine)
        opening.watched(s, address, code)
        return s._owned_by(owner)

    @classmethod
    def resume(cls, opts: SessionOptions, save_path: str, reactor: TableReactor | None = None,
               engine: TableEngine | None = None,
               host_at: tuple[str, int] | None = None,
               owner: OwnerOf | None = None) -> TableSession:
        """Rejoin my seat after a crash, from my local save. `host_at`: where the host's
        seat is dialled instead of the saved address (a friend by code: the saved one
        was its old tunnel's end, gone with its program; issue 39)."""
        save = read_save(save_path)
        s = cls(opts, "resume", reactor, engine)
        opening.resumed(s, save_path, save, host_at)
        return s._owned_by(owner)

    def _owned_by(self, owner: OwnerOf | None) -> TableSession:
        """`owner(self)` hears everything the table says from now on: built as the table
        opens, before the reactor runs anything the table started."""
        if owner is not None:
            self.callbacks.serve(owner(self))
        return self

    # ------------------------------------------------------------ the client's API
    @property
    def join_code(self) -> str | None:
        return self.code

    @property
    def state(self) -> State | None:
        state: State | None = self.lockstep.state if self.lockstep else None   # the rules'
        return state

    @property
    def started(self) -> bool:
        return self.start.started

    @property
    def decision(self) -> Decision | None:
        """`pending(state)` now, or None before the start (the table's engine is the rules:
        its pending decision is `sim.state.Decision`)."""
        return cast("Decision", self.lockstep.decision()) if self.lockstep else None

    def waiting_for(self) -> list[int]:
        """Seats whose input the current step still lacks (for a status line)."""
        return self.lockstep.waiting_for() if self.lockstep else []

    @property
    def offline_seats(self) -> list[int]:
        """Seats that dropped and may still rejoin."""
        return self.takeover.offline_seats()

    def overdue_seats(self) -> list[int]:
        """Seats still connected whose input ran out of time (docs/net.md, "No silent
        waiting"): they are in the take-over countdown like a dropped seat, but the window
        must not say they left."""
        return self.takeover.overdue_seats()

    def conn_for_seat(self, seat: int | None) -> PeerConnection | None:
        """The live connection to `seat`'s player, if any."""
        return self.roster.conn_for_seat(seat)

    def submit(self, command: Command) -> None:
        if self.lockstep is None:
            raise ValueError("the game has not started")
        self.lockstep.submit(command)

    def unlock_plan(self) -> None:
        """Take my locked plan back (only while not every player has locked): see
        `net.lockstep.plan_steps`. ValueError with a sentence for the player otherwise."""
        if self.lockstep is None:
            raise ValueError("The game has not started.")
        self.lockstep.unlock()

    def my_plan(self) -> SubmitPlan | None:
        """My locked plan of this round (a `SubmitPlan`), or None: the engine's state holds
        only the cards turned so far, my own too (`net.lockstep.plan_steps`)."""
        plan: SubmitPlan | None = self.lockstep.my_plan() if self.lockstep is not None else None
        return plan

    def send_chat(self, text: str) -> None:
        """Say `text` at the table (`net.table.chat`)."""
        self.chat.send(text)

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None,
                  bot_levels: dict[int, str] | None = None) -> None:
        self.seating.set_lobby(players, side, setup, bots, bot_levels)

    def set_bot_level(self, seat: int, level: str) -> None:
        self.seating.set_bot_level(seat, level)

    def request_seat(self, seat: int) -> None:
        self.seating.request_seat(seat)

    def move_players(self, moves: dict[int, int]) -> None:
        self.seating.move_players(moves)

    def lobby_full(self) -> bool:
        return self.seating.lobby_full()

    def start_game(self) -> None:
        self.seating.start_game()

    def takeover_countdown(self) -> dict[int, float]:
        return self.takeover.countdown()

    def input_countdown(self) -> dict[int, float]:
        """{seat: seconds left} for the input the table waits for from each seat: a
        player's turn timer, or the few seconds of an automatic input (docs/net.md)."""
        return self.deadlines.countdown()

    def turn_time(self) -> float:
        """The table's turn timer in seconds (the host's `--turn-time`)."""
        return self.deadlines.turn_time()

    def hand_seat_to_bot(self, seat: int) -> None:
        self.takeover.hand_seat_to_bot(seat)

    def flush_sends(self) -> None:
        self.liveness.flush_sends()

    def close(self) -> None:
        self.closed = True
        self.liveness.stop()
        self.takeover.cancel_all()
        source = [self.source] if self.source is not None else []   # a watcher's player
        for conn in list(self.conns) + list(self.spectators) + source:
            if conn.transport is not None:
                transport_of(conn).loseConnection()
        self.persistence.close()
        self.dialer.stop_listening()
        self.pair_links.close()
        if self.advert is not None:
            self.advert.close()

    def _cut_off(self, reason: str) -> None:
        """Out of reach of more than half of the table for too long: its seat went to a
        bot (`net.table.policy.cut_off`). Leave the table, saying why."""
        self.close()
        if self.connections.refusal is None:    # (a refusal that said more stays: "seat 1
            self.connections.refusal = reason   # is now played by a bot", to a resume)
        self.callbacks.on_refused(reason)

    def _refuse_start(self, conn: PeerConnection, reason: str) -> None:
        """A start I must not play (`net.trust.own_seat`): leave the table, refused."""
        self.close()
        self.connections.refused(conn, reason)


