"""What the connections tell the table: a handshake ended, a frame arrived, a link was lost.

Why a part of its own: `net.transport.peer.PeerConnection` calls exactly these methods of its
session; they route each event to the phase that handles it (lobby, mesh, play,
recovery, spectating) and decide nothing themselves — admission is
`net.table.admission.admit`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from net.transport import messages
from net.table.admission import Credential, TableView, admit

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

BUFFER_LIMIT = 5000     # messages kept for later (before the game began here)


class Connections:
    """Mixed into `net.table.session.TableSession`."""

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
        code): `net.table.admission.admit` decides; a reason refuses."""
        info = self.start_info
        seats = {e["seat"]: e for e in info["seats"]} if info is not None else {}
        view = TableView(
            my_role=self.role, closed=self.closed, phase=self.phase,
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
        self._parted_by_offence(conn)
        if self._may_redial(conn):
            self.reactor.callLater(0.2, self._redial, seat)
        if seat not in self.offline:
            timeout = self.opts.rejoin_timeout
            self._start_timeout(seat, timeout)
            reason = (f"seat {seat} ({self._name_of_seat(seat)}) dropped; waiting up to "
                      f"{timeout:g} s for it to rejoin")
            log.warning(reason)
            self.on_paused(reason)

    def received(self, conn: PeerConnection, msg: dict) -> None:
        kind = msg["type"]
        if conn.role == "spectator" and not conn.dialer and kind != "ChatSent":
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
