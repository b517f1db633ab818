"""Lockstep traffic while the game runs: routing messages into `net.lockstep.core.Lockstep`,
broadcasting, offences, the end, and desync reports."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net.table.connections import BUFFER_LIMIT
from net.transport.framing import encode_body
from net.lockstep.core import Offence
from net.table.phase import Phase
from store.table_save import write_desync_report

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

# the signed kinds whose signature a peer checks on arrival even from the seat's own
# connection (see `Play._check_now`); the others are checked when shown to a third peer
CHECKED_AT_ONCE = frozenset({"PlanCommitted", "PlanUnlocked", "CommitsEchoed",
                             "ChainCommitted"})


class Play:
    """Mixed into `net.table.session.TableSession`."""

    def _on_lockstep(self, conn: PeerConnection, msg: dict) -> None:
        if conn.role == "spectator" or conn is self.source:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if self.lockstep is None or self.phase is Phase.RECOVERY:
            if not (self.started or self.role == "resume") or len(self.buffer) >= BUFFER_LIMIT:
                conn.offence(f"{msg['type']} before the game started")
                return
            self.buffer.append((conn, msg))
            return
        if conn.seat is None:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if msg["seat"] == conn.seat and self._check_now(conn.seat, msg) \
                and not self.signed_by_seat(conn.seat, msg):
            conn.offence(f"{msg['type']} for step {msg['step']} is not signed by seat "
                         f"{conn.seat}'s key")
            return
        try:
            resent = conn.role == "rejoin" or (conn.dialer and self.role == "resume") \
                or conn.redialed
            self.lockstep.receive(conn.seat, msg, resent=resent)
            self._forward(conn.seat, msg)
        except Offence as exc:
            conn.offence(str(exc))
        except ValueError as exc:
            conn.offence(f"rejected {msg['type']}: {exc}")

    def _check_now(self, seat: int, msg: dict) -> bool:
        """Whether a message that came on `seat`'s own connection must have its signature
        checked at once.

        Why not always: that connection is already bound to the seat's key (its Hello
        proves the key over the key exchange's binding, or the key was pinned from it),
        so what arrives on it is the seat's word to me, signed or not. The signature is
        for showing the message to someone else, and a peer checks it when it does
        that: before passing it on (`heard_from`, forwarding to a parted player) and
        when building a proof (`_cheated`). Commitments are the exception: an echo
        shows them to everyone at once, and a badly signed one in my echo would look
        like my forgery. Skipping the rest saves ~950 Ed25519 checks per peer per game
        (BENCHMARKS.md)."""
        return msg["type"] in CHECKED_AT_ONCE or bool(self.forwards.get(seat))

    def _broadcast(self, msg: dict) -> None:
        self.on_broadcast(msg)
        body = None                     # packed once, sealed for each player
        for conn in self.conns:
            if conn.ready:
                body = body or encode_body(msg)
                conn.send(msg, body)

    def _lockstep_offence(self, seat: int, reason: str) -> None:
        conn = self._conn_for_seat(seat)
        if conn is not None:
            conn.offence(reason)
        else:
            log.warning("rejected input from seat %d: %s", seat, reason)

    def _step_applied(self, entry: dict) -> None:
        for conn in self.spectators:
            conn.send({"type": "StepApplied", "entry": entry})
        self._append_log(entry)
        if entry.get("takeovers"):
            self._seats_became_bots(entry["takeovers"])
        self.on_step_applied(entry)

    def _seats_became_bots(self, seats: list) -> None:
        """Taken-over seats show as bots in the lobby (the window says "Bot (Orange)");
        the lobby keeps the player's name under `was`. Local only: after the start no
        one sends LobbyChanged."""
        changed = False
        for entry in self.lobby.get("seats", []):
            if entry.get("seat") in seats and entry.get("kind") != "bot":
                entry.update(kind="bot", was=entry.get("name", ""), taken_over=True)
                changed = True
        if changed:
            self.on_lobby_changed(self.lobby)

    def _ended(self, state: Any) -> None:
        self.phase = Phase.ENDED
        for call in self.offline.values():
            if call.active():
                call.cancel()
        self.offline.clear()
        self.on_ended(state)

    def _over(self) -> bool:
        return self.lockstep is not None and self.lockstep.ended

    def _desync(self, seat: int, step: int, mine: str, theirs: str) -> None:
        report = {"step": step, "seat": seat, "my_seat": self.my_seat, "my_hash": mine,
                  "their_hash": theirs, "versions": self.versions,
                  "log": self.lockstep.log if self.lockstep else []}
        base = self.opts.report_dir or (str(Path(self.save_path).parent) if self.save_path
                                        else os.getcwd())
        try:
            report["path"] = write_desync_report(base, report)
        except OSError as exc:
            log.error("could not write the desync report: %s", exc)
        log.error("DESYNC at step %d: seat %d has %s, I have %s (report %s)",
                  step, seat, theirs, mine, report.get("path"))
        self.desyncs.append(report)
        self.on_desync(report)
        conn = self._conn_for_seat(seat)
        if conn is not None:
            conn.drop(f"desync at step {step}: your state hash differs from mine", offender=False)
