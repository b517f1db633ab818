"""When a bot may take a human's seat: one policy over what this peer knows of the seat.

Why one function: before, one peer's `SeatTakenOver` gave any seat that was late on the
receiver's clock to a bot — a host with a 10 s turn timer took a slow but present
player's seat (the receiver's own included) 10 s into its first plan, and a peer that
kept its beacon link from one victim made the victim look silent to everyone. Now a
take-over is an agreement, and every case is one line of this table:

| what this peer knows of the seat, at the step the table waits at here | verdict |
|---|---|
| it is not a human seat in play (a bot plays it, or it is no seat) | no take-over |
| its input for this step is here (the step does not wait for it) | no take-over: it answered me |
| it is my own seat and my own countdown for it has not run out | refused: I am answering |
| signed claims from more than half of the table's human players (the seat's own never counted; mine once my countdown ran out; none from a seat the step waits for), each made when the seat's countdown ran out on that player's clock | take over, at that step |
| anything less | wait (and show the countdown) |

"More than half of the table's human players", not of the others only: two halves of a
split table (2 against 2) can then never both reach it, so the table never goes on as two
games; and it is always more than one player, so never one peer's word (at a table of
two humans a seat is waited for until it comes back). A claim is signed by its player's
seat key for one seat and one step; claims for another step do not count.

**A claimant is not a witness against the seats it stalls** (issue 52): a seat the step
waits for here (`blamed`: its own input is missing first, `net.lockstep.blame` — an echo
that left out a commitment every honest player holds is such an input) has no vote at
that step. Before, a peer that treated a slow seat as a bot on its own clock, and so
echoed without its commitment, claimed the seats whose bids waited on its echo, and its
claims made the majority that gave honest seats to bots.

Tests: tests/net/table/test_takeover_agreement.py (the table above, row by row);
tests/net/trust/test_takeover_attacks.py (real processes: a lone claim, a withheld link).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection


@dataclass(frozen=True)
class SeatWait:
    """What this peer knows about one seat at the step it waits at."""
    seat: int                    # the seat a bot might take
    step: int                    # the step the table waits at here
    humans: frozenset[int]       # the table's human seats no bot plays (the seat included)
    me: int | None               # my seat (None: I watch)
    awaited: bool                # the step here still lacks the seat's input
    countdown_over: bool         # the seat's visible countdown ran out on my clock
    claimants: frozenset[int]    # the other players whose signed claims for (seat, step) I hold
    blamed: frozenset[int] = frozenset()   # the seats the step waits for here: no vote


@dataclass(frozen=True)
class Agreement:
    take_over: bool
    reason: str                  # why (or why not yet): a sentence for the log
    refused: bool = False        # the take-over of my own seat while I answer: refused
    agreed: frozenset[int] = frozenset()   # the players whose claims count


def needed(humans: Collection[int]) -> int:
    """How many players' claims hand a seat over: more than half of the humans in play."""
    return len(humans) // 2 + 1


def agreed(wait: SeatWait) -> Agreement:
    """The one take-over policy (see the table in the module doc)."""
    seat, step = wait.seat, wait.step
    if seat not in wait.humans:
        return Agreement(False, f"seat {seat} is not a player's seat in play")
    if not wait.awaited:
        return Agreement(False, f"seat {seat}'s input for step {step} is here")
    if seat == wait.me and not wait.countdown_over:
        return Agreement(False, f"seat {seat} is mine and I am answering: my own "
                         "countdown has not run out", refused=True)
    counted = set(wait.claimants) & (wait.humans - {seat})
    if wait.me is not None and wait.me != seat and wait.countdown_over:
        counted.add(wait.me)
    counted &= wait.humans - {seat} - wait.blamed
    need = needed(wait.humans)
    if len(counted) >= need:
        return Agreement(True, f"{len(counted)} of {len(wait.humans)} players agree that "
                         f"seat {seat}'s countdown ran out at step {step}",
                         agreed=frozenset(counted))
    return Agreement(False, f"{len(counted)} of {len(wait.humans)} players agree that seat "
                     f"{seat}'s countdown ran out at step {step}; {need} must")
