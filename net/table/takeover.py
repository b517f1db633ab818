"""Offline seats: the rejoin timeout, its countdown, take-overs by a bot, and the host
handing a dropped seat to a bot at once. A seat whose input is overdue
(`net.table.input_deadline`) takes the same path while still connected: it is "silent".

Why one place: a take-over is where a table could split, or where one peer could take a
present player's seat. Every path to it (a dropped seat's timeout, an overdue input's
countdown, the host's hand-over) ends in the same agreement
(`net.table.policy.takeover_agreement.agreed`): each player whose countdown for the seat ran out
on its own clock signs a claim (`TakeoverClaimed`) for the step the table waits at, and
a bot takes the seat there once claims of more than half of the table's human players
are held. One peer's claim is never enough, and a peer never gives up its own seat while
its own countdown runs.

Tests: tests/net/table/test_hand_to_bot.py, tests/net/table/test_session.py (take-overs),
tests/net/table/test_input_deadline.py (overdue inputs), tests/net/table/
test_takeover_agreement.py (the policy), tests/net/trust/test_takeover_attacks.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, TYPE_CHECKING

from net.lockstep.step_inbox import STALE_GRACE
from net.table.drop_claims import DropClaims
from net.table.seat_signer import SeatSigner
from net.table.liveness import Liveness
from net.table.shared import DelayedCall, Identity, Roster, StartRecord, TableSetting, TableState
from net.table.policy.takeover_agreement import SeatWait, agreed
from net.transport.message_records import TakeoverClaimed

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

HOST_SEAT = 0       # the host sits at seat 0 (`TableSession.host`)


@dataclass(frozen=True)
class Countdown:
    """One seat's way to a take-over here. `Takeover` owns one per seat while any part
    of it is set, and replaces it whole; an empty one is dropped."""

    timer: DelayedCall | None = None    # the call that looks at the seat next: set while
                                        # the seat is offline (dropped or silent) here
    deadline: float | None = None       # when a bot may take the seat (reactor seconds)
    overdue_step: int | None = None     # the step its input is late for (a silent seat)
    ran_out: bool = False               # the countdown ran out here (I may claim the seat)

    @property
    def offline(self) -> bool:
        return self.timer is not None

    @property
    def overdue(self) -> bool:
        return self.overdue_step is not None

    def empty(self) -> bool:
        return self == Countdown()

    def stopped(self) -> Countdown:
        """No countdown runs for the seat any more; an overdue input stays overdue (its
        countdown stops when the seat plays, `Takeover.input_arrived`)."""
        return Countdown(overdue_step=self.overdue_step)


def _stop(timer: DelayedCall | None) -> None:
    if timer is not None and timer.active():
        timer.cancel()


class Takeover:
    """The offline seats, when a bot may take each, and the take-overs themselves."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, liveness: Liveness, claims: DropClaims,
                 signer: SeatSigner, begin_without_missing: Callable[[], None]) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._liveness = liveness
        self._claims = claims
        self._signer = signer
        # a seat that dropped in the start handshake timed out: begin without it
        # (`net.table.before_start.start_mesh.StartHandshake.maybe_begin`)
        self._begin_without_missing = begin_without_missing
        self._countdowns: dict[int, Countdown] = {}   # seat -> its countdown, if any
        self.said_gone: set[int] = set()              # seats the players were told dropped

        # (seat, step) -> claimant -> its signed TakeoverClaimed (mine included)
        self._held: dict[tuple[int, int], dict[int, Mapping[str, object]]] = {}
        self._refused: set[tuple[int, int]] = set()   # claims on my seat I refused (logged)
        self._said: set[tuple[int, int]] = set()      # ... by a majority (my player told)
        # seat -> the players whose claims gave it to a bot here (the lobby shows them)
        self.claimed_by: dict[int, list[int]] = {}

    def _of(self, seat: int | None) -> Countdown:
        return self._countdowns.get(seat, Countdown()) if seat is not None else Countdown()

    def _put(self, seat: int, countdown: Countdown) -> None:
        if countdown.empty():
            self._countdowns.pop(seat, None)
        else:
            self._countdowns[seat] = countdown

    def _offline_seats(self) -> list[int]:
        return sorted(s for s, c in self._countdowns.items() if c.offline)

    def is_offline(self, seat: int | None) -> bool:
        return self._of(seat).offline

    # ---------------------------------------------------------------- overdue inputs
    def is_overdue(self, seat: int | None) -> bool:
        return self._of(seat).overdue

    def overdue_seats(self) -> list[int]:
        return sorted(s for s, c in self._countdowns.items() if c.overdue)

    def overdue_step(self, seat: int) -> int | None:
        return self._of(seat).overdue_step

    def input_overdue(self, seat: int, step: int, waited: float, what: str) -> None:
        """The table waited `waited` seconds for `seat`'s input at `step`: the seat counts
        as silent, connected or not. The rejoin countdown runs (every window shows it);
        when it ends a bot takes the seat by the majority rule, unless the input came."""
        if self.is_overdue(seat) or self.is_offline(seat):
            return
        self._put(seat, replace(self._of(seat), overdue_step=step))
        timeout = self._start.rejoin_timeout()
        self.start_timeout(seat, timeout)
        reason = (f"seat {seat} ({self._start.name_of_seat(seat)}) sent nothing for {waited:g} s; "
                  f"a bot takes the seat in {timeout:g} s unless it plays")
        log.warning("%s (%s)", reason, what)
        self._setting.callbacks.on_paused(reason)

    def input_arrived(self, seat: int) -> None:
        """An overdue seat's input came (or the step moved on): its countdown stops."""
        if not self.is_overdue(seat):
            return
        self._put(seat, replace(self._of(seat), overdue_step=None, ran_out=False))
        log.info("seat %d played after all: its take-over countdown stops", seat)
        if self._roster.conn_for_seat(seat) is not None or seat == self._shared.my_seat:
            self.cancel_timeout(seat)
            self.maybe_resumed()

    def offline_seats(self) -> list[int]:
        """Seats that dropped and may still rejoin."""
        return self._offline_seats()

    def cancel_all(self) -> None:
        """No seat waits for a take-over any more (the game ended, or I left it)."""
        for seat in self._offline_seats():
            countdown = self._of(seat)
            _stop(countdown.timer)
            self._put(seat, replace(countdown, timer=None))

    def countdown(self) -> dict[int, float]:
        """Seat -> seconds left before a bot takes that offline seat (0 once the time is
        up and the take-over waits for the step that needs the seat, or for a majority).
        Empty when no seat is offline. A seat only this peer parted from (a drop for
        offences the others did not join) has no countdown: no bot takes it from here.
        For the window's countdown."""
        now = self._setting.reactor.seconds()
        return {seat: max(0.0, (c.deadline if c.deadline is not None else now) - now)
                for seat, c in sorted(self._countdowns.items()) if c.offline
                and (seat not in self._claims.parted or self._claims.claims_carry(seat))}

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only: my countdown for the offline `seat` ends now, and I claim its
        take-over. Every player that lost the seat too ends its countdown on my claim
        and claims as well (`claim_received`): a seat that dropped from everyone goes to
        a bot at once, one that still answers someone does not. Raises ValueError with a
        sentence for the player when the host's side holds no majority of the table."""
        table = self._shared
        if not self._me.is_host:
            raise ValueError("only the host can hand a seat to a bot")
        if table.lockstep is None or table.over():
            raise ValueError("there is no game running in which to hand over a seat")
        if seat == table.my_seat:
            raise ValueError("you cannot hand your own seat to a bot")
        if seat in table.lockstep.bots:
            raise ValueError(f"seat {seat} is already played by a bot")
        name = self._start.name_of_seat(seat)
        if not self.is_offline(seat) or self._roster.conn_for_seat(seat) is not None:
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
        offences before (`net.table.policy.report_counting`): it will not be let back in, so no
        rejoin countdown; a bot takes it from the first step that needs it, by the same
        rule as any take-over."""
        table = self._shared
        now = self._setting.reactor.seconds()
        countdown = self._of(seat)
        if table.lockstep is None or table.over() or seat in table.lockstep.bots \
                or seat == table.my_seat \
                or (countdown.offline and countdown.deadline is not None
                    and countdown.deadline <= now):
            return              # (its countdown has run out already)
        self.cancel_timeout(seat)
        self.start_timeout(seat, 0.0)
        reason = (f"seat {seat} ({self._start.name_of_seat(seat)}) was dropped twice for "
                  "offences; a bot takes the seat")
        log.warning(reason)
        self._setting.callbacks.on_paused(reason)

    def start_timeout(self, seat: int, timeout: float) -> None:
        """`seat` went offline: a bot may take it once `timeout` seconds have passed."""
        reactor = self._setting.reactor
        deadline = reactor.seconds() + timeout
        timer = reactor.callLater(timeout, self._timed_out, seat)
        self._put(seat, replace(self._of(seat), deadline=deadline, timer=timer))

    def watch_absent_seats(self) -> None:
        """Players I have no connection to (yet) get the rejoin timeout, as if they had
        just dropped: one that never shows up, or that the others already gave up
        waiting for while I was away, is taken over like any dropped seat."""
        table = self._shared
        bots = table.lockstep.bots if table.lockstep is not None else set()
        for seat in self._start.humans():
            if seat != table.my_seat and seat not in bots and not self.is_offline(seat) \
                    and self._roster.conn_for_seat(seat) is None:
                self.start_timeout(seat, self._start.rejoin_timeout())

    def _timed_out(self, seat: int) -> None:
        """`seat`'s countdown ran out here: I claim the take-over (signed), and a bot
        takes the seat once the table agrees (`net.table.policy.takeover_agreement`). Looked at
        again every second until then: the step may not need the seat yet, or the claims
        of the others may still be on their way."""
        table = self._shared
        self._put(seat, replace(self._of(seat), timer=None))
        overdue = self.is_overdue(seat)
        if (self._roster.conn_for_seat(seat) is not None and not overdue
                and seat != table.my_seat) or table.closed:
            return
        if table.lockstep is None:
            self._begin_without_missing()       # it dropped in the start handshake
        if table.lockstep is None or table.over() or seat in table.lockstep.bots:
            return
        self._put(seat, replace(self._of(seat), ran_out=True))

        def again() -> None:
            timer = self._setting.reactor.callLater(1.0, self._timed_out, seat)
            self._put(seat, replace(self._of(seat), timer=timer))
        if seat not in table.lockstep.waiting_for():
            # not blocked on that seat yet: look again soon (everyone takes over at the
            # same step: the first one that needs the missing seat)
            again()
            return
        if seat in self._claims.parted and not self._claims.claims_carry(seat):
            # only I lost it (a drop for offences the others did not join): they still
            # hear it and pass its messages on; a bot takes it only if they say so
            again()
            return
        if not self._decide(seat):
            again()

    def claimed_without_agreement(self) -> list[int]:
        """Seats whose countdown ran out here, that the step still waits for, and that no
        majority has given to a bot here yet: the others may have agreed while I was
        away (a resumed peer), so their claims are asked for like missed inputs."""
        ls = self._shared.lockstep
        if ls is None or ls.following:
            return []
        waiting = ls.waiting_for()
        return sorted(s for s, c in self._countdowns.items() if c.ran_out
                      and s in waiting and s not in ls.bots and s != self._shared.my_seat)

    # ---------------------------------------------------------------- the agreement
    def _in_play(self) -> frozenset[int]:
        table = self._shared
        bots = table.lockstep.bots if table.lockstep is not None else set()
        return frozenset(s for s in self._start.humans() if s not in bots)

    def _decide(self, seat: int) -> bool:
        """Claim `seat`'s take-over if its countdown ran out here, and take it over if
        the table agrees. True if a bot plays it now."""
        table = self._shared
        ls = table.lockstep
        if ls is None or ls.following or table.over() or seat in ls.bots:
            return ls is not None and seat in ls.bots
        step = ls.step
        blamed = frozenset(ls.waiting_for())
        awaited = seat in blamed
        over = self._of(seat).ran_out
        if over and awaited and seat != table.my_seat and table.my_seat not in blamed:
            self._claim(seat, step)
        held = {claimant: msg for claimant, msg in self.claims_for(seat, step).items()
                if msg["hash"] == ls.hash}
        verdict = agreed(SeatWait(seat=seat, step=step, humans=self._in_play(),
                                  me=table.my_seat, awaited=awaited, countdown_over=over,
                                  claimants=frozenset(held), blamed=blamed))
        if verdict.refused:
            self._refuse(seat, step, held)
            return False
        if not verdict.take_over:
            if over and awaited and seat != table.my_seat:
                self._liveness.majority_here(seat)     # says so once if I am cut off
            return False
        _stop(self._countdowns.pop(seat, Countdown()).timer)
        named = self._named(verdict.agreed)
        self.claimed_by[seat] = sorted(verdict.agreed)
        if seat == table.my_seat:
            log.warning("my seat %d sent nothing in time: a bot plays it from step %d (%s: %s)",
                        seat, step, verdict.reason, named)
        else:
            log.warning("seat %d did not play in time: a bot plays it from step %d (%s: %s)",
                        seat, step, verdict.reason, named)
        ls.take_over(seat, step)
        self.maybe_resumed()
        return True

    def _named(self, seats: frozenset[int] | set[int] | list[int]) -> str:
        """"seats 0 (Ann), 1 (Bo) and 3 (Cy)": who said so, for the players."""
        names = [f"{s} ({self._start.name_of_seat(s)})" for s in sorted(seats)]
        if len(names) < 2:
            return "seat " + "".join(names)
        return "seats " + ", ".join(names[:-1]) + " and " + names[-1]

    def _refuse(self, seat: int, step: int, held: Mapping[int, object]) -> None:
        """Claims on my own seat while I answer: kept, never obeyed. Once they are more
        than half of the table, my player is told in words who says so and why: my seat
        stays mine here (a program sending its inputs is never told it is a bot)."""
        if not held:
            return
        if (seat, step) not in self._refused:
            self._refused.add((seat, step))
            log.warning("seats %s claim my seat %d for a bot at step %d; refused: my "
                        "countdown has not run out", sorted(held), seat, step)
        humans = self._in_play()
        if 2 * len(set(held) & humans) <= len(humans) or (seat, step) in self._said:
            return
        self._said.add((seat, step))
        seats = ", ".join(f"{s} ({self._start.name_of_seat(s)})" for s in sorted(held))
        news = (f"players {seats} claim your seat for a bot at step {step}, saying it sent "
                "nothing in time; you are playing, so your seat stays yours here")
        log.warning(news)
        self._setting.callbacks.on_notice(news)

    def _claim(self, seat: int, step: int) -> None:
        """My signed word that `seat`'s countdown ran out here at `step`, to everyone."""
        table = self._shared
        me = table.my_seat
        ls = table.lockstep
        if me is None or ls is None or me not in self._in_play() \
                or me in self.claims_for(seat, step):
            return
        msg = self._signer.sign({"type": "TakeoverClaimed", "step": step, "seat": me,
                                 "absent": seat, "hash": ls.hash})
        self._held.setdefault((seat, step), {})[me] = msg
        log.warning("seat %d's countdown ran out here at step %d: I claim its take-over "
                    "(a bot plays it once more than half of the players agree)", seat, step)
        self._roster.broadcast(msg)

    def claims_for(self, seat: int, step: int) -> dict[int, Mapping[str, object]]:
        """The signed claims I hold that `seat`'s countdown ran out at `step`
        (claimant -> its `TakeoverClaimed`), mine included."""
        return self._held.get((seat, step), {})

    def look_again(self) -> None:
        """Every heartbeat: claims that came before I reached their step count now."""
        ls = self._shared.lockstep
        if ls is None or ls.following:
            return
        for key in [k for k in self._held if k[1] < ls.step - STALE_GRACE]:
            del self._held[key]
        for seat, step in [k for k in self._held if k[1] == ls.step]:
            if seat not in ls.bots:
                self._decide(seat)

    def takeover_claimed(self, conn: PeerConnection, msg: TakeoverClaimed) -> None:
        """Another player's `TakeoverClaimed`."""
        table = self._shared
        if table.lockstep is None and table.role == "resume":
            return                  # the log I am catching up from carries the take-over
        if conn.seat is None or conn.role == "spectator" or conn is self._roster.source \
                or msg["seat"] != conn.seat or msg["absent"] == conn.seat:
            conn.offence("TakeoverClaimed from a connection that cannot send it")
            return
        if not self._signer.signed_by_seat(conn.seat, msg):
            conn.offence(f"TakeoverClaimed is not signed by seat {conn.seat}'s key")
            return
        if table.lockstep is None and self._roster.conn_for_seat(msg["absent"]) is None:
            self._begin_without_missing()       # it dropped in the start handshake
        self.claim_received(msg, from_host=conn is self._roster.host_conn or conn.seat == HOST_SEAT)

    def claim_received(self, msg: TakeoverClaimed, from_host: bool = False) -> None:
        """A checked, signed claim (from its player, or relayed by another). Kept for its
        step; it counts towards the agreement there. A claim from the host for a seat that
        dropped here too is its hand-over: my countdown for that seat ends now, so I
        claim as well (a seat still answering me is never handed over)."""
        table = self._shared
        ls = table.lockstep
        seat, step, claimant = msg["absent"], msg["step"], msg["seat"]
        if ls is None or ls.following or step < ls.step or step > ls.step + STALE_GRACE \
                or seat not in self._in_play() or claimant not in self._in_play():
            return
        self._held.setdefault((seat, step), {})[claimant] = msg
        log.warning("seat %d claims seat %d's take-over at step %d (held: seats %s)",
                    claimant, seat, step, sorted(self._held[(seat, step)]))
        if from_host and seat != table.my_seat and self._roster.conn_for_seat(seat) is None \
                and self.is_offline(seat) and not self._of(seat).ran_out:
            log.warning("the host hands the dropped seat %d to a bot; it dropped here too",
                        seat)
            self.cancel_timeout(seat)
            self.start_timeout(seat, 0.0)
            return
        if step == ls.step:
            self._decide(seat)

    def back_online(self, seat: int) -> None:
        if seat in self.said_gone:
            # every peer that said the seat dropped says it is back (a player whose
            # window was busy, counted as gone, must not stay "dropped" on screen)
            self.said_gone.discard(seat)
            news = f"seat {seat} ({self._start.name_of_seat(seat)}) is back"
            log.warning(news)
            self._setting.callbacks.on_notice(news)
        if self.is_overdue(seat):
            return          # connected is not enough: its countdown stops when it plays
        self.cancel_timeout(seat)
        self.maybe_resumed()

    def cancel_timeout(self, seat: int) -> None:
        countdown = self._of(seat)
        _stop(countdown.timer)
        self._put(seat, countdown.stopped())

    def maybe_resumed(self) -> None:
        if not self._offline_seats():
            self._setting.callbacks.on_resumed()
