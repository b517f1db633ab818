"""One connection's join handshake: the key exchange, its deadline, its turn in line.

Why a module of its own: the handshake is over once the remote proved the join code;
what it holds until then (the SPAKE2 half, a key offer waiting in the guess limit's
line, the unproven connection's slot, the deadline) means nothing to the connection
afterwards. The connection (`net.transport.peer`) frames, seals and counts offences;
it hands this part every message that comes before it is ready.

The handshake (protocol 6, issue 34): the dialer speaks first. It sends its SPAKE2 half
(`KeyOffered`) the moment it connects; the listener answers (`Welcomed`: its versions and
its half) only if `net.trust.guess_limit` lets it, then the dialer's sealed `Hello`
proves the code. Why the dialer first: before, the listener computed its half for every
TCP connection before the stranger sent a byte (3.6 ms of the host's CPU each: about 280
bare connections a second filled its reactor). Now a connection costs the listener
nothing costly until a well-formed key offer, and the answers to those are rationed.

Tests: tests/net/transport/test_peer.py, tests/net/trust/test_bounded_handshake.py.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from net.trust.peer_text import shown
from net.transport import messages
from net.transport.framing import MAX_FRAME, FrameError, decode_body
from net.transport.handshake_limits import (EVICTED_RETRY, FIRST_MESSAGE_DEADLINE,
                                            HANDSHAKE_DEADLINE, KEYED_DEADLINE, STALL_GRACE)
from net.transport.message_records import (Hello, KeyOffered, Message, Welcomed, as_wire,
                                           checked)
from net.transport.versions import version_differences
from net.transport.reactor_types import Clock
from net.trust.guess_limit import BUSY, DROPPED_RETRY, GuessLimiter, OfferVerdict
from net.trust.pake import JoinKeyExchange, PakeError
from net.trust.seat_keys import prove_seat
from net.trust.secure_channel import ChannelError, SecureChannel

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.transport.peer")


class HandshakeDeadline:
    """The handshake's timer: when it is due, how long it was, and whether it was stretched
    once already for a peer that was busy (see `JoinHandshake._handshake_overdue`)."""

    def __init__(self) -> None:
        self.call: Any = None              # the DelayedCall, while one is pending
        self.due = 0.0
        self.extended = False
        self.length = HANDSHAKE_DEADLINE

    def set(self, reactor: Clock, seconds: float, overdue: Callable[[], None]) -> None:
        """Due `seconds` from now (replacing a pending one): then `overdue` is called."""
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.length = seconds
        self.due = reactor.seconds() + seconds
        self.extended = False
        self.call = reactor.callLater(seconds, overdue)

    def cancel(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None


class JoinHandshake:
    """The handshake of `conn`, from its first byte until the remote is admitted."""

    def __init__(self, conn: PeerConnection) -> None:
        self.conn = conn
        self.release_slot: Callable[[], None] | None = None   # see UnprovenConnections
        self.slot_keyed: Callable[[], None] | None = None     # ... its offer was answered
        self.deadline = HandshakeDeadline()
        self._exchange_judged = True   # a listener's answered exchange not yet judged
        self.pake: JoinKeyExchange | None = None
        self._in_line: Any = None      # a listener's key offer waiting for a token
        self._settled = False          # a dial's handshake has ended (see dial_settled)

    @property
    def _limiter(self) -> GuessLimiter | None:
        limiter: GuessLimiter | None = self.conn.session.guess_limit
        return limiter

    def began(self) -> None:
        """The TCP connection is up: a listener does nothing costly before a stranger's
        first message (a timer only); a dialer offers its key at once."""
        conn = self.conn
        self._set_deadline(HANDSHAKE_DEADLINE if conn.dialer else FIRST_MESSAGE_DEADLINE)
        if conn.dialer:
            self.pake = JoinKeyExchange(conn.session.code or "", dialer=True)
            conn.send({"type": "KeyOffered", "pake": self.pake.outbound()})

    def _set_deadline(self, seconds: float) -> None:
        reactor = self.conn.session.reactor
        if reactor is None:
            return
        self.deadline.set(reactor, seconds, self._handshake_overdue)

    def evicted(self) -> None:
        """A newcomer took this silent stranger's handshake slot (`choose_slot`)."""
        if self.conn.closed:
            return
        self.release_slot = None             # the slot is the newcomer's already
        self._refuse_plain("join refused for now: the table is busy with other connections",
                           retry=EVICTED_RETRY)

    def dial_settled(self) -> None:
        """A dial counts as pending until its handshake ends, either way: the session
        gives up on a table only when no dial may still succeed."""
        if self.conn.dialer and not self._settled:
            self._settled = True
            self.conn.session.pending_dials -= 1

    def _ended(self) -> None:
        """The remote proved the join code and was admitted: the normal limits apply."""
        conn = self.conn
        conn.ready = True
        conn.decoder.max_frame = MAX_FRAME
        self.leave()
        limiter = self._limiter
        if not conn.dialer and limiter is not None:
            limiter.proved(conn.door().key)    # the table's guess budget spares it

    def leave(self) -> None:
        """The handshake is over (or the connection is): give back what it held."""
        if self._in_line is not None:
            limiter = self._limiter
            if limiter is not None:
                limiter.withdraw(self._in_line)
            self._in_line = None
        if not self._exchange_judged:
            # answered, never finished with a Hello: the host's work for nothing, counted
            # as a wrong code so an address cannot spend exchanges for free (but for a
            # tunnel that proved the code: `guess_limit.abandoned_is_wrong`)
            self._exchange_judged = True
            limiter = self._limiter
            if limiter is not None:
                door = self.conn.door()
                limiter.abandoned(door.key, door.tunnel)
        self.deadline.cancel()
        if self.release_slot is not None:
            self.release_slot()
            self.release_slot = None

    def _handshake_overdue(self) -> None:
        conn = self.conn
        deadline = self.deadline
        deadline.call = None
        if conn.closed or conn.ready:
            return
        if conn._now() - deadline.due > STALL_GRACE and not deadline.extended:
            # this peer was busy (a long drop, a slow bot) and fires its timers before it
            # reads: the remote's answer may be waiting unread, so read it first
            deadline.extended = True
            deadline.call = conn.session.reactor.callLater(STALL_GRACE,
                                                           self._handshake_overdue)
            return
        log.info("closing %s: no handshake within %g s", conn.describe(), deadline.length)
        if self._in_line is not None:
            self._refuse_plain(BUSY, retry=DROPPED_RETRY)
            return
        if not conn.dialer and self.pake is None:
            # (an older peer waits for the listener to speak first: say why)
            self._refuse_plain("join refused: no key offer within "
                               f"{deadline.length:g} s of connecting")
            return
        conn.closed = True
        self.dial_settled()
        self.leave()
        conn.tcp.loseConnection()

    def received(self, msg: Message) -> None:
        """A checked message before the connection is ready (an `Offended` aside)."""
        conn = self.conn
        kind = msg["type"]
        if conn.dialer:
            if msg["type"] == "Welcomed" and conn.channel is None and self.pake is not None:
                self._welcomed(msg, self.pake)
            elif kind == "Accepted" and conn.hello is not None:
                self._ended()
                self.dial_settled()
                conn.session.reports.ready(conn)
            elif msg["type"] == "Refused":
                log.warning("join refused by %s: %s", conn.describe(), msg["reason"])
                conn.refused_retry = msg["retry"]
                conn.closed = True
                self.dial_settled()
                self._refused_by_remote(shown(msg["reason"]))    # the table's words: text
                conn.tcp.loseConnection()
            else:
                conn.offence(f"{kind} before the handshake completed")
        else:
            if msg["type"] == "KeyOffered" and self.pake is None and self._in_line is None:
                self._key_offered(msg)
            elif kind == "Probed" and self.pake is None:
                # a reachability probe: say this is a table, and close
                conn.send({"type": "Greeted", "versions": conn.session.versions})
                conn.closed = True
                self.leave()
                conn.tcp.loseConnection()
            elif msg["type"] == "Hello" and conn.hello is None and conn.channel is not None:
                self._hello(msg)
            else:
                conn.offence(f"{kind} before the handshake completed")

    def unopened(self, body: bytes, exc: ChannelError) -> None:
        """A frame that does not open before the handshake ended: on the listener's side
        the dialer's first sealed frame, so the codes differ (or it is forged); on the
        dialer's side a plain refusal of a wrong code, or a table that is not genuine."""
        conn = self.conn
        if not conn.dialer:
            self._exchange_judged = True
            limiter = self._limiter
            if limiter is not None:
                limiter.wrong_code(conn.door().key)     # it logs a summary, not each
            self._refuse_plain("join refused: the join code is wrong")
            return
        try:
            msg: Message | None = checked(decode_body(body))
        except (FrameError, messages.BadMessage):
            msg = None
        if msg is not None and msg["type"] == "Refused":
            reason = shown(msg["reason"])
            conn.refused_retry = msg["retry"]
        else:
            reason = f"cannot join: the table's reply could not be authenticated ({exc})"
        conn.closed = True
        self.dial_settled()
        self._refused_by_remote(reason)
        conn.tcp.loseConnection()

    def _key_offered(self, msg: KeyOffered) -> None:
        """A stranger's first message: answered only when the guess limit lets it (the
        answer is this side's SPAKE2 half, the costly part), at once or in its turn."""
        limiter = self._limiter
        if limiter is None:
            self._answer_offer(msg)
            return

        def answer() -> None:
            self._in_line = None
            if not self.conn.closed:
                self._answer_offer(msg)

        def refuse(verdict: OfferVerdict) -> None:
            # turned away before any key exchange: no work, no log line (the limiter
            # sums these up)
            self._in_line = None
            if not self.conn.closed:
                self._refuse_plain(verdict.reason or "join refused", retry=verdict.retry_after)
        # counted per address, or per tunnel: every tunnelled friend is 127.0.0.1
        self._in_line = limiter.offer(self.conn.door().key, answer, refuse)
        if self._in_line is not None:
            # waiting for its group's turn (about groups in line / rate seconds)
            self._set_deadline(HANDSHAKE_DEADLINE)

    def _answer_offer(self, msg: KeyOffered) -> None:
        conn = self.conn
        self.pake = JoinKeyExchange(conn.session.code or "", dialer=False)
        try:
            keys = self.pake.finish(msg["pake"])
        except PakeError as exc:
            self._refuse_plain(f"join refused: {exc}")
            return
        conn.send({"type": "Welcomed", "versions": conn.session.versions,
                   "peer": conn.session.peer_id, "pake": self.pake.outbound()})
        conn.channel = SecureChannel(keys.send, keys.receive)
        conn.binding = keys.binding
        self._exchange_judged = False
        if self.slot_keyed is not None:
            self.slot_keyed()
        self._set_deadline(KEYED_DEADLINE)

    def _welcomed(self, msg: Welcomed, pake: JoinKeyExchange) -> None:
        conn = self.conn
        conn.remote_peer = msg["peer"]
        differs = version_differences(conn.session.versions, msg["versions"],
                                      me="table", them="yours")
        if differs:
            conn.closed = True
            self.dial_settled()
            self._refused_by_remote(f"cannot join: {differs}")
            conn.tcp.loseConnection()
            return
        try:
            keys = pake.finish(msg["pake"])
        except PakeError as exc:
            conn.closed = True
            self.dial_settled()
            self._refused_by_remote(f"cannot join: {exc}")
            conn.tcp.loseConnection()
            return
        conn.channel = SecureChannel(keys.send, keys.receive)
        conn.binding = keys.binding
        key = conn.session.seat_key
        hello: dict[str, Any] = {"type": "Hello", "versions": conn.session.versions,
                 "peer": conn.session.peer_id, "role": "player", "name": conn.session.name,
                 "listen_port": conn.session.listen_port, "seat": None, "token": None,
                 "table": None, "seat_key": key.public if key is not None else None,
                 "seat_proof": None}
        hello.update(conn.hello_fields)
        if key is not None and hello["table"] is not None and hello["seat"] is not None:
            # a seat after the start: prove it holds the seat's key, on this connection
            hello["seat_proof"] = prove_seat(key, hello["table"], hello["seat"], conn.binding)
        conn.hello = hello
        conn.send(hello)

    def _hello(self, msg: Hello) -> None:
        conn = self.conn
        self._exchange_judged = True         # the Hello opened: the code was right
        conn.hello = as_wire(msg)
        conn.remote_peer = msg["peer"]
        conn.remote_name = shown(msg["name"])[:40]    # a name from a peer is shown text
        conn.role = msg["role"]
        differs = version_differences(conn.session.versions, msg["versions"])
        if differs:
            self._refuse(f"join refused: {differs}")
            return
        reason = conn.session.reports.admit(conn, as_wire(msg))
        if reason:
            self._refuse(reason)
            return
        conn.send({"type": "Accepted", "peer": conn.session.peer_id})
        self._ended()
        conn.session.reports.ready(conn)

    def _refused_by_remote(self, reason: str) -> None:
        self.conn.refused_reason = reason
        self.conn.session.reports.refused(self.conn, reason)

    def _refuse(self, reason: str) -> None:
        conn = self.conn
        log.warning("refused %s: %s", conn.describe(), reason)
        conn.send({"type": "Refused", "reason": reason[:2000], "retry": None})
        conn.closed = True
        conn.tcp.loseConnection()

    def _refuse_plain(self, reason: str, retry: float | None = None) -> None:
        """A refusal before the code was proved: plain (a dialer with a wrong code holds
        no key to open it), and not logged each time (a flood must not flood the log)."""
        conn = self.conn
        conn.channel = None
        conn.send({"type": "Refused", "reason": reason[:2000],
                   "retry": None if retry is None else min(3600.0, max(0.0, retry))})
        conn.closed = True
        self.leave()
        conn.tcp.loseConnection()
