"""The messages I accepted from each seat, per step: proofs and relays are made of them.

Why kept: two different signed messages of one seat for one step prove it cheated (the
earlier one is looked up here), and a seat that dropped mid-broadcast reaches the
players it missed through others, who relay what they heard from it.

Tests: tests/net/table/test_relays.py, tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

import logging
from typing import Callable

from net.lockstep.step_inbox import Wire

log = logging.getLogger("net.lockstep.core")


class Heard:
    """step -> seat -> the messages accepted from it, for the recent steps."""

    def __init__(self) -> None:
        self.by_step: dict[int, dict[int, list[Wire]]] = {}

    def file(self, step: int, seat: int, msg: Wire) -> None:
        self.by_step.setdefault(step, {}).setdefault(seat, []).append(msg)

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None:
        """The message of `kind` I accepted from `seat` for `step` (one half of a proof)."""
        return next((m for m in self.by_step.get(step, {}).get(seat, [])
                     if m["type"] == kind), None)

    def signed_from(self, seat: int, since: int,
                    verify: Callable[[int, Wire], bool]) -> list[Wire]:
        """`seat`'s messages for steps >= since that carry its signature."""
        held = [m for step in sorted(self.by_step) if step >= since
                for m in self.by_step[step].get(seat, [])]
        signed = [m for m in held if verify(seat, m)]
        if len(signed) < len(held):
            log.warning("seat %d sent me %d badly signed message(s); not passing them on",
                        seat, len(held) - len(signed))
        return signed

    def forget(self, seat: int, since: int) -> None:
        """Drop what `seat` said for steps >= since (its history differs from mine)."""
        for step, by_seat in self.by_step.items():
            if step >= since:
                by_seat.pop(seat, None)

    def drop(self, step: int) -> None:
        """A step too old to be resent or proved against."""
        self.by_step.pop(step, None)
