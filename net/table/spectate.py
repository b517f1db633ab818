"""Spectating: following one player's log step by step, and another player's when that
one drops; and, on the player's side, dropping spectators that fell silent.

Why spectators beat too (issue 34): a spectator sends nothing else, so 800 connections
that a stranger opened with the code and then left idle were never told from watchers.
Now a watching peer sends a `Heartbeat` to the player it follows when it sent nothing for
`BEAT_EVERY`, and a player drops a spectator silent for `SILENT_AFTER` (a peer that was
itself stalled judges no one that round). The caps on spectators are admission's
(`net.table.policy.admission.MAX_SPECTATORS`).

Tests: tests/net/table/test_session.py (spectators), tests/net/lockstep/test_real_engine.py,
tests/net/table/test_admission.py (silent spectators), tests/net/trust/test_spectator_flood.py.
"""

from __future__ import annotations

import logging
from typing import Any, TYPE_CHECKING

from net.table.dialer import Dialer
from net.table.shared import (DelayedCall, Roster, StartRecord, TableSetting, TableState,
                              transport_of)
from net.transport.message_records import StepApplied

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

BEAT_EVERY = 5.0          # seconds a watcher sends nothing before a Heartbeat goes
SILENT_AFTER = 30.0       # seconds without a frame before a player drops a spectator
STALL_SLACK = 1.0         # a round this late shows this peer stalled: no one is judged


class Spectate:
    """A watching peer's player to follow, and the steps it passes on."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 start: StartRecord, dialer: Dialer) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._start = start
        self._dialer = dialer
        self._watch_address: tuple[str, int] | None = None   # the player first dialled
        self._tried: set[tuple[str, int]] = set()           # players dialled to watch
        self._round: DelayedCall | None = None              # the beat and silence round
        self._round_due = 0.0

    def watch(self, host: str, port: int) -> None:
        self._watch_address = (host, port)
        self._tried = {(host, port)}
        self._dialer.dial(host, port, {"role": "spectator"})
        self._next_round()

    def police_silence(self) -> None:
        """A spectator joined me: its silence is watched from now on."""
        self._next_round()

    def _next_round(self) -> None:
        table = self._shared
        if self._round is not None and self._round.active() or table.closed:
            return
        self._round_due = self._setting.reactor.seconds() + BEAT_EVERY
        self._round = self._setting.reactor.callLater(BEAT_EVERY, self._beat_round)

    def _beat_round(self) -> None:
        table = self._shared
        self._round = None
        if table.closed:
            return
        now = self._setting.reactor.seconds()
        stalled = now - self._round_due > STALL_SLACK
        for conn in list(self._roster.spectators):
            if not stalled and not conn.closed and conn.silent_for() > SILENT_AFTER:
                log.warning("spectator %s silent for %.0f s: dropped", conn.describe(),
                            conn.silent_for())
                conn.closed = True
                transport_of(conn).loseConnection()
        source = self._roster.source
        if table.role == "watch" and source is not None and not source.closed \
                and now - source.last_sent >= BEAT_EVERY:
            source.send({"type": "Heartbeat"})
        if self._roster.spectators or table.role == "watch":
            self._next_round()

    def watch_elsewhere(self) -> bool:
        """The player we watched is gone: follow another (its log fills any gap)."""
        table = self._shared
        if table.role != "watch" or self._start.info is None or table.closed or table.over():
            return False
        assert self._watch_address is not None
        for p in self._start.info["peers"]:
            addr = (p["host"] or self._watch_address[0], p["port"])
            if addr not in self._tried:
                self._tried.add(addr)
                self._roster.source = None
                log.warning("following the game through %s:%d now", *addr)
                self._dialer.dial(addr[0], addr[1], {"role": "spectator"})
                return True
        self._setting.callbacks.on_refused("no player left to watch")
        return False

    def step_applied(self, conn: PeerConnection, msg: StepApplied) -> None:
        """A `StepApplied` from the player we follow."""
        table = self._shared
        if conn is not self._roster.source or table.lockstep is None:
            conn.offence("StepApplied from a peer we do not follow")
            return
        entry = msg["entry"]
        if entry.get("step", -1) < table.lockstep.step:
            return
        try:
            table.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("spectated step rejected: %s", exc)
            self._setting.callbacks.on_desync({"step": table.lockstep.step, "reason": str(exc)})
