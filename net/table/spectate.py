"""Spectating: following one player's log step by step, and another player's when that
one drops."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Spectate:
    """Mixed into `net.table.session.TableSession`."""

    def _watch_elsewhere(self) -> bool:
        """The player we watched is gone: follow another (its log fills any gap)."""
        if self.role != "watch" or self.start_info is None or self.closed or self._over():
            return False
        for p in self.start_info["peers"]:
            addr = (p["host"] or self.watch_address[0], p["port"])
            if addr not in self._watch_tried:
                self._watch_tried.add(addr)
                self.source = None
                log.warning("following the game through %s:%d now", *addr)
                self._dial(addr[0], addr[1], {"role": "spectator"})
                return True
        self.on_refused("no player left to watch")
        return False

    def _on_StepApplied(self, conn: PeerConnection, msg: dict) -> None:
        if conn is not self.source or self.lockstep is None:
            conn.offence("StepApplied from a peer we do not follow")
            return
        entry = msg["entry"]
        if entry.get("step", -1) < self.lockstep.step:
            return
        try:
            self.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("spectated step rejected: %s", exc)
            self.on_desync({"step": self.lockstep.step, "reason": str(exc)})
