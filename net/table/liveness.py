"""Liveness: heartbeats, redialling a lost player, and take-overs only by a majority.

Why: a TCP reset or a pulled cable used to be silent (a 16 s stall, nothing shown) and
then split the table — the three players took the lone one's seat while the lone one
took all three of theirs, and two games ended with exit 0. Now:

- every player connection carries a `Heartbeat` when nothing else was sent for a
  second; one silent for `SILENT_AFTER` seconds is closed, which pauses the table
  (`on_paused` says for how long the seat may take to come back);
- a connection to a live player that was lost (not dropped for offences, a desync or
  cheating) is redialled by the higher seat every second — the same rule as the mesh
  at the start — and both sides resend their latest messages on the new connection;
  but while a redial is connected and in its handshake (at most its 10 s deadline) no
  other is added: through a tunnel (`net.reach.tunnel`) every dial connects at once to
  its loopback end, and when its relay stalled, one a second piled up, each a key
  exchange the other side computed on its one thread when the relay flowed again
  (under load 15 of them kept it deaf for 3.6 s, its live redial answered last);
- a seat is taken over by a bot only by a side that holds a strict majority of the
  table's human players; a minority waits (and keeps redialling) until it can rejoin,
  so a table can never go on as two games;
- silence is counted in the time *this* peer was awake. Every peer computes the bot
  seats' moves and the tower's drops itself, in the reactor's thread, so a slow step
  (hard bots on a slow laptop) stalls the whole table at once, and a stalled peer reads
  nothing. A heartbeat that runs late shows the stall; the time it was late does not
  count as the players' silence (before, a peer waking from a 7 s stall dropped every
  player whose messages waited unread in its sockets, and the table paused and
  redialled). A peer that is always late still notices a player gone, only later.

Tests: tests/net/table/test_liveness.py, tests/net/table/test_loopback.py (resets, stalls).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, TYPE_CHECKING

from net.table.dialer import Dialer
from net.table.policy.cut_off import CutOff, decide, outvoted
from net.table.shared import (DelayedCall, Roster, StartRecord, TableSetting, TableState,
                              transport_of)
from net.transport.message_records import Heartbeat

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection, PeerFactory

log = logging.getLogger("net.table.session")

HEARTBEAT_EVERY = 1.0     # seconds without a frame sent before a Heartbeat goes
SILENT_AFTER = 5.0        # seconds without a frame received before a player counts as gone
REDIAL_EVERY = 1.0        # seconds between redials of a lost player
STALL_SLACK = 0.5         # a heartbeat this much later than due shows a stalled peer
RESEND_STEPS = 4          # my messages of this many steps back go out on a new connection


class Liveness:
    """Heartbeats, the clock of the time this peer was awake, redials, the majority rule."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 start: StartRecord, dialer: Dialer) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._start = start
        self._dialer = dialer
        self._beat: DelayedCall | None = None   # the next heartbeat
        self._beat_due = 0.0                    # when it should run
        self._stalled = 0.0                     # seconds this peer was found stalled
        self.redialling: set[tuple[str, int]] = set()   # addresses of lost players
        self._redials: dict[int, PeerFactory] = {}      # seat -> my latest redial of it
        self._minority_said = False             # the minority's pause was announced
        self._outvoted_since: float | None = None   # awake time I lost touch with a majority
        # the game ends here for me: cut off from a majority for too long (the session's close)
        self.gave_up: Callable[[str], None] = lambda reason: None
        self.ticked: Callable[[], None] = lambda: None   # after each heartbeat (input clocks)

    def awake_seconds(self) -> float:
        """The reactor's clock less the time this peer was stalled (`last_received` is
        read on this clock, so silence counts only while I could have heard)."""
        return self._setting.reactor.seconds() - self._stalled

    def start_heartbeat(self) -> None:
        table = self._shared
        if self._beat is None and not table.closed:
            self._beat_due = self._setting.reactor.seconds() + HEARTBEAT_EVERY
            self._beat = self._setting.reactor.callLater(HEARTBEAT_EVERY, self._heartbeat)

    def stop(self) -> None:
        if self._beat is not None and self._beat.active():
            self._beat.cancel()

    def _heartbeat(self) -> None:
        table = self._shared
        self._beat = None
        if table.closed or table.over():
            return
        now = self._setting.reactor.seconds()
        late = now - self._beat_due
        if late > STALL_SLACK:
            self._stalled += late
            log.info("this peer was busy for %.1f s; its players' silence is counted "
                     "from now", late + HEARTBEAT_EVERY)
        awake = self.awake_seconds()
        for conn in list(self._roster.conns):
            if not conn.ready or conn.closed:
                continue        # (a resuming peer does not know its players' seats yet)
            silent = awake - conn.last_received
            if silent > SILENT_AFTER:
                log.warning("%s silent for %.0f s: counted as dropped", conn.describe(), silent)
                abort = getattr(conn.transport, "abortConnection", None)
                (abort or transport_of(conn).loseConnection)()
            elif now - conn.last_sent >= HEARTBEAT_EVERY:
                conn.send({"type": "Heartbeat"})
        if self._cut_off_for_good():
            return
        self.start_heartbeat()
        self.ticked()

    def _cut_off_for_good(self) -> bool:
        """Have I been out of reach of more than half of the table for so long that the
        others gave my seat to a bot (`net.table.policy.cut_off`)? Then the game ends here,
        and my player reads why, in place of waiting for ever."""
        table = self._shared
        ls, me = table.lockstep, table.my_seat
        if ls is None or ls.following or me is None or me in ls.bots or table.over():
            self._outvoted_since = None
            return False
        awake = self.awake_seconds()
        view = CutOff(me=me, humans=frozenset(s for s in self._start.humans() if s not in ls.bots),
                      reachable=frozenset(c.seat for c in self._roster.conns
                                          if c.ready and not c.closed and c.seat is not None),
                      outvoted_for=0.0, rejoin_timeout=self._start.rejoin_timeout())
        if not outvoted(view):
            self._outvoted_since = None
            return False
        if self._outvoted_since is None:
            self._outvoted_since = awake
        waited = awake - self._outvoted_since
        if not decide(CutOff(me=view.me, humans=view.humans, reachable=view.reachable,
                             outvoted_for=waited, rejoin_timeout=view.rejoin_timeout)).give_up:
            return False
        reason = (f"your seat {me} has gone to a bot if the others play on: none of them has "
                  f"heard from you for {waited:.0f} s, and more than half of the table may give a silent seat to a "
                  "bot; the game ended here for you")
        log.warning(reason)
        self.gave_up(reason)
        return True

    def flush_sends(self) -> None:
        """Put what I have sent on the wire now, before work that blocks the reactor's
        thread (a bot's move, a tower drop). Why: a transport writes its buffer only when
        the reactor next polls, so a peer that sent the last input of a step and then
        computed the next step's bot move for seconds held that input back all the while:
        the players waiting for it saw it silent, and the table could not compute the
        step together."""
        for conn in self._roster.conns:
            transport = conn.transport
            write_now = getattr(transport, "doWrite", None)     # IWriteDescriptor
            # (not while it closes: its last write would then end the connection, which
            # only the reactor may report; a write error shows again to the reactor)
            if write_now is not None and not conn.closed \
                    and getattr(transport, "connected", False) \
                    and not getattr(transport, "disconnecting", False):
                write_now()

    def heartbeat(self, conn: PeerConnection, msg: Heartbeat) -> None:
        """A `Heartbeat`: nothing to do, receiving it is the point (`last_received`)."""

    # ---------------------------------------------------------------- redial
    def may_redial(self, conn: PeerConnection) -> bool:
        """A live player lost by accident (not dropped by anyone on purpose), whom the
        mesh rule says I dial: the lower seat."""
        table = self._shared
        seat = conn.seat
        return (table.lockstep is not None and not table.over() and table.my_seat is not None
                and seat is not None and seat < table.my_seat and not conn.dropped_on_purpose
                and conn.offended_reason is None and seat not in table.expelled
                and seat not in table.lockstep.bots and seat in self._start.addresses
                and table.role in ("host", "join"))

    def redial(self, seat: int) -> None:
        table = self._shared
        if table.closed or table.over() or table.lockstep is None \
                or seat in table.lockstep.bots or seat in table.expelled \
                or self._roster.conn_for_seat(seat) is not None:
            return
        assert self._start.info is not None
        host, port = self._start.addresses[seat]
        self.redialling.add((host, port))
        if not self.redial_in_handshake(seat):
            self._redials[seat] = self._dialer.dial(
                host, port, {"role": "player", "seat": table.my_seat,
                             "table": self._start.info["table"]})
        self._setting.reactor.callLater(REDIAL_EVERY, self.redial, seat)

    def redial_in_handshake(self, seat: int) -> bool:
        """Is my latest redial of `seat` connected and still in its handshake? (A dial
        not connected yet adds nothing: a pulled cable's path may come back any second,
        and a new dial finds it sooner than one in its SYN back-off.)"""
        factory = self._redials.get(seat)
        conn = factory.built if factory is not None else None
        return conn is not None and not conn.closed and not conn.ready

    def reconnected(self, conn: PeerConnection) -> None:
        """A player connection made after the game began here (a redial, or a mesh dial
        that came late): messages on it may repeat what was already applied, and both
        sides resend their latest, which the lost connection may have swallowed."""
        ls = self._shared.lockstep
        assert ls is not None
        conn.redialed = True
        for m in ls.resend_from(max(0, ls.step - RESEND_STEPS)):
            conn.send(m)

    # ---------------------------------------------------------------- majority
    def live_players(self, seat: int) -> tuple[set[int], list[int]]:
        """The human seats on my side (me and the players I am connected to, `seat`
        left out), and all the table's human seats."""
        table = self._shared
        humans = self._start.humans()
        live = {table.my_seat} | {c.seat for c in self._roster.conns if c.ready and not c.closed
                                  and c.seat is not None and c.seat != seat}
        return {s for s in live if s is not None} & set(humans), humans

    def majority_here(self, seat: int) -> bool:
        """Do the players I am connected to, and I, make more than half of the table's
        human players? Only then may this side play `seat` with a bot."""
        live, humans = self.live_players(seat)
        if 2 * len(live) > len(humans):
            return True
        if not self._minority_said:
            self._minority_said = True
            reason = (f"only {len(live)} of {len(humans)} players are connected here: a "
                      "bot may take a seat only on a side with more than half of the "
                      "players; waiting for the others")
            log.warning(reason)
            self._setting.callbacks.on_paused(reason)
        return False
