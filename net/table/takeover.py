"""Offline seats: the rejoin timeout, its countdown, take-overs by a bot, and the host
handing a dropped seat to a bot at once.

Why one place: a take-over is where a table could split; every path to it (timeout,
another peer's `SeatTakenOver`, the host's hand-over) checks the same no-split rule
(`net.table.liveness.Liveness._majority_here`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Takeover:
    """Mixed into `net.table.session.TableSession`."""

    def takeover_countdown(self) -> dict[int, float]:
        """Seat -> seconds left before a bot takes that offline seat (0 once the time is
        up and the take-over waits for the step that needs the seat, or for a majority).
        Empty when no seat is offline. A seat only this peer parted from (a drop for
        offences the others did not join) has no countdown: no bot takes it from here.
        For the window's countdown."""
        now = self.reactor.seconds()
        return {seat: max(0.0, self.takeover_deadline.get(seat, now) - now)
                for seat in sorted(self.offline)
                if seat not in self.parted or self._claims_carry(seat)}

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only: a bot plays the offline `seat` now, instead of after the rejoin
        timeout (from the first step that needs the seat, as for the timeout). The same
        no-split rule holds: the host's side must hold more than half of the table's
        players. Raises ValueError with a sentence for the player otherwise."""
        if not self.is_host:
            raise ValueError("only the host can hand a seat to a bot")
        if self.lockstep is None or self._over():
            raise ValueError("there is no game running in which to hand over a seat")
        if seat == self.my_seat:
            raise ValueError("you cannot hand your own seat to a bot")
        if seat in self.lockstep.bots:
            raise ValueError(f"seat {seat} is already played by a bot")
        name = self._name_of_seat(seat)
        if seat not in self.offline or self._conn_for_seat(seat) is not None:
            raise ValueError(f"{name} (seat {seat}) is not offline; only a dropped "
                             "player's seat can be handed to a bot")
        live, humans = self._live_players(seat)
        if 2 * len(live) <= len(humans):
            raise ValueError(f"only {len(live)} of {len(humans)} players are connected "
                             "here; a bot may take a seat only when more than half of the "
                             "players are connected, so the table waits for the others")
        log.warning("the host hands seat %d (%s) to a bot", seat, name)
        self._cancel_timeout(seat)
        self._start_timeout(seat, 0.0)

    def _start_timeout(self, seat: int, timeout: float) -> None:
        """`seat` went offline: a bot may take it once `timeout` seconds have passed."""
        self.takeover_deadline[seat] = self.reactor.seconds() + timeout
        self.offline[seat] = self.reactor.callLater(timeout, self._timed_out, seat)

    def _timed_out(self, seat: int) -> None:
        self.offline.pop(seat, None)
        if self._conn_for_seat(seat) is not None or self.closed:
            return
        if self.lockstep is None:
            self._maybe_begin(without_missing=True)   # it dropped in the start handshake
        if self.lockstep is None or self._over() or seat in self.lockstep.bots:
            return
        if seat not in self.lockstep.waiting_for():
            # not blocked on that seat yet: look again soon (everyone takes over at the
            # same step: the first one that needs the missing seat)
            self.offline[seat] = self.reactor.callLater(1.0, self._timed_out, seat)
            return
        if seat in self.parted and not self._claims_carry(seat):
            # only I lost it (a drop for offences the others did not join): they still
            # hear it and pass its messages on; a bot takes it only if they say so
            self.offline[seat] = self.reactor.callLater(1.0, self._timed_out, seat)
            return
        if not self._majority_here(seat):
            self.offline[seat] = self.reactor.callLater(1.0, self._timed_out, seat)
            return
        step = self.lockstep.step
        self.takeover_deadline.pop(seat, None)
        log.warning("seat %d did not rejoin in time: a bot plays it from step %d", seat, step)
        self._broadcast({"type": "SeatTakenOver", "step": step, "seat": seat})
        self.lockstep.take_over(seat, step)
        self._maybe_resumed()

    def _on_SeatTakenOver(self, conn: PeerConnection, msg: dict) -> None:
        seat = msg["seat"]
        if self.lockstep is None and self.role == "resume":
            return                  # the log I am catching up from carries the take-over
        if self.lockstep is None and self._conn_for_seat(seat) is None:
            self._maybe_begin(without_missing=True)   # it dropped in the start handshake
        if conn.seat is None or self.lockstep is None or seat == conn.seat:
            conn.offence("SeatTakenOver from a connection that cannot send it")
            return
        if seat == self.my_seat:
            conn.offence(f"SeatTakenOver of my own seat {seat}: I am here")
            return
        if self._conn_for_seat(seat) is not None:
            log.warning("ignored take-over of seat %d from seat %s: it is connected here",
                        seat, conn.seat)
            return
        if msg["step"] < self.lockstep.step and seat not in self.lockstep.bots:
            # a step I am past: the sender's history differs from mine (hashes will
            # show which side is alone); my own timer still decides for my history
            log.warning("take-over of seat %d at past step %d ignored (now %d)",
                        seat, msg["step"], self.lockstep.step)
            return
        self._cancel_timeout(seat)
        self.lockstep.take_over(seat, msg["step"])
        self._maybe_resumed()

    def _back_online(self, seat: int) -> None:
        self._cancel_timeout(seat)
        self._maybe_resumed()

    def _cancel_timeout(self, seat: int) -> None:
        self.takeover_deadline.pop(seat, None)
        call = self.offline.pop(seat, None)
        if call is not None and call.active():
            call.cancel()

    def _maybe_resumed(self) -> None:
        if not self.offline:
            self.on_resumed()
