"""What arrived for one step, and what a message that breaks the protocol raises.

Why a record of its own: every part of the lockstep (chance draws, single commands, the
tower vote, plans) files what it receives for a step in the same inbox, and a take-over
or a desync must clear one seat's inputs from all of them at once.

Tests: tests/net/lockstep/test_core.py, tests/net/lockstep/test_field_reveal.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net.lockstep.engine import Applied, EngineCommand
from net.transport.message_records import BidOpened
from net.transport.messages import PlanCard

from net.transport.messages import Wire as Wire   # re-exported: the parts import it from here

STALE_GRACE = 16      # messages this many steps old are ignored silently (resends)


class Offence(ValueError):
    """A well-formed message that breaks the protocol; the text is the logged reason."""


@dataclass
class StepInbox:
    """What arrived for one step, keyed by the sender's seat."""
    commits: dict[int, Wire] = field(default_factory=dict)   # seat -> signed PlanCommitted
    unlocked: dict[int, int] = field(default_factory=dict)   # seat -> last withdrawn lock
    reveals: dict[int, tuple[bytes, PlanCard]] = field(default_factory=dict)   # opened bids
    # bids opened before my own commitment: the others may have given my seat to a bot
    # (its commitment is theirs) before I did; read once my seat has committed
    early_reveals: dict[int, BidOpened] = field(default_factory=dict)
    links: dict[int, bytes] = field(default_factory=dict)
    command: tuple[int, EngineCommand, Wire] | None = None
    votes: dict[int, Wire] = field(default_factory=dict)   # seat -> its TowerVoted
    hashes: dict[int, str] = field(default_factory=dict)
    echoes: dict[int, dict[int, Wire]] = field(default_factory=dict)  # echoer -> seat -> msg
    echo_locks: dict[int, int] = field(default_factory=dict)   # echoer -> its latest lock sum
    echo_msgs: dict[int, Wire] = field(default_factory=dict)   # echoer -> its latest echo
    opening: Wire | None = None                # FieldOpened for this step's card
    takeovers: set[int] = field(default_factory=set)
    result: Applied | None = None     # apply() of `command`, done when checked

    def drop_plan_inputs(self, seat: int, opening: bool = True) -> None:
        """Forget a seat's plan inputs (a take-over; a desync, where an opened card stays
        like a command: see `net.lockstep.desync.DesyncWatch.forget`)."""
        for held in (self.commits, self.echoes, self.echo_locks, self.echo_msgs, self.reveals,
                     self.early_reveals):
            held.pop(seat, None)
        if opening and self.opening is not None and self.opening["seat"] == seat:
            self.opening = None
