"""One TCP connection to another peer: framing, the handshake, offences, drops.

Why here and not in the session: everything a single connection can judge on its own
(frame sizes, msgpack, message shapes, handshake order, the join-code proof, version
equality, the offence count) is decided before the session sees a message. The session
only receives checked messages from a connection that completed the handshake.

The handshake (protocol 6, issue 34): the dialer speaks first. It sends its SPAKE2 half
(`KeyOffered`) the moment it connects; the listener answers (`Welcomed`: its versions and
its half) only if `net.trust.guess_limit` lets it, then the dialer's sealed `Hello`
proves the code. Why the dialer first: before, the listener computed its half for every
TCP connection before the stranger sent a byte (3.6 ms of the host's CPU each: about 280
bare connections a second filled its reactor). Now a connection costs the listener
nothing costly until a well-formed key offer, and the answers to those are rationed.

Tests: tests/net/transport/test_peer.py, tests/net/transport/test_fuzz.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Protocol as Interface, cast

from twisted.internet.protocol import ClientFactory, Protocol

from net.transport import messages
from net.transport.framing import (MAX_FRAME, FrameDecoder, FrameError, decode_body,
                                   encode_body, frame)
from net.transport.handshake_limits import (EVICTED_RETRY, FIRST_MESSAGE_DEADLINE,
                                            HANDSHAKE_DEADLINE, HANDSHAKE_MAX_FRAME,
                                            KEYED_DEADLINE, STALL_GRACE, OpenFilesBudget,
                                            UnprovenConnections)
from net.trust.guess_limit import BUSY, DROPPED_RETRY, OfferVerdict
from net.trust.pake import JoinKeyExchange, PakeError
from net.trust.seat_keys import prove_seat
from net.transport.versions import version_differences
from net.trust.secure_channel import ChannelError, SecureChannel

log = logging.getLogger("net.transport.peer")

MAX_OFFENCES = 3


class TcpTransport(Interface):
    """What a connection uses of its Twisted transport (`ITCPTransport`): declared here
    because mypy cannot read zope interfaces."""

    def write(self, data: bytes) -> None: ...

    def loseConnection(self) -> None: ...

    def getPeer(self) -> Any: ...

    def setTcpNoDelay(self, enabled: bool) -> None: ...


class HandshakeDeadline:
    """The handshake's timer: when it is due, how long it was, and whether it was stretched
    once already for a peer that was busy (see `PeerConnection._handshake_overdue`)."""

    def __init__(self) -> None:
        self.call: Any = None              # the DelayedCall, while one is pending
        self.due = 0.0
        self.extended = False
        self.length = HANDSHAKE_DEADLINE

    def set(self, reactor: Any, seconds: float, overdue: Callable[[], None]) -> None:
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


class PeerConnection(Protocol):
    """A connection in one of two roles: `dialer` (we connected) or `listener`."""

    def __init__(self, session: Any, dialer: bool, hello: dict[str, Any] | None = None) -> None:
        self.session = session
        self.dialer = dialer
        self.hello_fields = hello or {}       # what a dialer says about itself
        self.decoder = FrameDecoder(HANDSHAKE_MAX_FRAME)   # MAX_FRAME once proved
        self.release_slot: Callable[[], None] | None = None   # see UnprovenConnections
        self.slot_keyed: Callable[[], None] | None = None     # ... its offer was answered
        self.release_file: Callable[[], None] | None = None   # see OpenFilesBudget
        self._deadline = HandshakeDeadline()
        self._exchange_judged = True   # a listener's answered exchange not yet judged
        self.pake: JoinKeyExchange | None = None
        self._in_line: Any = None      # a listener's key offer waiting for a token
        self.channel: SecureChannel | None = None   # once the key exchange is done
        self.binding: bytes | None = None           # this connection's channel binding
        self.ready = False
        self._settled = False          # a dial's handshake has ended (see _dial_settled)
        self.closed = False
        self.offences = 0
        self.remote_peer: bytes | None = None
        self.remote_name = "?"
        self.role = "player"                 # the remote's role
        self.seat: int | None = None         # the remote's seat, once known
        self.hello: dict[str, Any] | None = None
        self.bytes_sent = 0
        self.offended_reason: str | None = None   # why the remote dropped us, if it said
        self.refused_reason: str | None = None    # why the remote would not take us
        self.refused_retry: float | None = None   # a refusal's "try again in" (a busy table)
        self.pending_mesh = False    # a mesh dial that arrived before our GameStarted
        self.dropped_on_purpose = False   # I dropped it (offences, desync, cheating)
        self.redialed = False        # made after the game began here (net.table.liveness)
        now = self._now()
        self.last_received = self._awake_now()   # for heartbeats (net.table.liveness)
        self.last_sent = now

    def _now(self) -> float:
        reactor = getattr(self.session, "reactor", None)
        return reactor.seconds() if reactor is not None else 0.0

    def _awake_now(self) -> float:
        """The session's clock of the time it was awake (`Liveness.awake_seconds`)."""
        awake = getattr(self.session, "awake_seconds", None)
        return awake() if awake is not None and self.session.reactor is not None \
            else self._now()

    def silent_for(self) -> float:
        """Seconds since the last whole frame from the remote, on the awake clock."""
        return self._awake_now() - self.last_received

    # -------------------------------------------------------------- plumbing
    @property
    def tcp(self) -> TcpTransport:
        """The transport Twisted set when the connection was made."""
        return cast(TcpTransport, self.transport)

    def describe(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else self.role
        try:
            addr = self.tcp.getPeer()
            where = f"{addr.host}:{addr.port}"
        except Exception:
            where = "?"
        return f"{self.remote_name} ({who}, {where})"

    def remote_host(self) -> str:
        try:
            return str(self.tcp.getPeer().host)
        except Exception:
            return "?"

    def send(self, msg: Mapping[str, Any], body: bytes | None = None) -> None:
        """Sealed once the key exchange is done; only the exchange itself (and a refusal
        of a wrong code, which cannot be sealed with a key the dialer lacks) is plain.
        `body`: `msg` already packed (a broadcast packs once for every player)."""
        if self.closed or self.transport is None:
            return
        self.send_body(body if body is not None else encode_body(msg))

    def send_body(self, body: bytes) -> None:
        """A message body as it is, sealed if the channel is up (tests that play a
        hostile player send malformed bodies through here)."""
        data = frame(self.channel.seal(body) if self.channel is not None else body)
        self.last_sent = self._now()
        self.bytes_sent += len(data)
        self.session.count_sent(len(data))
        self.tcp.write(data)

    def drop(self, reason: str, offender: bool = True) -> None:
        """Close with a notice. An offender is reported to the other players too."""
        if self.closed:
            return
        log.warning("dropping %s: %s", self.describe(), reason)
        self.dropped_on_purpose = True
        self.send({"type": "Offended", "reason": reason[:500]})
        self.closed = True
        self.tcp.loseConnection()
        if offender:
            self.session.offender_dropped(self, reason)

    def offence(self, reason: str) -> None:
        """Log a rejected input; drop the sender after MAX_OFFENCES."""
        self.offences += 1
        log.warning("rejected input from %s: %s (offence %d of %d)",
                    self.describe(), reason, self.offences, MAX_OFFENCES)
        self.session.offence_logged(self, reason)
        if self.offences >= MAX_OFFENCES:
            self.drop(f"too many offences, last: {reason}")

    # -------------------------------------------------------------- twisted
    def connectionMade(self) -> None:
        try:
            self.tcp.setTcpNoDelay(True)     # small frames, latency matters
        except Exception:
            pass
        # a listener does nothing costly before a stranger's first message: a timer
        self._set_deadline(HANDSHAKE_DEADLINE if self.dialer else FIRST_MESSAGE_DEADLINE)
        if self.dialer:
            self.pake = JoinKeyExchange(self.session.code or "", dialer=True)
            self.send({"type": "KeyOffered", "pake": self.pake.outbound()})

    def _set_deadline(self, seconds: float) -> None:
        reactor = getattr(self.session, "reactor", None)
        if reactor is None:
            return
        self._deadline.set(reactor, seconds, self._handshake_overdue)

    def evicted(self) -> None:
        """A newcomer took this silent stranger's handshake slot (`choose_slot`)."""
        if self.closed:
            return
        self.release_slot = None             # the slot is the newcomer's already
        self._refuse_plain("join refused for now: the table is busy with other connections",
                           retry=EVICTED_RETRY)

    def dataReceived(self, data: bytes) -> None:
        self.decoder.push(data)
        # one frame at a time: the handshake's last frame lifts the frame limit for the
        # frames that follow it in the same read
        while (body := self.decoder.next_body()) is not None:
            if self.closed:
                return
            if isinstance(body, FrameError):
                if self.decoder.broken:
                    self.offences = MAX_OFFENCES
                    self.session.offence_logged(self, str(body))
                    self.drop(str(body))
                    return
                self.offence(str(body))
                continue
            if self.channel is not None:
                try:
                    body = self.channel.open(body)
                except ChannelError as exc:
                    if not self.ready:
                        self._unopened_in_handshake(body, exc)
                        return
                    self.offence(str(exc))
                    continue
            # a sign of life is a whole frame that opens, not bytes: a stream knocked out
            # of step (a frame length read from stray bytes) trickles bytes forever and
            # never a frame; counted as alive, it would stall the table without a pause
            self.last_received = self._awake_now()
            try:
                item = decode_body(body)
            except FrameError as exc:
                self.offence(str(exc))
                continue
            try:
                msg = messages.check(item)
            except messages.BadMessage as exc:
                self.offence(str(exc))
                continue
            try:
                self._handle(msg)
            except OSError as exc:
                # this machine failed (no file descriptor left, a full disk): never the
                # sender's offence (issue 26 item 2)
                log.error("this machine could not handle %s from %s: %s", msg.get("type"),
                          self.describe(), exc)
            except Exception as exc:     # a bug must not take the peer down
                log.exception("error handling %s from %s", msg.get("type"), self.describe())
                self.offence(f"could not handle {msg.get('type')}: {exc}"[:300])

    def _dial_settled(self) -> None:
        """A dial counts as pending until its handshake ends, either way: the session
        gives up on a table only when no dial may still succeed."""
        if self.dialer and not self._settled:
            self._settled = True
            self.session.pending_dials -= 1

    def _handshake_ended(self) -> None:
        """The remote proved the join code and was admitted: the normal limits apply."""
        self.ready = True
        self.decoder.max_frame = MAX_FRAME
        self._leave_handshake()
        limiter = getattr(self.session, "guess_limit", None)
        if not self.dialer and limiter is not None:
            limiter.proved(self.remote_host())    # the table's guess budget spares it

    def _leave_handshake(self) -> None:
        if self._in_line is not None:
            limiter = getattr(self.session, "guess_limit", None)
            if limiter is not None:
                limiter.withdraw(self._in_line)
            self._in_line = None
        if not self._exchange_judged:
            # answered, never finished with a Hello: the host's work for nothing, counted
            # as a wrong code so an address cannot spend exchanges for free
            self._exchange_judged = True
            limiter = getattr(self.session, "guess_limit", None)
            if limiter is not None:
                limiter.wrong_code(self.remote_host())
        self._deadline.cancel()
        if self.release_slot is not None:
            self.release_slot()
            self.release_slot = None

    def _handshake_overdue(self) -> None:
        deadline = self._deadline
        deadline.call = None
        if self.closed or self.ready:
            return
        if self._now() - deadline.due > STALL_GRACE and not deadline.extended:
            # this peer was busy (a long drop, a slow bot) and fires its timers before it
            # reads: the remote's answer may be waiting unread, so read it first
            deadline.extended = True
            deadline.call = self.session.reactor.callLater(STALL_GRACE,
                                                           self._handshake_overdue)
            return
        log.info("closing %s: no handshake within %g s", self.describe(), deadline.length)
        if self._in_line is not None:
            self._refuse_plain(BUSY, retry=DROPPED_RETRY)
            return
        if not self.dialer and self.pake is None:
            # (an older peer waits for the listener to speak first: say why)
            self._refuse_plain("join refused: no key offer within "
                               f"{deadline.length:g} s of connecting")
            return
        self.closed = True
        self._dial_settled()
        self._leave_handshake()
        self.tcp.loseConnection()

    def connectionLost(self, reason: Any = None) -> None:
        self.closed = True
        self._leave_handshake()
        if self.release_file is not None:
            self.release_file()
            self.release_file = None
        self._dial_settled()
        if self.decoder.pending_bytes:
            log.warning("connection from %s closed inside a truncated frame (%d bytes)",
                        self.describe(), self.decoder.pending_bytes)
        self.session.connection_lost(self)

    # -------------------------------------------------------------- handshake
    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "Offended":
            log.warning("%s says we offended: %s", self.describe(), msg["reason"])
            self.offended_reason = msg["reason"]
            return
        if self.ready:
            if kind in ("Welcomed", "KeyOffered", "Hello", "Accepted", "Refused", "Probed",
                        "Greeted"):
                self.offence(f"{kind} after the handshake (replayed?)")
                return
            self.session.received(self, msg)
            return
        if self.dialer:
            if kind == "Welcomed" and self.channel is None and self.pake is not None:
                self._welcomed(msg, self.pake)
            elif kind == "Accepted" and self.hello is not None:
                self._handshake_ended()
                self._dial_settled()
                self.session.connection_ready(self)
            elif kind == "Refused":
                log.warning("join refused by %s: %s", self.describe(), msg["reason"])
                self.refused_retry = msg["retry"]
                self.closed = True
                self._dial_settled()
                self._refused_by_remote(msg["reason"])
                self.tcp.loseConnection()
            else:
                self.offence(f"{kind} before the handshake completed")
        else:
            if kind == "KeyOffered" and self.pake is None and self._in_line is None:
                self._key_offered(msg)
            elif kind == "Probed" and self.pake is None:
                # a reachability probe: say this is a table, and close
                self.send({"type": "Greeted", "versions": self.session.versions})
                self.closed = True
                self._leave_handshake()
                self.tcp.loseConnection()
            elif kind == "Hello" and self.hello is None and self.channel is not None:
                self._hello(msg)
            else:
                self.offence(f"{kind} before the handshake completed")

    def _unopened_in_handshake(self, body: bytes, exc: ChannelError) -> None:
        """A frame that does not open before the handshake ended: on the listener's side
        the dialer's first sealed frame, so the codes differ (or it is forged); on the
        dialer's side a plain refusal of a wrong code, or a table that is not genuine."""
        if not self.dialer:
            self._exchange_judged = True
            limiter = getattr(self.session, "guess_limit", None)
            if limiter is not None:
                limiter.wrong_code(self.remote_host())     # it logs a summary, not each
            self._refuse_plain("join refused: the join code is wrong")
            return
        try:
            msg = messages.check(decode_body(body))
        except (FrameError, messages.BadMessage):
            msg = None
        if msg is not None and msg["type"] == "Refused":
            reason = msg["reason"]
            self.refused_retry = msg["retry"]
        else:
            reason = f"cannot join: the table's reply could not be authenticated ({exc})"
        self.closed = True
        self._dial_settled()
        self._refused_by_remote(reason)
        self.tcp.loseConnection()

    def _key_offered(self, msg: dict[str, Any]) -> None:
        """A stranger's first message: answered only when the guess limit lets it (the
        answer is this side's SPAKE2 half, the costly part), at once or in its turn."""
        limiter = getattr(self.session, "guess_limit", None)
        if limiter is None:
            self._answer_offer(msg)
            return

        def answer() -> None:
            self._in_line = None
            if not self.closed:
                self._answer_offer(msg)

        def refuse(verdict: OfferVerdict) -> None:
            # turned away before any key exchange: no work, no log line (the limiter
            # sums these up)
            self._in_line = None
            if not self.closed:
                self._refuse_plain(verdict.reason or "join refused", retry=verdict.retry_after)
        self._in_line = limiter.offer(self.remote_host(), answer, refuse)
        if self._in_line is not None:
            # waiting for its group's turn (about groups in line / rate seconds)
            self._set_deadline(HANDSHAKE_DEADLINE)

    def _answer_offer(self, msg: dict[str, Any]) -> None:
        self.pake = JoinKeyExchange(self.session.code or "", dialer=False)
        try:
            keys = self.pake.finish(msg["pake"])
        except PakeError as exc:
            self._refuse_plain(f"join refused: {exc}")
            return
        self.send({"type": "Welcomed", "versions": self.session.versions,
                   "peer": self.session.peer_id, "pake": self.pake.outbound()})
        self.channel = SecureChannel(keys.send, keys.receive)
        self.binding = keys.binding
        self._exchange_judged = False
        if self.slot_keyed is not None:
            self.slot_keyed()
        self._set_deadline(KEYED_DEADLINE)

    def _welcomed(self, msg: dict[str, Any], pake: JoinKeyExchange) -> None:
        self.remote_peer = msg["peer"]
        differs = version_differences(self.session.versions, msg["versions"],
                                      me="table", them="yours")
        if differs:
            self.closed = True
            self._dial_settled()
            self._refused_by_remote(f"cannot join: {differs}")
            self.tcp.loseConnection()
            return
        try:
            keys = pake.finish(msg["pake"])
        except PakeError as exc:
            self.closed = True
            self._dial_settled()
            self._refused_by_remote(f"cannot join: {exc}")
            self.tcp.loseConnection()
            return
        self.channel = SecureChannel(keys.send, keys.receive)
        self.binding = keys.binding
        key = getattr(self.session, "seat_key", None)
        hello = {"type": "Hello", "versions": self.session.versions,
                 "peer": self.session.peer_id, "role": "player", "name": self.session.name,
                 "listen_port": self.session.listen_port, "seat": None, "token": None,
                 "table": None, "seat_key": key.public if key is not None else None,
                 "seat_proof": None}
        hello.update(self.hello_fields)
        if key is not None and hello["table"] is not None and hello["seat"] is not None:
            # a seat after the start: prove it holds the seat's key, on this connection
            hello["seat_proof"] = prove_seat(key, hello["table"], hello["seat"], self.binding)
        self.hello = hello
        self.send(hello)

    def _hello(self, msg: dict[str, Any]) -> None:
        self._exchange_judged = True         # the Hello opened: the code was right
        self.hello = msg
        self.remote_peer = msg["peer"]
        self.remote_name = msg["name"]
        self.role = msg["role"]
        differs = version_differences(self.session.versions, msg["versions"])
        if differs:
            self._refuse(f"join refused: {differs}")
            return
        reason = self.session.admit(self, msg)
        if reason:
            self._refuse(reason)
            return
        self.send({"type": "Accepted", "peer": self.session.peer_id})
        self._handshake_ended()
        self.session.connection_ready(self)

    def _refused_by_remote(self, reason: str) -> None:
        self.refused_reason = reason
        self.session.refused(self, reason)

    def _refuse(self, reason: str) -> None:
        log.warning("refused %s: %s", self.describe(), reason)
        self.send({"type": "Refused", "reason": reason[:2000], "retry": None})
        self.closed = True
        self.tcp.loseConnection()

    def _refuse_plain(self, reason: str, retry: float | None = None) -> None:
        """A refusal before the code was proved: plain (a dialer with a wrong code holds
        no key to open it), and not logged each time (a flood must not flood the log)."""
        self.channel = None
        self.send({"type": "Refused", "reason": reason[:2000],
                   "retry": None if retry is None else min(3600.0, max(0.0, retry))})
        self.closed = True
        self._leave_handshake()
        self.tcp.loseConnection()


class PeerFactory(ClientFactory):
    """Builds connections for a session; `dialer` and the Hello fields fix the role."""

    def __init__(self, session: Any, dialer: bool, hello: dict[str, Any] | None = None) -> None:
        self.session = session
        self.dialer = dialer
        self.hello = hello
        self.unproven = UnprovenConnections(getattr(session, "reactor", None))
        self.files = OpenFilesBudget(getattr(session, "reactor", None))

    def buildProtocol(self, addr: Any) -> PeerConnection | None:
        # None closes the socket before a byte is read (Twisted's tcp.Port): a listener
        # at its cap of unproven connections spends nothing on a new one
        host = str(getattr(addr, "host", "?"))
        if self.dialer:
            conn = PeerConnection(self.session, self.dialer, self.hello)
            conn.factory = self
            return conn
        if not self.files.admit():
            return None
        conn = PeerConnection(self.session, self.dialer, self.hello)
        token = self.unproven.admit(host, conn.evicted)
        if token is None:
            self.files.release()
            return None
        conn.factory = self
        conn.release_slot = lambda: self.unproven.release(token)
        conn.slot_keyed = lambda: self.unproven.keyed(token)
        conn.release_file = self.files.release
        return conn

    def clientConnectionFailed(self, connector: Any, reason: Any) -> None:
        self.session.dial_failed(connector, reason)

    def clientConnectionLost(self, connector: Any, reason: Any) -> None:
        pass
