"""No silent waiting: every input the table waits for has a deadline the players see.

Why: a player that stays connected but keeps an input back (a beacon link after it saw
the others' links and worked the draw out, a tower vote, an echo, its plan, its move)
stalled the table without limit and without a word: the heartbeats kept it "alive", so
neither the pause nor the take-over ever began. Now each seat the current step waits for
(`Lockstep.waiting_for`) has a clock, counted in the time this peer was awake
(`Liveness.awake_seconds`, so my own stall is nobody's silence):

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
from typing import TYPE_CHECKING

from net.table.liveness import Liveness
from net.table.shared import TableState
from sim.state import DecisionKind

if TYPE_CHECKING:
    from net.table.takeover import Takeover

log = logging.getLogger("net.table.session")

AUTO_INPUT_TIME = 10.0    # seconds for an input a program sends without its player
TURN_TIME = 300.0         # the default turn timer: seconds for a player's decision
MIN_TURN_TIME = 10.0      # a turn timer the table accepts: 10 s to a day
MAX_TURN_TIME = 86_400.0
_AUTOMATIC = (DecisionKind.CHANCE, DecisionKind.TOWER, DecisionKind.OPEN)


def turn_time_problem(seconds: object) -> str | None:
    """Why a turn timer is refused (a sentence), or None."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not MIN_TURN_TIME <= seconds <= MAX_TURN_TIME:
        return (f"the turn time must be between {MIN_TURN_TIME:g} and {MAX_TURN_TIME:g} "
                "seconds")
    return None


class InputDeadlines:
    """The clock of each seat the current step waits for; a clock run out is reported."""

    def __init__(self, shared: TableState, liveness: Liveness, takeover: Takeover) -> None:
        self._shared = shared
        self._liveness = liveness
        self._takeover = takeover
        # (step, seat, a player's decision?) -> when this peer began waiting (awake clock)
        self._since: dict[tuple[int, int, bool], float] = {}

    def turn_time(self) -> float:
        """The table's turn timer: the host's, as `GameStarted` carried it."""
        info = self._shared.start_info or {}
        value = info.get("turn_time")
        if isinstance(value, (int, float)) and turn_time_problem(value) is None:
            return float(value)
        return self._shared.opts.turn_time

    def watching(self) -> bool:
        """A spectator (or a peer following the table): it keeps the clocks to show them,
        from the step it learnt of, but never treats anyone as silent. It is not sent the
        plans' commitments or the beacon links, so at such a step it shows every seat's
        clock (one time: the step began for all at once)."""
        ls = self._shared.lockstep
        return self._shared.my_seat is None or (ls is not None and ls.following)

    def _waits(self) -> dict[int, tuple[bool, float]]:
        """Seat -> (a player's decision?, its time limit) for the inputs the table waits
        for now. A seat that dropped has the rejoin countdown instead."""
        table = self._shared
        ls = table.lockstep
        if ls is None or ls.ended or table.closed:
            return {}
        watching = self.watching()
        d = ls.decision()
        box = ls.inbox.get(ls.step)
        waits: dict[int, tuple[bool, float]] = {}
        for seat in ls.waiting_for():
            if seat in ls.bots or (not watching and seat != table.my_seat
                                   and table.conn_for_seat(seat) is None
                                   and not self._takeover.is_overdue(seat)):
                continue
            if d.kind in _AUTOMATIC:
                human = False
            elif d.kind == DecisionKind.PLAN:      # its plan, or then its echo and bid
                human = box is None or seat not in box.commits
            else:
                human = True
            waits[seat] = (human, self.turn_time() if human else AUTO_INPUT_TIME)
        return waits

    def tick(self) -> None:
        """Look at the clocks (every heartbeat, about once a second)."""
        table = self._shared
        ls = table.lockstep
        waits = self._waits()
        step = ls.step if ls is not None else -1
        now = self._liveness.awake_seconds()
        for key in [k for k in self._since if k[0] != step or waits.get(k[1], (None,))[0]
                    != k[2]]:
            del self._since[key]
        for seat in self._takeover.overdue_seats():
            if seat not in waits or self._takeover.overdue_step(seat) != step:
                self._takeover.input_arrived(seat)
        watching = self.watching()
        for seat, (human, limit) in waits.items():
            since = self._since.setdefault((step, seat, human), now)
            if watching:             # a spectator shows the clocks; the players act on them
                continue
            if now - since >= limit and not self._takeover.is_overdue(seat):
                what = "a decision" if human else "an input its program sends by itself"
                self._takeover.input_overdue(seat, step, limit, what)

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
        for seat, (human, limit) in waits.items():
            if self._takeover.is_overdue(seat):
                continue
            since = self._since.get((ls.step, seat, human), now)
            left[seat] = max(0.0, limit - (now - since))
        return left
