"""No silent waiting: every input the table waits for has a deadline the players see.

Why: a player that stays connected but keeps an input back (a beacon link after it saw
the others' links and worked the draw out, a tower vote, an echo, its plan, its move)
stalled the table without limit and without a word: the heartbeats kept it "alive", so
neither the pause nor the take-over ever began. Now each seat the current step waits for
(`Lockstep.awaited`: only the seats whose own input is missing first, never one whose
input waits on another's, `net.lockstep.blame`, issue 52) has a clock for what it owes,
counted in the time this peer was awake (`Liveness.awake_seconds`, so my own stall is
nobody's silence); my own seat's clock runs only for my player's decisions:

- an input a program sends by itself (a beacon link, an echo, a bid or card opening, a
  tower vote): `AUTO_INPUT_TIME` seconds;
- a player's decision (a plan, a move, a draft card...): the table's turn timer
  (`--turn-time`, the host's value, sent in `GameStarted` and shown in the lobby).

Each clock is a countdown every window shows (`countdown`). When one runs out, the seat
is treated as silent: the same pause, countdown and take-over by the majority rule as a
dropped seat (`net.table.takeover.Takeover.input_overdue`), and the input arriving before
that countdown ends resumes the table. See docs/net.md ("No silent waiting") for what a
withholding player can gain (a re-roll of one draw) and what it costs (its seat).

Tests: tests/net/table/test_input_deadline.py.
"""

from __future__ import annotations

import logging
from typing import Any, TYPE_CHECKING

from net.lockstep.blame import Need
from net.table.liveness import Liveness
from net.table.options import TURN_TIME   # the default turn timer (kept here for its readers)
from net.table.shared import Roster, StartRecord, TableSetting, TableState
from net.transport.message_records import InputsAwaited

if TYPE_CHECKING:
    from net.table.missed_inputs import MissedInputs
    from net.table.takeover import Takeover
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

AUTO_INPUT_TIME = 10.0    # seconds for an input a program sends without its player
MIN_TURN_TIME = 10.0      # a turn timer the table accepts: 10 s to a day
MAX_TURN_TIME = 86_400.0


