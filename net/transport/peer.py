"""One TCP connection to another peer: framing, the handshake, offences, drops.

Why here and not in the session: everything a single connection can judge on its own
(frame sizes, msgpack, message shapes, handshake order, the join-code proof, version
equality, the offence count) is decided before the session sees a message. The session
only receives checked messages from a connection that completed the handshake.

The join handshake itself (who speaks first, the key exchange, its deadline and its
turn in the guess limit's line) is `net.transport.join_handshake`.

Tests: tests/net/transport/test_peer.py, tests/net/transport/test_fuzz.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Protocol as Interface, cast

from twisted.internet.interfaces import IAddress, IConnector
from twisted.internet.protocol import ClientFactory, Protocol
from twisted.python.failure import Failure

from net.transport.framing import FrameDecoder, FrameError, decode_body, encode_body, frame
from net.transport.handshake_limits import (HANDSHAKE_MAX_FRAME, OpenFilesBudget,
                                            UnprovenConnections)
from net.transport.join_handshake import JoinHandshake
from net.transport import messages
from net.transport.message_records import Message, Wire, as_wire, checked
from net.transport.peer_reports import PeerOwner
from net.transport.reactor_types import HostAddress
from net.transport.round_trip import RoundTrip
from net.trust.door_identity import Door
from net.trust.peer_text import shown
from net.trust.secure_channel import ChannelError, SecureChannel

log = logging.getLogger("net.transport.peer")

MAX_OFFENCES = 3


class TcpTransport(Interface):
    """What a connection uses of its Twisted transport (`ITCPTransport`): declared here
    because mypy cannot read zope interfaces."""

    def write(self, data: bytes) -> None: ...

    def loseConnection(self) -> None: ...

    def getPeer(self) -> HostAddress: ...

    def setTcpNoDelay(self, enabled: bool) -> None: ...


class PeerConnection(Protocol):
    """A connection in one of two roles: `dialer` (we connected) or `listener`."""

    def __init__(self, session: PeerOwner, dialer: bool, hello: Wire | None = None) -> None:
        self.session = session
        self.dialer = dialer
        self.hello_fields = hello or {}       # what a dialer says about itself
        self.decoder = FrameDecoder(HANDSHAKE_MAX_FRAME)   # MAX_FRAME once proved
        self.release_file: Callable[[], None] | None = None   # see OpenFilesBudget
        self.handshake = JoinHandshake(self)   # until the remote is admitted
        self.channel: SecureChannel | None = None   # once the key exchange is done
        self.binding: bytes | None = None           # this connection's channel binding
        self.ready = False
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
        # the link's round trip end to end, asked for by the lobby (issue 39: a tunnel's)
        self.round_trip = RoundTrip(self._now, self.send, self.describe)

    def _now(self) -> float:
        reactor = self.session.reactor
        return float(reactor.seconds()) if reactor is not None else 0.0

    def _awake_now(self) -> float:
        """The session's clock of the time it was awake (`Liveness.awake_seconds`)."""
        awake = self.session.reports.awake_seconds
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

    def door(self) -> Door:
        """What the limits meant for strangers count this connection as: the tunnel it
        came through, else its address (issue 47: every tunnelled friend is 127.0.0.1)."""
        try:
            remote = self.tcp.getPeer()
            host, port = str(remote.host), int(remote.port)
        except Exception:
            return Door("?", False)
        door = self.session.reports.door
        return door(host, port) if door is not None else Door(host, False)

    def send(self, msg: Mapping[str, object], body: bytes | None = None) -> None:
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
        self.session.reports.bytes_sent(len(data))
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
            self.session.reports.offender_dropped(self, reason)

    def offence(self, reason: str) -> None:
        """Log a rejected input; drop the sender after MAX_OFFENCES."""
        self.offences += 1
        log.warning("rejected input from %s: %s (offence %d of %d)",
                    self.describe(), reason, self.offences, MAX_OFFENCES)
        self.session.reports.offence_logged(self, reason)
        if self.offences >= MAX_OFFENCES:
            self.drop(f"too many offences, last: {reason}")

    # -------------------------------------------------------------- twisted
    def connectionMade(self) -> None:
        try:
            self.tcp.setTcpNoDelay(True)     # small frames, latency matters
        except Exception:
            pass
        self.handshake.began()

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
                    self.session.reports.offence_logged(self, str(body))
                    self.drop(str(body))
                    return
                self.offence(str(body))
                continue
            if self.channel is not None:
                try:
                    body = self.channel.open(body)
                except ChannelError as exc:
                    if not self.ready:
                        self.handshake.unopened(body, exc)
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
                msg = checked(item)
            except messages.BadMessage as exc:
                self.offence(str(exc))
                continue
            try:
                self._handle(msg)
            except OSError as exc:
                # this machine failed (no file descriptor left, a full disk): never the
                # sender's offence (issue 26 item 2)
                log.error("this machine could not handle %s from %s: %s", msg["type"],
                          self.describe(), exc)
            except Exception as exc:     # a bug must not take the peer down
                log.exception("error handling %s from %s", msg["type"], self.describe())
                self.offence(f"could not handle {msg['type']}: {exc}"[:300])

    def connectionLost(self, reason: Failure | None = None) -> None:
        self.closed = True
        self.handshake.leave()
        if self.release_file is not None:
            self.release_file()
            self.release_file = None
        self.handshake.dial_settled()
        if self.decoder.pending_bytes:
            log.warning("connection from %s closed inside a truncated frame (%d bytes)",
                        self.describe(), self.decoder.pending_bytes)
        self.session.reports.lost(self)

    # -------------------------------------------------------------- handshake
    def _handle(self, msg: Message) -> None:
        kind = msg["type"]
        if msg["type"] == "Offended":
            log.warning("%s says we offended: %s", self.describe(), msg["reason"])
            self.offended_reason = shown(msg["reason"])      # the peer's words: text
            return
        if self.ready:
            if kind in ("Welcomed", "KeyOffered", "Hello", "Accepted", "Refused", "Probed",
                        "Greeted"):
                self.offence(f"{kind} after the handshake (replayed?)")
                return
            if msg["type"] == "Pinged":          # the connection's own (round_trip.py)
                self.round_trip.pinged(msg["ping"])
                return
            if msg["type"] == "PingAnswered":
                self.round_trip.answered(msg["ping"])
                return
            self.session.reports.received(self, as_wire(msg))
            return
        self.handshake.received(msg)


