"""What the parts of a table session share, each record with its owner.

Why records with owners and not one shared `self` (or one record of everything): the
session is built from parts (lobby, mesh, play, take-overs, liveness, recovery, ...),
each owning its own state. What several of them need is declared here, split by who
writes it: `TableState` (what I do at the table and where it stands: no one part owns
it; the phase changes only through `TableState.enter`), `Roster` (the live connections,
written by the connections part), `StartRecord` (the game's start, written by the start
handshake and recovery), `Identity` (who I am) and `TableSetting` (options, reactor,
game, callbacks: read only). Each part is handed only the records it uses, so its
constructor says what it reaches; `tools/seams/net_figures.py` counts it.

Tests: tests/net/table/test_shared.py, tests/net/table/test_session.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, Mapping, Protocol, TypeVar, cast, overload

from net.trust.peer_text import shown
from net.table.options import REJOIN_TIMEOUT, TURN_TIME
from net.table.phase import Phase
from net.transport.framing import encode_body
from net.transport.messages import Wire
from net.transport.reactor_types import DelayedCall as DelayedCall, HostAddress, ListeningPort as ListeningPort, NetReactor

if TYPE_CHECKING:
    from sim import events as ev
    from sim.state import Decision, GameConfig, State
    from net.lockstep.beacon import HashChain
    from net.lockstep.core import Lockstep
    from net.lockstep.engine import EngineCommand, EngineConfig, EngineState, PendingDecision
    from net.table.chat import ChatLine
    from net.transport.peer import PeerConnection
    from net.trust.seat_keys import SeatKey

Role = Literal["host", "join", "watch", "resume"]   # what this peer does at the table
T = TypeVar("T")


class Transport(Protocol):
    """A connection's transport, the part the table calls (see `transport_of`)."""

    def loseConnection(self) -> None: ...

    def getPeer(self) -> HostAddress: ...


def transport_of(conn: PeerConnection) -> Transport:
    """`conn`'s transport. Why a cast: Twisted declares it with zope interfaces, whose
    methods mypy (without a zope plugin) reads as taking no `self`."""
    return cast(Transport, conn.transport)


TableReactor = NetReactor     # the reactor as the table uses it (`net.transport.reactor_types`)


class TableEngine(Protocol):
    """The game as the table session uses it (`net.lockstep.engine.SimEngine`, or a
    test's fake game); the lockstep uses more of it."""

    def config(self, players: int, side: str, setup: str) -> EngineConfig: ...

    def config_wire(self, config: EngineConfig) -> dict[str, object]: ...

    def config_from_wire(self, wire: Mapping[str, object]) -> EngineConfig: ...

    def choose(self, state: EngineState, seat: int, bot: str, seed: bytes) -> EngineCommand: ...

    def settle(self, decision: PendingDecision) -> EngineCommand: ...


@dataclass
class SessionOptions:
    name: str = "player"
    code: str | None = None
    rejoin_timeout: float = REJOIN_TIMEOUT
    turn_time: float = TURN_TIME        # seconds for a player's decision (the host's is the table's)
    save_path: str | None = None
    interface: str = ""              # where players listen; tests use "127.0.0.1"
    bot: str = "heuristic"           # the bot that plays bot seats
    report_dir: str | None = None    # desync reports (default: next to the save)


def _noop(*args: object) -> None:
    return None


class TableOwner(Protocol):
    """The program that opened a table and hears what it says (the window's
    `client.sessions.network.NetSession`, the headless `cli.runner.HeadlessPeer`): handed
    to `TableSession.host`/`join`/`watch`/`resume` when the table is built (as Twisted
    hands a protocol its factory), so the checker sees every call the table makes to it.
    See docs/net.md for what each one means."""

    def on_lobby_changed(self, lobby: Wire, /) -> None: ...

    def on_started(self, config: GameConfig, my_seat: int | None, state: State, /) -> None: ...

    def on_events(self, events: list[ev.Event], state: State, /) -> None: ...

    def on_decision(self, decision: Decision, state: State, /) -> None: ...

    def on_paused(self, reason: str, /) -> None: ...

    def on_resumed(self) -> None: ...

    def on_notice(self, news: str, /) -> None: ...

    def on_desync(self, report: dict[str, object], /) -> None: ...

    def on_refused(self, reason: str, /) -> None: ...

    def on_error(self, message: str, /) -> None: ...

    def on_ended(self, state: State, /) -> None: ...

    def on_chat_received(self, line: ChatLine, /) -> None: ...

    def on_broadcast(self, msg: Wire, /) -> None: ...

    def on_step_applied(self, entry: Wire, /) -> None: ...