def turn_time_problem(seconds: object) -> str | None:
    """Why a turn timer is refused (a sentence), or None."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not MIN_TURN_TIME <= seconds <= MAX_TURN_TIME:
        return (f"the turn time must be between {MIN_TURN_TIME:g} and {MAX_TURN_TIME:g} "
                "seconds")
    return None


class InputDeadlines:
    """The clock of each seat the current step waits for; a clock run out is reported."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 start: StartRecord, liveness: Liveness, takeover: Takeover,
                 missed: MissedInputs) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._start = start
        self._liveness = liveness
        self._takeover = takeover
        self._missed = missed
        # (step, seat, what it owes) -> when this peer began waiting (awake clock)
        self._since: dict[tuple[int, int, Need], float] = {}
        # seat -> (step, what it owed) when its clock ran out here: its countdown stops
        # once it sent that (the step may then wait on it for its next phase: a new clock)
        self._overdue_for: dict[int, tuple[int, Need]] = {}
        # a spectator: what the player it follows said the table awaits (step, seat -> a
        # player's decision?); it is not sent the commitments and links, so cannot see
        self._told: tuple[int, dict[int, bool]] | None = None

    def inputs_reached(self, seat: int) -> None:
        """Inputs `seat` had missed were just relayed to it (`MissedInputs`, each signed
        message once per asker, so this cannot be repeated without end): the clock of
        what it owes the current step starts now. A seat whose input waited on what
        reached it only now was not silent (issue 52)."""
        ls = self._shared.lockstep
        if ls is None or self._takeover.is_overdue(seat):
            return
        now = self._liveness.awake_seconds()
        for key in [k for k in self._since if k[0] == ls.step and k[1] == seat]:
            self._since[key] = now

    def turn_time(self) -> float:
        """The table's turn timer: the host's, as `GameStarted` carried it."""
        info = self._start.info or {}
        value = info.get("turn_time")
        if isinstance(value, (int, float)) and turn_time_problem(value) is None:
            return float(value)
        return self._setting.opts.turn_time

    def watching(self) -> bool:
        """A spectator (or a peer following the table): it keeps the clocks to show them,
        from the step it learnt of, but never treats anyone as silent. It is not sent the
        plans' commitments or the beacon links: the player it follows tells it which
        inputs the step awaits (`InputsAwaited`, each heartbeat); until then it shows
        every seat's clock (one time: the step began for all at once)."""
        ls = self._shared.lockstep
        return self._shared.my_seat is None or (ls is not None and ls.following)

    def awaited(self) -> dict[int, bool]:
        """Seat -> a player's decision? (else an input its program sends by itself), for
        every seat but a bot's that the current step still waits for."""
        return {seat: need.decided for seat, need in self.needs().items()}

    def needs(self) -> dict[int, Need]:
        """Seat -> what it owes, for every seat the current step waits for: only those
        whose own input is missing first (`net.lockstep.blame`), never a seat whose
        input waits on another's."""
        ls = self._shared.lockstep
        if ls is None or ls.ended or self._shared.closed:
            return {}
        if self._told is not None and self._told[0] == ls.step and self.watching():
            return {s: Need.DECISION if human else Need.LINK
                    for s, human in self._told[1].items()}
        return {a.seat: a.need for a in ls.awaited() if a.seat not in ls.bots}

    def _waits(self) -> dict[int, tuple[Need, float]]:
        """Seat -> (what it owes, its time limit) for the inputs the table waits for now.
        A seat that dropped has the rejoin countdown instead."""
        table = self._shared
        watching = self.watching()
        waits: dict[int, tuple[Need, float]] = {}
        for seat, need in self.needs().items():
            if not watching and seat != table.my_seat and self._roster.conn_for_seat(seat) is None \
                    and not self._takeover.is_overdue(seat):
                continue
            waits[seat] = (need, self.turn_time() if need.decided else AUTO_INPUT_TIME)
        return waits

    def tell_spectators(self) -> None:
        """What the step awaits, to my spectators (they cannot see commitments)."""
        table = self._shared
        ls = table.lockstep
        if not self._roster.spectators or ls is None or self.watching():
            return
        seats = self.awaited()
        msg = {"type": "InputsAwaited", "step": ls.step,
               "decisions": sorted(s for s, human in seats.items() if human),
               "automatic": sorted(s for s, human in seats.items() if not human)}
        for conn in list(self._roster.spectators):
            conn.send(msg)

    def inputs_awaited(self, conn: PeerConnection, msg: InputsAwaited) -> None:
        """`InputsAwaited` from the player I follow (from anyone else: an offence)."""
        if conn is not self._roster.source:
            conn.offence("InputsAwaited from a peer we do not follow")
            return
        told = {s: True for s in msg["decisions"]}
        told.update({s: False for s in msg["automatic"] if s not in told})
        self._told = (msg["step"], told)

    def tick(self) -> None:
        """Look at the clocks (every heartbeat, about once a second). Each clock is one
        seat's for one input of one step: a seat that sent what it owed and is awaited
        again for the next phase of the step (an echo, then a bid) starts a new clock,
        and its countdown, if one ran, stops."""
        table = self._shared
        ls = table.lockstep
        self.tell_spectators()
        waits = self._waits()
        step = ls.step if ls is not None else -1
        now = self._liveness.awake_seconds()
        for key in [k for k in self._since if k[0] != step or waits.get(k[1], (None,))[0]
                    != k[2]]:
            del self._since[key]
        for seat in self._takeover.overdue_seats():
            if seat not in waits or self._takeover.overdue_step(seat) != step \
                    or self._overdue_for.get(seat) != (step, waits[seat][0]):
                self._overdue_for.pop(seat, None)
                self._takeover.input_arrived(seat)
        watching = self.watching()
        waited: dict[int, float] = {}
        for seat, (need, limit) in waits.items():
            since = self._since.setdefault((step, seat, need), now)
            if watching:             # a spectator shows the clocks; the players act on them
                continue
            waited[seat] = now - since
            if seat == table.my_seat and not need.decided:
                continue             # my program sends it: I am answering, never silent
            if now - since >= limit and not self._takeover.is_overdue(seat):
                what = "a decision" if need.decided else "an input its program sends by itself"
                self._overdue_for[seat] = (step, need)
                self._takeover.input_overdue(seat, step, limit, what)
        if not watching and ls is not None:
            # an input that did not reach me may have reached the others: ask them
            # (`net.table.missed_inputs`), before it looks like a silent seat; so may the
            # claims that gave a dropped seat to a bot while I was away
            for seat in self._takeover.claimed_without_agreement():
                waited.setdefault(seat, float("inf"))
            self._missed.ask(step, waited, now)
            self._takeover.look_again()

    def countdown(self) -> dict[int, float]:
        """Seat -> seconds left for the input the table waits for from it (a player's
        turn timer or an automatic input's few seconds); seats whose time ran out are in
        the take-over countdown instead (`Takeover.countdown`). For every window."""
        waits = self._waits()
        ls = self._shared.lockstep
        if ls is None:
            return {}
        now = self._liveness.awake_seconds()
        left = {}
        for seat, (need, limit) in waits.items():
            if self._takeover.is_overdue(seat):
                continue
            since = self._since.get((ls.step, seat, need), now)
            left[seat] = max(0.0, limit - (now - since))
        return left
