"""What a connection needs of the table it belongs to, and where it says what happened.

Why a record of reports: a connection's news (a checked message, the link lost, the
handshake done or refused, an offence) goes straight to the part of the table that
handles it (`net.table.connections`, `net.table.drop_claims`, `net.table.liveness`),
not through one-line forwards on the session. The table builds the record once, from
its parts, and every connection it makes or accepts reads it from its owner when it
reports (a test may replace one report, as `tests/net/redialling_peer.py` does).

Tests: tests/net/transport/test_peer.py (a table's connections report to its parts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from net.trust.door_identity import Door

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection


@dataclass(frozen=True)
class PeerReports:
    """Each report a connection makes, bound to the part of the table that takes it."""
    received: Callable[[PeerConnection, dict[str, Any]], None]   # a checked message
    lost: Callable[[PeerConnection], None]                       # the link closed
    ready: Callable[[PeerConnection], None]                      # the handshake ended well
    refused: Callable[[PeerConnection, str], None]               # the remote would not take us
    admit: Callable[[PeerConnection, dict[str, Any]], str | None]   # a Hello: None or why not
    dial_failed: Callable[[Any, Any], None]                      # (connector, failure)
    offence_logged: Callable[[PeerConnection, str], None]
    offender_dropped: Callable[[PeerConnection, str], None]
    bytes_sent: Callable[[int], None]
    awake_seconds: Callable[[], float] | None = None             # the table's awake clock
    # what the limits for strangers count a connection from (host, port) as: its address,
    # or the tunnel it came through (`net.trust.door_identity`); None: its address
    door: Callable[[str, int], Door] | None = None


class PeerOwner(Protocol):
    """The table a connection belongs to, as the connection and its handshake see it."""
    reports: PeerReports
    reactor: Any                 # the Twisted reactor (None: a stand-in without a clock)
    versions: dict[str, str]     # what this program speaks (`net.transport.versions`)
    peer_id: bytes
    name: str
    code: str | None             # the join code the key exchange proves
    listen_port: int
    pending_dials: int           # dials whose handshake has not ended
    seat_key: Any                # `net.trust.seat_keys.SeatKey` or None (a watcher)
    guess_limit: Any             # `net.trust.guess_limit.GuessLimiter` or None