@dataclass
class Callbacks:
    """What the table tells its owner (the window, the headless runner): see docs/net.md.
    The parts call them through this record; `serve` points every one at the table's
    `TableOwner`. A test harness may still replace one (`TableSession.on_events = ...`):
    a replacement made at any time is the one called."""
    on_lobby_changed: Callable[[dict[str, Any]], None] = _noop
    on_started: Callable[[GameConfig, int | None, State], None] = _noop  # config, my seat, state
    on_events: Callable[[list[ev.Event], State], None] = _noop    # a step's events, the state
    on_decision: Callable[[Decision, State], None] = _noop
    on_paused: Callable[[str], None] = _noop
    on_resumed: Callable[[], None] = _noop
    on_notice: Callable[[str], None] = _noop     # news for the players that is no pause
    on_desync: Callable[[dict[str, Any]], None] = _noop
    on_refused: Callable[[str], None] = _noop
    on_error: Callable[[str], None] = _noop
    on_ended: Callable[[State], None] = _noop
    on_chat_received: Callable[[ChatLine], None] = _noop
    # hooks for statistics and test harnesses (the runner's round-trip timing)
    on_broadcast: Callable[[dict[str, Any]], None] = _noop       # before a message goes to all
    on_step_applied: Callable[[dict[str, Any]], None] = _noop    # a step's log entry, applied

    def serve(self, owner: TableOwner) -> None:
        """From now on the table tells `owner` (`TableSession`'s constructors)."""
        self.on_lobby_changed = owner.on_lobby_changed
        self.on_started = owner.on_started
        self.on_events = owner.on_events
        self.on_decision = owner.on_decision
        self.on_paused = owner.on_paused
        self.on_resumed = owner.on_resumed
        self.on_notice = owner.on_notice
        self.on_desync = owner.on_desync
        self.on_refused = owner.on_refused
        self.on_error = owner.on_error
        self.on_ended = owner.on_ended
        self.on_chat_received = owner.on_chat_received
        self.on_broadcast = owner.on_broadcast
        self.on_step_applied = owner.on_step_applied


@dataclass
class TableSetting:
    """What the table runs in, fixed when it is built: the player's options, the reactor,
    the game, and the owner's callbacks. Read by the parts, written by none."""
    opts: SessionOptions
    reactor: TableReactor
    engine: TableEngine
    callbacks: Callbacks = field(default_factory=Callbacks)


@dataclass
class Identity:
    """Who I am at the table. Written while the session is built (`TableSession.host`,
    `join`, `resume`: a resumed peer is the one in its save), and the save's path when the
    game starts (`net.table.before_start.start_mesh`); the parts read it."""
    name: str
    code: str | None
    peer_id: bytes
    versions: dict[str, str]
    seat_key: SeatKey | None
    save_path: str | None
    is_host: bool                     # opened the table (kept through a rejoin)


class Roster:
    """The live connections and whom a message goes to. Owned by `net.table.connections`
    (which adds and removes them as links are made and lost) and `net.table.spectate`
    (whom a spectator follows); the other parts ask it who is there and broadcast."""

    def __init__(self, callbacks: Callbacks) -> None:
        self._callbacks = callbacks
        self.conns: list[PeerConnection] = []          # ready, players
        self.spectators: list[PeerConnection] = []
        self.source: PeerConnection | None = None      # whom a spectator follows
        self.host_conn: PeerConnection | None = None   # a guest's link to the host, in the lobby

    def conn_for_peer(self, peer: bytes | None) -> PeerConnection | None:
        return next((c for c in self.conns if c.remote_peer == peer and not c.closed), None)

    def conn_for_seat(self, seat: int | None) -> PeerConnection | None:
        return next((c for c in self.conns if c.seat == seat and not c.closed), None)

    def broadcast(self, msg: Wire) -> None:
        """To every ready player connection (packed once, sealed for each)."""
        self._callbacks.on_broadcast(msg)
        body = None
        for conn in self.conns:
            if conn.ready:
                body = body or encode_body(msg)
                conn.send(msg, body)


