"""What the connections tell the table: a handshake ended, a frame arrived, a link was lost.

Why a part of its own: `net.transport.peer.PeerConnection` calls exactly these methods of its
session; they route each event to the phase that handles it (lobby, mesh, play,
recovery, spectating) and decide nothing themselves — admission is
`net.table.policy.admission.admit`. Which part handles which message kind is one table
(`handlers`), handed in by the session as Twisted's AMP hands `BoxDispatcher` its locator.

Tests: tests/net/table/test_session.py, tests/net/transport/test_peer.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Protocol, TYPE_CHECKING

from net.transport.messages import Wire

from twisted.internet.address import IPv4Address, IPv6Address
from twisted.python.failure import Failure

from net.table.policy.admission import Credential, TableView, admit
from net.table.dialer import Dialer
from net.table.drop_claims import DropClaims
from net.table.liveness import Liveness
from net.table.before_start.lobby import Lobby
from net.table.play import Play
from net.table.recovery import Recovery
from net.table.shared import Roster, StartRecord, TableSetting, TableState, transport_of
from net.table.spectate import Spectate
from net.table.before_start.start_mesh import StartHandshake
from net.table.takeover import Takeover
from net.transport import message_records as records
from net.transport import messages
from net.transport.message_records import handles
from net.transport.peer import MAX_OFFENCES

if TYPE_CHECKING:
    from net.table.session import TableSession
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

# A guest the table told to try again (busy, or its handshake slot given to a newcomer),
# or whose connection the table closed before the handshake: it tries again this often,
# saying so each time, at least this many times (issue 34: `join` said nothing for 18 s).
RETRY_AT_LEAST = 0.5
RETRY_UNTOLD = 1.0
RETRY_TIMES = 120

Handler = Callable[["PeerConnection", dict[str, Any]], None]


def rejoin_retry(retry: float | None, refused_for: float, countdown: float) -> float | None:
    """When a rejoin dial the table turned away for now is tried again: in seconds, or
    None (not again).

    | the refusal          | refused for (since the first refusal) | tried again        |
    |----------------------|---------------------------------------|--------------------|
    | final (no `retry`)   | any                                   | no                 |
    | `retry` N            | less than the take-over countdown     | after N s (>= 0.5) |
    | `retry` N            | the countdown ran out                 | no                 |

    Why (issue 47 finding 1): a resuming player refused for now (a wait after wrong
    codes from its address, a busy table) gave up on that player while another of its
    links was open, and never dialled it again: the host and the resumed friend then
    claimed each other's seat for ever. Past the countdown a bot has the seat, and
    trying again is pointless."""
    if retry is None or refused_for >= countdown:
        return None
    return max(RETRY_AT_LEAST, retry)


class Connector(Protocol):
    """A dial's connector (Twisted's `IConnector`, the part the table reads)."""

    def getDestination(self) -> IPv4Address | IPv6Address: ...



# Which part of the table takes which message kind: the table `Connections` dispatches by.
# Each entry is checked by the type checker: `handles` takes a part's method only if the
# method reads the record of that kind (`net.transport.message_records`). Every player
# game message not named here is the lockstep's own traffic.
def routes(s: TableSession) -> dict[str, Handler]:
    """Message kind -> the method of the part of `s` that takes it."""
    handlers: dict[str, Handler] = dict((
        handles(records.LobbyChanged, s.seating.lobby_changed_received),
        handles(records.SeatRequested, s.seating.seat_requested),
        handles(records.GameStarted, s.handshake.game_started_received),
        handles(records.PairTunnelOpened, s.pair_links.pair_tunnel_opened),
        handles(records.ChainCommitted, s.handshake.chain_committed),
        handles(records.TakeoverClaimed, s.takeover.takeover_claimed),
        handles(records.InputsMissed, s.missed.inputs_missed),
        handles(records.Relayed, s.relays.relayed),
        handles(records.CheatingProved, s.expulsion.cheating_proved),
        handles(records.SeatDropped, s.claims.seat_dropped),
        handles(records.Heartbeat, s.liveness.heartbeat),
        handles(records.CaughtUp, s.recovery.caught_up_received),
        handles(records.StepApplied, s.spectate.step_applied),
        handles(records.InputsAwaited, s.deadlines.inputs_awaited),
        handles(records.ChatSent, s.chat.chat_sent),
        handles(records.ChatRecalled, s.chat.chat_recalled),
    ))
    for kind in messages.PLAYER_GAME_MESSAGES - handlers.keys():
        handlers[kind] = s.play.lockstep_message     # the lockstep's own traffic
    return handlers

class Connections:
    """The session's side of every `PeerConnection` (see the module doc)."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 start: StartRecord, dialer: Dialer, lobby: Lobby, handshake: StartHandshake,
                 play: Play, takeover: Takeover, claims: DropClaims, liveness: Liveness,
                 recovery: Recovery, spectate: Spectate, handlers: Mapping[str, Handler],
                 close_table: Callable[[], None],
                 recall_chat: Callable[[PeerConnection], None]) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._start = start
        self._dialer = dialer
        self._lobby = lobby
        self._handshake = handshake
        self._play = play
        self._takeover = takeover
        self._claims = claims
        self._liveness = liveness
        self._recovery = recovery
        self._spectate = spectate
        self.handlers = dict(handlers)       # message kind -> the part's method
        self._close_table = close_table      # the session's `close`
        self._recall_chat = recall_chat      # the recent chat, to a spectator admitted
        self.bytes_sent = 0
        self.offence_log: list[tuple[str, str]] = []
        self.refusal: str | None = None
        self.retries = 0                     # of my first dial to the table
        self._rejoin_refused_at: float | None = None   # my rejoin's first refusal for now

    def count_sent(self, n: int) -> None:
        self.bytes_sent += n

    def offence_logged(self, conn: PeerConnection, reason: str) -> None:
        self.offence_log.append((conn.describe(), reason))
        self._claims.offence_counted(conn)          # the seat's count outlives the link

    def dial_failed(self, connector: Connector, reason: Failure) -> None:
        table = self._shared
        self._dialer.pending_dials -= 1
        dest = connector.getDestination()
        message = f"could not connect to {dest.host}:{dest.port}: {reason.getErrorMessage()}"
        if (dest.host, dest.port) in self._liveness.redialling:
            log.info(message)               # redialled every second: not a warning each
            return
        log.warning(message)
        self._setting.callbacks.on_error(message)
        if table.role in ("join", "watch", "resume") and not self._start.started \
                and not self._roster.conns \
                and self._dialer.pending_dials == 0 and self._roster.source is None:
            self.refusal = message
            self._setting.callbacks.on_refused(message)
        elif table.role == "watch" and self._roster.source is None:
            self._spectate.watch_elsewhere()

    def _try_again(self, conn: PeerConnection, reason: str, delay: float) -> bool:
        """A first dial to the table (a guest's to the host, a spectator's) that the table
        turned away for now: say so, and dial again after `delay`."""
        table = self._shared
        role = conn.hello_fields.get("role")
        first_dial = (table.role == "join" and role == "player" and not self._start.started) or \
            (table.role == "watch" and role == "spectator" and self._roster.source is None)
        if not first_dial or table.closed or self.retries >= RETRY_TIMES:
            return False
        try:
            where = conn.tcp.getPeer()
            address = (str(where.host), int(where.port))
        except Exception:
            return False
        self.retries += 1
        delay = max(RETRY_AT_LEAST, delay)
        self._dialer.dial_later(address[0], address[1], dict(conn.hello_fields), delay)
        message = f"{reason}; trying again in {round(delay, 1):g} s"
        log.warning(message)
        self._setting.callbacks.on_error(message)
        return True

    def _rejoin_again(self, conn: PeerConnection, reason: str) -> bool:
        """My rejoin dial that a player turned away for now: dial it again after its
        `retry`, until the take-over countdown ends (`rejoin_retry`)."""
        if conn.hello_fields.get("role") != "rejoin" or self._shared.closed:
            return False
        now = self._setting.reactor.seconds()
        if self._rejoin_refused_at is None:
            self._rejoin_refused_at = now
        delay = rejoin_retry(conn.refused_retry, now - self._rejoin_refused_at,
                             self._start.rejoin_timeout())
        if delay is None:
            return False
        try:
            where = conn.tcp.getPeer()
            host, port = str(where.host), int(where.port)
        except Exception:
            return False
        self._dialer.dial_later(host, port, dict(conn.hello_fields), delay)
        message = f"{reason}; trying again in {round(delay, 1):g} s"
        log.warning(message)
        self._setting.callbacks.on_error(message)
        return True

    def refused(self, conn: PeerConnection, reason: str) -> None:
        table = self._shared
        if conn.refused_retry is not None and self._try_again(conn, reason, conn.refused_retry):
            return
        if self._rejoin_again(conn, reason):
            return
        if table.role == "resume" and (self._dialer.pending_dials > 0
                                      or any(not c.closed for c in self._roster.conns)):
            # one player said no (it left, say); another may still take me back
            log.warning("rejoin refused by %s: %s", conn.describe(), reason)
            return
        if self._start.started and reason == self.refusal:
            return          # my redial every second, refused again for the same reason
        self.refusal = reason
        self._setting.callbacks.on_refused(reason)

    def admit(self, conn: PeerConnection, hello: Wire) -> str | None:
        """Decide on a Hello that passed the version check (the channel proved the join
        code): `net.table.policy.admission.admit` decides; a reason refuses."""
        table = self._shared
        info = self._start.info
        seats = {e["seat"]: e for e in info["seats"]} if info is not None else {}
        view = TableView(
            my_role=table.role, closed=table.closed, phase=table.phase,
            open_seat=any(s["kind"] == "open" for s in table.lobby.get("seats", [])),
            table=info["table"] if info is not None else None, seats=seats,
            token_hashes=dict(self._start.token_hashes),
            bot_seats=frozenset(table.lockstep.bots if table.lockstep is not None else ()),
            expelled=frozenset(table.expelled), barred=self._claims.barred(),
            connected=frozenset(c.seat for c in self._roster.conns
                                if not c.closed and c.seat is not None),
            spectators=len(self._roster.spectators),
            # per address, or per tunnel (issue 47: every tunnelled one is 127.0.0.1)
            spectators_there=sum(s.door() == conn.door() for s in self._roster.spectators))
        cred = Credential(role=hello["role"], peer=hello["peer"], seat=hello["seat"],
                          table=hello["table"], seat_key=hello["seat_key"],
                          seat_proof=hello["seat_proof"], token=hello["token"],
                          binding=conn.binding or b"")
        verdict = admit(view, cred)
        if verdict.pending_mesh:
            conn.pending_mesh = True
        if verdict.replaces is not None:
            old = self._roster.conn_for_seat(verdict.replaces)
            if old is not None:
                old.closed = True
                transport_of(old).loseConnection()
        return verdict.reason

    def connection_ready(self, conn: PeerConnection) -> None:
        table = self._shared
        if conn.dialer:
            self._dialed_ready(conn)
            return
        if conn.role == "spectator":
            conn.seat = None
            self._roster.spectators.append(conn)
            self._spectate.police_silence()
            if table.lockstep is not None:
                conn.send(self._recovery.caught_up(spectator=True))
            elif table.lobby:
                self._lobby_to_watchers(conn)        # the lobby, and the host lists them
            self._recall_chat(conn)                  # what was said before it came
            return
        self._roster.conns.append(conn)
        hello = conn.hello
        assert hello is not None             # a listener's connection is ready after it
        if conn.pending_mesh and not self._start.started:
            conn.seat = hello["seat"]
            return
        if not self._start.started:                     # the host seats a newcomer
            seat = next(s for s in table.lobby["seats"] if s["kind"] == "open")
            seat.update(kind="human", name=conn.remote_name, peer=conn.remote_peer,
                        key=hello["seat_key"])
            conn.seat = seat["seat"]
            self._lobby.lobby_changed()
            return
        conn.seat = seat = hello["seat"]
        self._claims.seat_connected(conn, MAX_OFFENCES)
        if conn.role == "rejoin":
            self._recovery.rejoined(conn)
        elif self._start.chain is not None:
            self._handshake.send_chain(conn)
            if table.lockstep is not None:
                self._liveness.reconnected(conn)
                self._takeover.back_online(seat)

    def _lobby_to_watchers(self, conn: PeerConnection) -> None:
        """A spectator came before the start: the host lists it and sends everyone the
        lobby; a guest passes on the lobby it has."""
        table = self._shared
        if table.role == "host":
            self._lobby.lobby_changed()
        elif table.lobby.get("seats"):
            conn.send({"type": "LobbyChanged", "lobby": table.lobby})

    def _dialed_ready(self, conn: PeerConnection) -> None:
        table = self._shared
        assert conn.hello is not None        # a dialer's connection is ready after Accepted
        role = conn.hello["role"]
        if role == "spectator":
            self._roster.source = conn
            return
        self._roster.conns.append(conn)
        if role == "player" and not self._start.started:
            self._roster.host_conn = conn
            conn.seat = None
            return
        conn.seat = self._start.seat_of_peer(conn.remote_peer, table.lobby)
        conn.remote_name = self._start.name_of_seat(conn.seat)
        self._claims.seat_connected(conn, MAX_OFFENCES)
        if role in ("player", "rejoin") and self._start.chain is not None:
            # a rejoin repeats it: the player may have dropped before it got there
            self._handshake.send_chain(conn)
        if role == "player" and table.lockstep is not None:
            self._liveness.reconnected(conn)
        if conn.seat is not None and self._takeover.is_offline(conn.seat):
            self._takeover.back_online(conn.seat)

    def connection_lost(self, conn: PeerConnection) -> None:
        """A link closed: handled by what the link was (a spectator's, the one I watch,
        a player's) and, for a player's, by where the table stands (before the start, or
        in the game)."""
        if conn.dialer and not conn.ready and conn.refused_reason is None \
                and conn.offended_reason is None:
            # closed before the handshake without a word: a table at its limits
            self._try_again(conn, "the table closed the connection before the handshake",
                            RETRY_UNTOLD)
        if conn in self._roster.spectators:
            self._spectator_lost(conn)
        elif conn not in self._roster.conns:
            self._source_lost(conn)
        else:
            self._roster.conns.remove(conn)
            if self._shared.closed:
                return
            if self._start.started:
                self._player_lost_in_game(conn)
            else:
                self._player_lost_before_start(conn)

    def _spectator_lost(self, conn: PeerConnection) -> None:
        table = self._shared
        self._roster.spectators.remove(conn)
        if not self._start.started and table.role == "host" and not table.closed:
            self._lobby.lobby_changed()          # no longer listed as watching

    def _source_lost(self, conn: PeerConnection) -> None:
        """A link that was neither a player's nor a spectator's: the one I watch, if any."""
        table = self._shared
        if conn is self._roster.source and not table.closed and not table.over():
            self._setting.callbacks.on_paused("lost the connection to the peer we were watching")
            self._spectate.watch_elsewhere()

    def _player_lost_before_start(self, conn: PeerConnection) -> None:
        table = self._shared
        if table.role == "host":
            for seat in table.lobby["seats"]:
                if seat["peer"] == conn.remote_peer and seat["kind"] == "human":
                    seat.update(kind="open", name="", peer=None, key=None)
            self._lobby.lobby_changed()
        elif conn is self._roster.host_conn:
            # the table is gone for me. Close the mesh connections of players that did
            # get the host's GameStarted too, or my seat would look alive to them.
            self._close_table()
            self.refusal = "the host left before the game started"
            self._setting.callbacks.on_refused(self.refusal)

    def _player_lost_in_game(self, conn: PeerConnection) -> None:
        table = self._shared
        if table.lockstep is not None and not table.over() and table.my_seat is not None \
                and not any(c.seat is not None for c in self._roster.conns) \
                and (self._play.desyncs or (conn.offended_reason or "").startswith("desync")):
            # everyone dropped me because my state disagreed with theirs: come back and
            # catch up from their history, like a restarted peer
            self._setting.reactor.callLater(1.0, self._recovery.rejoin_all)
        seat = conn.seat
        if seat is None or self._roster.conn_for_seat(seat) is not None:
            return
        if table.lockstep is not None and seat in table.lockstep.bots:
            return
        if table.my_seat is not None and seat in self._start.chain_ends:
            # its chain commitment too: a player that began without it cannot check the
            # links relayed below (it dropped in the start handshake)
            signed = self._start.chain_msgs.get(seat)
            if signed is not None:
                self._roster.broadcast({"type": "Relayed", "seat": seat, "message": signed})
        if table.lockstep is not None and table.my_seat is not None:
            # pass on what the dropped seat sent me lately, in case it reached me and not
            # the others (see Lockstep.receive_relayed) — even if my game is over
            for m in table.lockstep.heard_from(seat, table.lockstep.step - 4):
                self._roster.broadcast({"type": "Relayed", "seat": seat, "message": m})
        if table.over():
            return
        self._seat_parted(conn, seat)

    def _seat_parted(self, conn: PeerConnection, seat: int) -> None:
        """A seat's player left mid-game: redial it if I may, and start its countdown."""
        self._claims.parted_by_offence(conn)
        if self._liveness.may_redial(conn):
            self._setting.reactor.callLater(0.2, self._liveness.redial, seat)
        if not self._takeover.is_offline(seat):
            timeout = self._start.rejoin_timeout()
            self._takeover.start_timeout(seat, timeout)
            reason = (f"seat {seat} ({self._start.name_of_seat(seat)}) dropped; waiting up to "
                      f"{timeout:g} s for it to rejoin")
            log.warning(reason)
            self._takeover.said_gone.add(seat)
            self._setting.callbacks.on_paused(reason)

    def received(self, conn: PeerConnection, msg: Wire) -> None:
        kind = msg["type"]
        if conn.role == "spectator" and not conn.dialer and kind not in ("ChatSent", "Heartbeat"):
            conn.offence(f"a spectator sent {kind}; spectators can send nothing")
            return
        if conn.pending_mesh and not self._start.started:
            if not self._play.early.keep(conn, msg):
                conn.drop("too many messages before the game started")
            return
        handler = self.handlers.get(kind)
        if handler is None:
            conn.offence(f"unexpected {kind}")
            return
        handler(conn, msg)

    def drain(self) -> None:
        """Handle the messages kept for later (they came before the game began here)."""
        for conn, msg in self._play.early.take():
            if not conn.closed:
                self.received(conn, msg)
