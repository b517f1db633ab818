"""Spectating: following one player's log step by step, and another player's when that
one drops.

Tests: tests/net/table/test_session.py (spectators), tests/net/lockstep/test_real_engine.py.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.table.dialer import Dialer
from net.table.shared import TableState

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Spectate:
    """A watching peer's player to follow, and the steps it passes on."""

    def __init__(self, shared: TableState, dialer: Dialer) -> None:
        self._shared = shared
        self._dialer = dialer
        self._watch_address: tuple[str, int] | None = None   # the player first dialled
        self._tried: set[tuple[str, int]] = set()           # players dialled to watch

    def watch(self, host: str, port: int) -> None:
        self._watch_address = (host, port)
        self._tried = {(host, port)}
        self._dialer.dial(host, port, {"role": "spectator"})

    def watch_elsewhere(self) -> bool:
        """The player we watched is gone: follow another (its log fills any gap)."""
        table = self._shared
        if table.role != "watch" or table.start_info is None or table.closed or table.over():
            return False
        assert self._watch_address is not None
        for p in table.start_info["peers"]:
            addr = (p["host"] or self._watch_address[0], p["port"])
            if addr not in self._tried:
                self._tried.add(addr)
                table.source = None
                log.warning("following the game through %s:%d now", *addr)
                self._dialer.dial(addr[0], addr[1], {"role": "spectator"})
                return True
        table.callbacks.on_refused("no player left to watch")
        return False

    def step_applied(self, conn: PeerConnection, msg: dict) -> None:
        """A `StepApplied` from the player we follow."""
        table = self._shared
        if conn is not table.source or table.lockstep is None:
            conn.offence("StepApplied from a peer we do not follow")
            return
        entry = msg["entry"]
        if entry.get("step", -1) < table.lockstep.step:
            return
        try:
            table.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("spectated step rejected: %s", exc)
            table.callbacks.on_desync({"step": table.lockstep.step, "reason": str(exc)})