class StartRecord:
    """The game's start as this peer holds it: `GameStarted` (`info`), my beacon chain and
    rejoin token, every seat's commitments and addresses. Written by the start handshake
    (`net.table.before_start.start_mesh`) and by recovery (`net.table.recovery`, and a resume from the
    save), and by `net.table.relays` for a seat's commitment another player passes on; the
    other parts read it through the questions below."""

    def __init__(self, opts: SessionOptions) -> None:
        self._opts = opts
        self.info: dict[str, Any] | None = None                # GameStarted, as kept
        self.chain: HashChain | None = None                    # my beacon chain ...
        self.token: bytes | None = None                        # ... and my rejoin token
        self.chain_ends: dict[int, bytes] = {}                 # seat -> commitment
        self.token_hashes: dict[int, bytes] = {}
        self.chain_msgs: dict[int, Mapping[str, Any]] = {}        # its ChainCommitted
        self.addresses: dict[int, tuple[str, int]] = {}

    @property
    def started(self) -> bool:
        return self.info is not None

    def seat_entry(self, seat: int | None) -> Wire | None:
        if self.info is None or seat is None:
            return None
        return next((s for s in self.info["seats"] if s["seat"] == seat), None)

    def seat_of_peer(self, peer: bytes | None, lobby: Wire) -> int | None:
        """`peer`'s seat: in `GameStarted`, or before it in the `lobby`."""
        seats = self.info["seats"] if self.info else lobby.get("seats", [])
        return next((s["seat"] for s in seats if s.get("peer") == peer and peer), None)

    def name_of_seat(self, seat: int | None) -> str:
        entry = self.seat_entry(seat)
        return shown(entry["name"])[:40] if entry else "?"     # the host's word: shown text

    def rejoin_timeout(self) -> float:
        """The table's take-over countdown: the host's, as `GameStarted` carried it, so
        every peer shows and applies the same one (my own before the start)."""
        value = (self.info or {}).get("rejoin_timeout")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value)
        return self._opts.rejoin_timeout

    def humans(self) -> list[int]:
        assert self.info is not None
        return [s["seat"] for s in self.info["seats"] if s["kind"] == "human"]


# which phase may follow which (`TableState.enter`): the lobby leads to the start
# handshake, that to play; a rejoin (resume, or after a desync) recovers and plays on;
# any game may end. Staying in a phase is no change.
TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.LOBBY: frozenset({Phase.MESH, Phase.RECOVERY}),
    Phase.MESH: frozenset({Phase.PLAY, Phase.RECOVERY, Phase.ENDED}),
    Phase.PLAY: frozenset({Phase.RECOVERY, Phase.ENDED}),
    Phase.RECOVERY: frozenset({Phase.PLAY, Phase.ENDED}),
    Phase.SPECTATE: frozenset({Phase.ENDED}),
    Phase.ENDED: frozenset({Phase.RECOVERY}),
}


class PhaseError(RuntimeError):
    """A phase change the table does not allow (`TRANSITIONS`): a bug, named."""


@dataclass
class TableState:
    """The state several parts read and write that no one part owns (see the module doc):
    what I do at the table and where it stands. Each part owns the rest (`Roster`,
    `StartRecord`, `net.table.play.Play`'s early messages, ...)."""
    role: Role                        # rewritten to "resume" by a rejoin after a desync
    phase: Phase                      # changed only by `enter`
    closed: bool = False
    my_seat: int | None = None
    lobby: dict[str, Any] = field(default_factory=dict)    # as the host sends it
    lockstep: Lockstep | None = None
    expelled: set[int] = field(default_factory=set)        # proved to cheat

    def enter(self, phase: Phase) -> None:
        """Move to `phase`; PhaseError for a change `TRANSITIONS` does not list."""
        if phase is not self.phase and phase not in TRANSITIONS[self.phase]:
            raise PhaseError(f"the table cannot go from {self.phase.value} to {phase.value}")
        self.phase = phase

    def over(self) -> bool:
        return self.lockstep is not None and self.lockstep.ended


class Delegated(Generic[T]):
    """An attribute of a composed object (`net.table.session.TableSession`) that is the
    attribute of the same name of one of its parts (`part`: the name of the attribute
    holding that part), read and written there: the object's public surface stays, the
    state stays with its owner."""

    def __init__(self, part: str, name: str = "") -> None:
        self.part = part
        self.name = name             # the part's name for it, when it is another

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    @overload
    def __get__(self, obj: None, owner: type) -> Delegated[T]: ...

    @overload
    def __get__(self, obj: object, owner: type) -> T: ...

    def __get__(self, obj: object | None, owner: type) -> Delegated[T] | T:
        if obj is None:
            return self
        return cast(T, getattr(getattr(obj, self.part), self.name))

    def __set__(self, obj: object, value: T) -> None:
        setattr(getattr(obj, self.part), self.name, value)
