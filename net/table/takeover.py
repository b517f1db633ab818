"""Offline seats: the rejoin timeout, its countdown, take-overs by a bot, and the host
handing a dropped seat to a bot at once. A seat whose input is overdue
(`net.table.input_deadline`) takes the same path while still connected: it is "silent".

Why one place: a take-over is where a table could split; every path to it (timeout,
another peer's `SeatTakenOver`, the host's hand-over) checks the same no-split rule
(`net.table.liveness.Liveness.majority_here`).

Tests: tests/net/table/test_hand_to_bot.py, tests/net/table/test_session.py (take-overs),
tests/net/table/test_input_deadline.py (overdue inputs).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from net.table.drop_claims import DropClaims
from net.table.liveness import Liveness
from net.table.shared import DelayedCall, TableState

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Takeover:
    """The offline seats, when a bot may take each, and the take-overs themselves."""

    def __init__(self, shared: TableState, liveness: Liveness, claims: DropClaims,
                 begin_without_missing: Callable[[], None]) -> None:
        self._shared = shared
        self._liveness = liveness
        self._claims = claims
        # a seat that dropped in the start handshake timed out: begin without it
        # (`net.table.start_mesh.StartHandshake.maybe_begin`)
        self._begin_without_missing = begin_without_missing
        self._offline: dict[int, DelayedCall] = {}    # seat -> its take-over timer
        self._deadline: dict[int, float] = {}         # seat -> when a bot may take it
        self._overdue: dict[int, int] = {}            # seat -> the step its input is late for
        self.said_gone: set[int] = set()              # seats the players were told dropped

    def is_offline(self, seat: int | None) -> bool:
        return seat in self._offline

    # ---------------------------------------------------------------- overdue inputs
    def is_overdue(self, seat: int | None) -> bool:
        return seat in self._overdue

    def overdue_seats(self) -> list[int]:
        return sorted(self._overdue)

    def overdue_step(self, seat: int) -> int | None:
        return self._overdue.get(seat)

    def input_overdue(self, seat: int, step: int, waited: float, what: str) -> None:
        """The table waited `waited` seconds for `seat`'s input at `step`: the seat counts
        as silent, connected or not. The rejoin countdown runs (every window shows it);
        when it ends a bot takes the seat by the majority rule, unless the input came."""
        table = self._shared
        if seat in self._overdue or seat in self._offline:
            return
        self._overdue[seat] = step
        timeout = table.opts.rejoin_timeout
        self.start_timeout(seat, timeout)
        reason = (f"seat {seat} ({table.name_of_seat(seat)}) sent nothing for {waited:g} s; "
                  f"a bot takes the seat in {timeout:g} s unless it plays")
        log.warning("%s (%s)", reason, what)
        table.callbacks.on_paused(reason)

    def input_arrived(self, seat: int) -> None:
        """An overdue seat's input came (or the step moved on): its countdown stops."""
        if self._overdue.pop(seat, None) is None:
            return
        log.info("seat %d played after all: its take-over countdown stops", seat)
        if self._shared.conn_for_seat(seat) is not None or seat == self._shared.my_seat:
            self.cancel_timeout(seat)
            self.maybe_resumed()

    def offline_seats(self) -> list[int]:
        """Seats that dropped and may still rejoin."""
        return sorted(self._offline)

    def cancel_all(self) -> None:
        """No seat waits for a take-over any more (the game ended, or I left it)."""
        for call in self._offline.values():
            if call.active():
                call.cancel()
        self._offline.clear()

    def countdown(self) -> dict[int, float]:
        """Seat -> seconds left before a bot takes that offline seat (0 once the time is
        up and the take-over waits for the step that needs the seat, or for a majority).
        Empty when no seat is offline. A seat only this peer parted from (a drop for
        offences the others did not join) has no countdown: no bot takes it from here.
        For the window's countdown."""
        now = self._shared.reactor.seconds()
        return {seat: max(0.0, self._deadline.get(seat, now) - now)
                for seat in sorted(self._offline)
                if seat not in self._claims.parted or self._claims.claims_carry(seat)}

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only: a bot plays the offline `seat` now, instead of after the rejoin
        timeout (from the first step that needs the seat, as for the timeout). The same
        no-split rule holds: the host's side must hold more than half of the table's
        players. Raises ValueError with a sentence for the player otherwise."""
        table = self._shared
        if not table.is_host:
            raise ValueError("only the host can hand a seat to a bot")
        if table.lockstep is None or table.over():
            raise ValueError("there is no game running in which to hand over a seat")
        if seat == table.my_seat:
            raise ValueError("you cannot hand your own seat to a bot")
        if seat in table.lockstep.bots:
            raise ValueError(f"seat {seat} is already played by a bot")
        name = table.name_of_seat(seat)
        if seat not in self._offline or table.conn_for_seat(seat) is not None:
            raise ValueError(f"{name} (seat {seat}) is not offline; only a dropped "
                             "player's seat can be handed to a bot")
        live, humans = self._liveness.live_players(seat)
        if 2 * len(live) <= len(humans):
            raise ValueError(f"only {len(live)} of {len(humans)} players are connected "
                             "here; a bot may take a seat only when more than half of the "
                             "players are connected, so the table waits for the others")
        log.warning("the host hands seat %d (%s) to a bot", seat, name)
        self.cancel_timeout(seat)
        self.start_timeout(seat, 0.0)

    def hand_barred_seat(self, seat: int) -> None:
        """The table agreed to drop `seat` for offences, and it was dropped here for
        offences before (`net.table.report_counting`): it will not be let back in, so no
        rejoin countdown; a bot takes it from the first step that needs it, by the same
        rule as any take-over."""
        table = self._shared
        now = table.reactor.seconds()
        if table.lockstep is None or table.over() or seat in table.lockstep.bots \
                or seat == table.my_seat \
                or (seat in self._offline and self._deadline.get(seat, now + 1.0) <= now):
            return              # (its countdown has run out already)
        self.cancel_timeout(seat)
        self.start_timeout(seat, 0.0)
        reason = (f"seat {seat} ({table.name_of_seat(seat)}) was dropped twice for "
                  "offences; a bot takes the seat")
        log.warning(reason)
        table.callbacks.on_paused(reason)

    def start_timeout(self, seat: int, timeout: float) -> None:
        """`seat` went offline: a bot may take it once `timeout` seconds have passed."""
        reactor = self._shared.reactor
        self._deadline[seat] = reactor.seconds() + timeout
        self._offline[seat] = reactor.callLater(timeout, self._timed_out, seat)

    def watch_absent_seats(self) -> None:
        """Players I have no connection to (yet) get the rejoin timeout, as if they had
        just dropped: one that never shows up, or that the others already gave up
        waiting for while I was away, is taken over like any dropped seat."""
        table = self._shared
        bots = table.lockstep.bots if table.lockstep is not None else set()
        for seat in table.humans():
            if seat != table.my_seat and seat not in bots and seat not in self._offline \
                    and table.conn_for_seat(seat) is None:
                self.start_timeout(seat, table.opts.rejoin_timeout)

    def _timed_out(self, seat: int) -> None:
        table = self._shared
        self._offline.pop(seat, None)
        overdue = seat in self._overdue
        if (table.conn_for_seat(seat) is not None and not overdue) or table.closed:
            return
        if table.lockstep is None:
            self._begin_without_missing()       # it dropped in the start handshake
        if table.lockstep is None or table.over() or seat in table.lockstep.bots:
            return
        again = lambda: table.reactor.callLater(1.0, self._timed_out, seat)  # noqa: E731
        if seat not in table.lockstep.waiting_for():
            # not blocked on that seat yet: look again soon (everyone takes over at the
            # same step: the first one that needs the missing seat)
            self._offline[seat] = again()
            return
        if seat in self._claims.parted and not self._claims.claims_carry(seat):
            # only I lost it (a drop for offences the others did not join): they still
            # hear it and pass its messages on; a bot takes it only if they say so
            self._offline[seat] = again()
            return
        step = table.lockstep.step
        if seat == table.my_seat:            # my own time ran out: the others take it too
            self._deadline.pop(seat, None)
            self._overdue.pop(seat, None)
            log.warning("my seat %d sent nothing in time: a bot plays it from step %d",
                        seat, step)
            table.lockstep.take_over(seat, step)
            self.maybe_resumed()
            return
        if not self._liveness.majority_here(seat):
            self._offline[seat] = again()
            return
        self._deadline.pop(seat, None)
        self._overdue.pop(seat, None)
        log.warning("seat %d did not %s in time: a bot plays it from step %d", seat,
                    "play" if overdue else "rejoin", step)
        table.broadcast({"type": "SeatTakenOver", "step": step, "seat": seat})
        table.lockstep.take_over(seat, step)
        self.maybe_resumed()

    def seat_taken_over(self, conn: PeerConnection, msg: dict) -> None:
        """Another player's `SeatTakenOver`."""
        table = self._shared
        seat = msg["seat"]
        if table.lockstep is None and table.role == "resume":
            return                  # the log I am catching up from carries the take-over
        if table.lockstep is None and table.conn_for_seat(seat) is None:
            self._begin_without_missing()       # it dropped in the start handshake
        if conn.seat is None or table.lockstep is None or seat == conn.seat:
            conn.offence("SeatTakenOver from a connection that cannot send it")
            return
        if seat == table.my_seat and seat not in self._overdue:
            conn.offence(f"SeatTakenOver of my own seat {seat}: I am here")
            return
        if table.conn_for_seat(seat) is not None and seat not in self._overdue:
            log.warning("ignored take-over of seat %d from seat %s: it is connected here",
                        seat, conn.seat)
            return
        if msg["step"] < table.lockstep.step and seat not in table.lockstep.bots:
            # a step I am past: the sender's history differs from mine (hashes will
            # show which side is alone); my own timer still decides for my history
            log.warning("take-over of seat %d at past step %d ignored (now %d)",
                        seat, msg["step"], table.lockstep.step)
            return
        self.cancel_timeout(seat)
        self._overdue.pop(seat, None)
        table.lockstep.take_over(seat, msg["step"])
        self.maybe_resumed()

    def back_online(self, seat: int) -> None:
        if seat in self.said_gone:
            # every peer that said the seat dropped says it is back (a player whose
            # window was busy, counted as gone, must not stay "dropped" on screen)
            self.said_gone.discard(seat)
            news = f"seat {seat} ({self._shared.name_of_seat(seat)}) is back"
            log.warning(news)
            self._shared.callbacks.on_notice(news)
        if seat in self._overdue:
            return          # connected is not enough: its countdown stops when it plays
        self.cancel_timeout(seat)
        self.maybe_resumed()

    def cancel_timeout(self, seat: int) -> None:
        self._deadline.pop(seat, None)
        call = self._offline.pop(seat, None)
        if call is not None and call.active():
            call.cancel()

    def maybe_resumed(self) -> None:
        if not self._offline:
            self._shared.callbacks.on_resumed()
