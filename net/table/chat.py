"""Table chat: short lines among players and spectators, in the lobby and in the game.

Why apart from the game: a chat line is said, not played. It rides the same sealed
frames as everything else but never enters the lockstep, the command log, the save or
any state hash, so nothing said can change the game.

Routing (no frame is sent twice to anyone): before the start guests are connected to
the host only, so the host passes a guest's line on to the other guests; in the game
the players are a full mesh, so a player's line goes to every player directly; each
player passes what it hears on to its own spectators, and a spectator's line goes to
the player it follows, who passes it on as if it were its own. The sender's hook fires
at once, locally.

Limits: a line is at most `MAX_CHARS` characters (longer lines are refused before they
leave; a longer one on the wire is an offence of the sender, like any malformed frame);
each connection may send `BURST` lines per `PER_SECONDS` — more are dropped, with one
log line per connection per burst. A line from a player is credited to that player's
seat; one it marks as a spectator's (no seat) keeps the name it gives; in the lobby
the host's word is taken for its guests' lines, and a spectator takes its player's.

Late spectators: each peer keeps the last `RECALLED` lines it showed and sends them in
one `ChatRecalled` to a spectator when it is admitted, so one who joins late can read
what was said before (issue 37). The spectator takes them from the player it follows
only, once: a second player it follows after the first dropped does not repeat them.

Tests: tests/net/table/test_chat.py.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from net.transport.messages import Wire
from weakref import WeakKeyDictionary

from net.trust.peer_text import shown
from net.table.phase import Phase
from net.transport.message_records import ChatRecalled, ChatSent

if TYPE_CHECKING:
    from net.table.shared import Identity, Roster, StartRecord, TableSetting, TableState
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.chat")

MAX_CHARS = 300
BURST = 5               # lines a connection may send at once ...
PER_SECONDS = 10.0      # ... and one more line per PER_SECONDS / BURST after that
RECALLED = 50           # lines kept for a spectator who joins late


@dataclass(frozen=True)
class ChatLine:
    """One line said at the table. `seat` is None for a spectator (or a guest without a
    seat yet)."""
    sender: str
    seat: int | None
    text: str


def clean(text: str) -> str:
    """The line as it is sent: stripped, without control characters. ValueError (a
    sentence for the player) when it is empty or too long."""
    if not isinstance(text, str):
        raise ValueError("a chat line must be text")
    text = shown(text).strip()     # no control character, escape sequence or line break
    if not text:
        raise ValueError("there is nothing to send")
    if len(text) > MAX_CHARS:
        raise ValueError(f"a chat line may be at most {MAX_CHARS} characters long; "
                         f"this one has {len(text)}")
    return text


class _Bucket:
    """A token bucket per connection (tokens refill continuously)."""

    def __init__(self, now: float) -> None:
        self.tokens = float(BURST)
        self.at = now
        self.warned = False

    def take(self, now: float) -> bool:
        self.tokens = min(float(BURST), self.tokens + (now - self.at) * BURST / PER_SECONDS)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.warned = False
            return True
        return False


class Chat:
    """Says and passes on the table's chat lines (see the module doc)."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._buckets: WeakKeyDictionary[PeerConnection, _Bucket] = WeakKeyDictionary()
        self.recent: deque[ChatLine] = deque(maxlen=RECALLED)   # what a late spectator reads
        self._recalled = False             # a spectator took its player's recent lines

    def send(self, text: str) -> None:
        """Say `text` at the table (lobby or game, player or spectator). Raises ValueError
        with a sentence for the player if the line is empty or too long."""
        table = self._shared
        if table.closed:
            raise ValueError("you have left the table")
        line = ChatLine(self._me.name[:40], table.my_seat, clean(text))
        self._deliver(line, came_from=None)

    @staticmethod
    def _wire(line: ChatLine) -> Wire:
        return {"type": "ChatSent", "sender": line.sender, "seat": line.seat,
                "text": line.text}

    def recall(self, spectator: PeerConnection) -> None:
        """A spectator was just admitted: send it the lines said before it came."""
        if self.recent:
            spectator.send({"type": "ChatRecalled", "lines": [
                {"sender": ln.sender, "seat": ln.seat, "text": ln.text} for ln in self.recent]})

    def chat_recalled(self, conn: PeerConnection, msg: ChatRecalled) -> None:
        """A `ChatRecalled` arrived: the lines said before this spectator came."""
        table = self._shared
        if table.role != "watch" or conn is not self._roster.source:
            conn.offence("ChatRecalled sent to a peer that is not its spectator")
            return
        if self._recalled:             # a second player followed: its lines are not new
            return
        self._recalled = True
        for said in msg["lines"]:
            try:
                line = ChatLine(said["sender"], said["seat"], clean(said["text"]))
            except ValueError as exc:
                conn.offence(f"recalled chat line refused: {exc}")
                return
            self._show(line)

    def _deliver(self, line: ChatLine, came_from: PeerConnection | None) -> None:
        """Show `line` here and pass it on to those who would not get it otherwise."""
        table = self._shared
        wire = self._wire(line)
        targets: list[PeerConnection] = []
        mine = came_from is None or came_from in self._roster.spectators
        if table.role == "watch":
            if came_from is None and self._roster.source is not None:
                targets.append(self._roster.source)          # my own line: to the player I follow
        else:
            hub = table.phase is Phase.LOBBY and self._me.is_host
            if mine or hub:
                targets += [c for c in self._roster.conns if c.ready]
            targets += self._roster.spectators
        for conn in targets:
            if conn is not came_from and not conn.closed:
                conn.send(wire)
        self._show(line)

    def _show(self, line: ChatLine) -> None:
        line = ChatLine(shown(line.sender)[:40], line.seat, line.text)   # a name is a peer's text
        self.recent.append(line)
        try:
            self._setting.callbacks.on_chat_received(line)
        except Exception:              # the window's problem must not break the table
            log.exception("on_chat_received failed")

    def chat_sent(self, conn: PeerConnection, msg: ChatSent) -> None:
        """A `ChatSent` arrived."""
        table = self._shared
        now = self._setting.reactor.seconds()
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = _Bucket(now)
        if not bucket.take(now):
            if not bucket.warned:
                bucket.warned = True
                log.warning("chat from %s dropped: more than %d lines in %g s",
                            conn.describe(), BURST, PER_SECONDS)
            return
        try:
            text = clean(msg["text"])
        except ValueError as exc:
            conn.offence(f"chat line refused: {exc}")
            return
        trusted = conn is self._roster.source or (conn is self._roster.host_conn
                                           and table.phase is Phase.LOBBY)
        if trusted:
            line = ChatLine(msg["sender"], msg["seat"], text)
        elif conn in self._roster.spectators:
            line = ChatLine(conn.remote_name, None, text)
        elif msg["seat"] is None:      # a player passing on its spectator's line
            line = ChatLine(msg["sender"], None, text)
        else:                          # straight from a player: its own line, its own seat
            name = self._start.name_of_seat(conn.seat) if self._start.info is not None \
                and conn.seat is not None else conn.remote_name
            line = ChatLine(name, conn.seat, text)
        self._deliver(line, came_from=conn)
