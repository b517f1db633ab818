"""The correspondence table's turn timer: its setting, and since when a seat is awaited here.

Why each player's own clock: nothing in a shared folder tells time honestly. A sync tool
sets file times as it likes, and a seat's record could say any time (the awaited seat
would say it moved early; a player who wants the seat would date it back). So the timer
counts, on this player's own clock, from when this player's program first saw the seat
awaited at that step (a note in my unsynced copy, `WaitNotes`), and a hand-over still
needs the claims of more than half of the players (`net.correspondence.seat_handover`):
each counted it on its own clock. A player who opens the program rarely starts counting
late, never early.

The timer is the host's setting, sealed in the start record (`TableStart.turn_timer`):
0 (no timer) or 1 hour to 90 days; the host's command refuses less than an hour unless
`SHOGUN_SHORT_TURN_TIMER=1` is set (tests play it in seconds).

Tests: tests/net/correspondence/test_turn_timer.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import msgpack

from net.correspondence import folder_io

HOUR = 3600
MIN_TIMER = HOUR
MAX_TIMER = 90 * 24 * HOUR
SHORT_ENV = "SHOGUN_SHORT_TURN_TIMER"          # tests: a timer of seconds
NOTES = "waits.msgpack"
_UNITS = {"s": 1, "m": 60, "h": HOUR, "d": 24 * HOUR}
_TEXT = re.compile(r"\s*(\d{1,7})\s*([smhd]?)\s*", re.IGNORECASE)


class TimerError(ValueError):
    """A turn timer that is not one (said in a sentence)."""


def timer_problem(seconds: int, short: bool = False) -> str:
    """What makes `seconds` no turn timer, or "" (`short`: seconds allowed, for tests)."""
    if seconds == 0:
        return ""
    low = 1 if short else MIN_TIMER
    if not low <= seconds <= MAX_TIMER:
        return (f"a turn timer of {seconds} seconds (it is 0, for none, or 1 hour to "
                "90 days)")
    return ""


def parse_timer(text: str) -> int:
    """"2d", "36h", "90m" (and "30s" with `SHORT_ENV` set) in seconds; "0": no timer."""
    match = _TEXT.fullmatch(text)
    if match is None:
        raise TimerError(f"a turn timer must be a number with h or d (such as 36h or 2d), "
                         f"not {text[:20]!r}")
    number, unit = int(match.group(1)), (match.group(2) or "h").lower()
    seconds = number * _UNITS[unit]
    problem = timer_problem(seconds, os.environ.get(SHORT_ENV) == "1")
    if problem:
        raise TimerError(problem)
    return seconds


def ran_out(since: float, now: float, timer: int) -> bool:
    """The timer ran out for a seat awaited here since `since` (a timer of 0 never runs)."""
    return timer > 0 and now - since >= timer


class WaitNotes:
    """When my program first saw each awaited seat at its step: kept in my own unsynced
    folder (or only in memory without one), forgotten once the seat is no more awaited."""

    def __init__(self, local: Path | None) -> None:
        self.local = local
        self.seen: dict[tuple[int, int], float] = {}
        if local is not None:
            data = folder_io.read_file(local, NOTES).data
            try:
                rows = msgpack.unpackb(data, raw=False, max_array_len=64) if data else []
            except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
                rows = []
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, list) and len(row) == 3 and type(row[0]) is int \
                        and type(row[1]) is int and isinstance(row[2], (int, float)):
                    self.seen[(row[0], row[1])] = float(row[2])

    def note(self, step: int, awaited: tuple[int, ...], now: float) -> None:
        """The seats awaited at `step` now: keep when each was first seen so."""
        kept = {(s, step): self.seen.get((s, step), now) for s in awaited}
        if kept == self.seen:
            return
        self.seen = kept
        if self.local is not None:
            self.local.mkdir(parents=True, exist_ok=True)
            temp = self.local / f".{NOTES}.tmp-{os.getpid()}"
            temp.write_bytes(msgpack.packb([[s, n, t] for (s, n), t in sorted(kept.items())],
                                           use_bin_type=True))
            os.replace(temp, self.local / NOTES)      # whole or not at all

    def since(self, seat: int, step: int) -> float | None:
        return self.seen.get((seat, step))
