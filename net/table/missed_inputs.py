"""Inputs that did not reach me: I ask the table, and whoever holds them relays them.

Why: an input that did not reach one peer used to look like a silent seat. A peer that
sent its beacon link to everyone but one victim left the victim a step behind: the
others moved on and then waited for the victim, whose countdown ran out on their clocks,
so the victim lost its seat while the withholder kept its own (issue 34 item 1). Now a
peer that waits `ASK_AFTER` seconds for a seat's input says so (`InputsMissed`, again
every `ASK_EVERY` seconds while it waits) — or, for a seat already caught withholding
from it (an input of it came only by relay, `MissedInputs.withheld_from_me`), at once
whenever the step waits for that seat alone, and again at every look (a repeat
withholder gains nothing: the victim no longer waits `ASK_AFTER` a step); every player that holds that seat's signed
messages for the step relays them (`Relayed`: signed, they prove themselves from any
relayer), its own included, and the claims that gave the seat to a bot if it did. So
withholding from one victim costs the victim a few seconds, not its seat, and the log of
each relayer names the seat whose input went missing, not the one that missed it. And the
asker's own clocks start again when inputs it lacked were relayed to it (issue 52): its
input waited on them, so it is not silent for the time it waited.

Tests: tests/net/trust/test_takeover_attacks.py (a link kept from one victim, real
processes), tests/net/table/test_missed_inputs.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, TYPE_CHECKING

from net.lockstep.step_inbox import STALE_GRACE
from net.table.shared import Roster, TableSetting, TableState
from net.table.takeover import Takeover
from net.transport.message_records import InputsMissed, as_wire

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

ASK_AFTER = 3.0       # seconds a step waits for a seat's input before I ask the table
ASK_EVERY = 3.0       # seconds between two asks while I still wait
ANSWER_EVERY = 0.5    # a player's asks I answer at most this often (each costs signature checks)
SENT_LIMIT = 20_000   # signatures remembered per asker (what it was already sent)


def seats_to_ask(waited: dict[int, float], me: int | None, withheld: set[int],
                 since_asked: float) -> list[int]:
    """The seats whose inputs I ask the table for now (none: do not ask yet).

    | the step waits for (not me)          | asked last              | ask for                        |
    |--------------------------------------|-------------------------|--------------------------------|
    | only seats caught withholding from me | any time before         | them, at once                  |
    | others too                           | `ASK_EVERY` s ago or more | those waited `ASK_AFTER` s or more |
    | others too                           | less than `ASK_EVERY` s | nobody yet                     |
    """
    others = sorted(s for s in waited if s != me)
    if others and all(s in withheld for s in others):
        return others
    if since_asked < ASK_EVERY:
        return []
    return [s for s in others if waited[s] >= ASK_AFTER]


class MissedInputs:
    """Asking for inputs that did not reach me, and relaying those others missed."""

    def __init__(self, shared: TableState, setting: TableSetting, roster: Roster,
                 takeover: Takeover) -> None:
        self._shared = shared
        self._setting = setting
        self._roster = roster
        self._takeover = takeover
        self._asked: dict[int, float] = {}          # step -> when I last asked
        self._answered: dict[int, float] = {}       # asker's seat -> when I last answered
        self._sent: dict[int, set[bytes]] = {}      # asker's seat -> signatures sent to it
        # a player was sent inputs it missed (`inputs_missed`): its clocks start again,
        # since its own input waited on them (`InputDeadlines.inputs_reached`)
        self.reached: Callable[[int], None] = lambda seat: None
        # seats whose input reached me only by relay while their connection lived: asked
        # for at once from then on, so withholding gains nothing (`withheld`, from relays)
        self.withheld_from_me: set[int] = set()

    def withheld(self, seat: int, step: int, relayer: int | None) -> None:
        """`seat`'s input for `step` reached me only through `relayer`, though its own
        connection lives: it kept the input from me."""
        if seat not in self.withheld_from_me:
            self.withheld_from_me.add(seat)
            log.warning("seat %d's input for step %d reached me only through seat %s: from "
                        "now on I ask the others for seat %d's inputs at once", seat, step,
                        relayer, seat)

    def ask(self, step: int, waited: dict[int, float], now: float) -> None:
        """The step waits for these seats (seat -> seconds waited): ask the table for
        the inputs of those it waited for `ASK_AFTER` seconds or more."""
        table = self._shared
        late = seats_to_ask(waited, table.my_seat, self.withheld_from_me,
                            now - self._asked.get(step, -ASK_EVERY))
        if not late:
            return
        if step not in self._asked:
            connected = [s for s in late if self._roster.conn_for_seat(s) is not None]
            if connected:
                log.info("seat(s) %s sent me nothing for step %d yet: asking the others "
                         "whether it reached them", connected, step)
        self._asked = {s: t for s, t in self._asked.items() if s >= step - 1}
        self._asked[step] = now
        self._roster.broadcast({"type": "InputsMissed", "step": step, "seats": late})

    def inputs_missed(self, conn: PeerConnection, msg: InputsMissed) -> None:
        """A player's `InputsMissed`: relay what I hold of those seats from that step."""
        table = self._shared
        ls = table.lockstep
        asker = conn.seat
        if asker is None or conn.role == "spectator" or conn is self._roster.source:
            conn.offence("InputsMissed from a connection without a seat")
            return
        if ls is None or ls.following:
            return
        step = msg["step"]
        now = self._setting.reactor.seconds()
        if step < ls.step - STALE_GRACE or step > ls.step + 1 \
                or now - self._answered.get(asker, -ANSWER_EVERY) < ANSWER_EVERY:
            return
        self._answered[asker] = now
        sent = self._sent.setdefault(asker, set())
        if len(sent) > SENT_LIMIT:
            sent.clear()
        for seat in msg["seats"]:
            if seat == asker:
                continue
            if seat == table.my_seat:
                held = [m for m in ls.resend_from(step) if m.get("step", step) >= step]
                frames = [(m, m) for m in held]
            else:
                held = ls.heard_from(seat, step)
                for s in range(step, ls.step + 1):      # the claims that gave it to a bot
                    held += [as_wire(m) for m in self._takeover.claims_for(seat, s).values()
                             if m["seat"] != asker]
                # mine go as they are; another player's, relayed (signed, they prove it)
                frames = [(m, m if m["seat"] == table.my_seat else
                           {"type": "Relayed", "seat": m["seat"], "message": m})
                          for m in held]
            fresh = [(m, frame) for m, frame in frames
                     if isinstance(m.get("sig"), bytes) and m["sig"] not in sent]
            for m, frame in fresh:
                sent.add(m["sig"])
                conn.send(frame)
            if fresh:
                self.reached(asker)
            if fresh and seat != table.my_seat:
                log.warning("seat %d missed seat %d's input for step %d, which reached me: "
                            "relayed %d message(s)", asker, seat, step, len(fresh))
