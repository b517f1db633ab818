"""My seat in a game's start: one decision, whether the start gives me my own seat and key.

Why: the host pins every seat's public key in `GameStarted` (a resuming peer reads the same
record from a `CaughtUp`). Every other check of a seat trusts that pin, so a host that pins
a key of its own on my seat could sign plans, votes and hash claims in my name while I
play along, believing my seat is mine. Only I know my key, so only I can check it: a
start is refused unless exactly one seat carries my peer id, it is a human seat, and its
pinned key is the public half of my seat key.

| the start's seats say                      | decision                            |
|--------------------------------------------|-------------------------------------|
| no seat with my peer id (or only a bot's)  | refused: no seat for me             |
| more than one seat with my peer id         | refused: more than one seat for me  |
| my one human seat, with another key        | refused: a key that is not mine     |
| my one human seat, with my key             | my seat                             |

Tests: tests/net/trust/test_own_seat.py (the table; a real-process lying host).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, cast


@dataclass(frozen=True)
class PinnedSeat:
    """One seat of a start record, as the check needs it."""
    seat: int
    kind: str                  # "human" or "bot"
    peer: bytes | None
    key: bytes | None

    @classmethod
    def of(cls, entry: Mapping[str, object]) -> PinnedSeat:
        """A `GameStarted` seat entry (already checked well formed by `check_start`, so
        its fields are read as what that check found them to be)."""
        return cls(cast(int, entry["seat"]), cast(str, entry["kind"]),
                   cast("bytes | None", entry.get("peer")), cast("bytes | None", entry.get("key")))


@dataclass(frozen=True)
class OwnSeat:
    seat: int | None           # my seat when the start is mine to play
    problem: str | None = None  # None: the start gives me my seat with my key


def own_seat(seats: Iterable[PinnedSeat], my_peer: bytes, my_key: bytes) -> OwnSeat:
    """Whether a start gives me exactly one human seat, under my own key (module doc)."""
    mine = [s for s in seats if s.peer == my_peer]
    if not any(s.kind == "human" for s in mine):
        return OwnSeat(None, "the game's start has no seat for you; you did not join it")
    if len(mine) > 1:
        return OwnSeat(None, "the game's start gives you more than one seat; you did not join it")
    seat = mine[0]
    if seat.key != my_key:
        return OwnSeat(None, f"the game's start gives your seat {seat.seat} a key that is not "
                             "yours, so someone else could play in your name; you did not join it")
    return OwnSeat(seat.seat)