class PeerFactory(ClientFactory):
    """Builds connections for a session; `dialer` and the Hello fields fix the role."""

    def __init__(self, session: PeerOwner, dialer: bool, hello: Wire | None = None) -> None:
        self.session = session
        self.dialer = dialer
        self.hello = hello
        self.unproven = UnprovenConnections(session.reactor)
        self.files = OpenFilesBudget(session.reactor)
        self.built: PeerConnection | None = None     # a dialer's connection, once made

    def buildProtocol(self, addr: IAddress | None) -> PeerConnection | None:
        # None closes the socket before a byte is read (Twisted's tcp.Port): a listener
        # at its cap of unproven connections spends nothing on a new one
        if self.dialer:
            conn = PeerConnection(self.session, self.dialer, self.hello)
            conn.factory = self
            self.built = conn
            return conn
        address, port = str(getattr(addr, "host", "?")), int(getattr(addr, "port", 0))
        door = self.session.reports.door

        def where() -> str:
            """What its slot counts as: its tunnel once the tunnel recorded the port
            (maybe only after this turn, `net.trust.door_identity`), else its address."""
            return door(address, port).key if door is not None else address
        if not self.files.admit():
            return None
        conn = PeerConnection(self.session, self.dialer, self.hello)
        token = self.unproven.admit(where(), conn.handshake.evicted, where)
        if token is None:
            self.files.release()
            return None
        conn.factory = self
        conn.handshake.release_slot = lambda: self.unproven.release(token)
        conn.handshake.slot_keyed = lambda: self.unproven.keyed(token)
        conn.release_file = self.files.release
        return conn

    def clientConnectionFailed(self, connector: IConnector, reason: Failure) -> None:
        self.session.reports.dial_failed(connector, reason)

    def clientConnectionLost(self, connector: IConnector, reason: Failure) -> None:
        pass
