"""Whose input a step waits for: the seats whose own input is missing first (issue 52).

Why one function: a step is blamed on whoever is being waited for, and every clock, every
pause and every take-over claim follows that blame (`net.table.input_deadline`,
`net.table.takeover`). Before, a plan step whose echoes did not agree waited for every
player's bid: a peer that echoed the commitments without one seat's (it treated that seat
as a bot on its own clock, and refused the seat's real inputs) made the honest players,
whose bids waited on its echo, look silent to each other, and they claimed each other's
seats. Now a seat is awaited only for an input whose prerequisites have reached it, shown
by signed evidence every peer holds: the commitments are in my echo (and in every honest
echo), which went to every player; so the step waits for the echo that lacks one, not for
the bids that wait on it. A seat whose input waits on another seat's is never awaited.

What a step waits for, in the order its inputs come (the first phase with a gap is the
only one awaited):

| step | phase | awaited seats | what each owes |
|---|---|---|---|
| chance | links | players whose beacon link is not here | `LINK` (sent by its program) |
| tower | votes | players whose vote is not here | `VOTE` (sent by its program) |
| a card to turn | the card | its owner, unless here | `OPENING` (sent by its program) |
| one seat's turn | the command | that seat, unless here | `DECISION` (its player decides) |
| plan | commitments | planners whose commitment is not here | `DECISION` |
| plan | echoes (once every commitment is here) | players with no echo here, or whose echo does not hold every commitment I hold at the lock I hold it | `ECHO` (sent by its program) |
| plan | bids and links (once every echo agrees here) | players whose link, or planners whose bid, is not here | `BID` |

A seat with no gap in the first open phase is not awaited, whatever it has not sent of
a later phase: its input waits on the awaited seats'. Bots are never awaited (every peer
plays them). The function is pure over `StepHeld` (built by `Lockstep.held`).

Tests: tests/net/lockstep/test_blame.py (the table above, row by row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Mapping


class Need(StrEnum):
    """What an awaited seat owes the step."""
    DECISION = "decision"       # its player's choice: a plan, a move (the turn timer)
    ECHO = "echo"               # the echo of every commitment (its program, at once)
    BID = "bid"                 # its opened bid and beacon link (its program, at once)
    LINK = "link"               # a beacon link (its program, at once)
    VOTE = "vote"               # a tower vote (its program, at once)
    OPENING = "opening"         # a card opened at its turn (its program, at once)

    @property
    def decided(self) -> bool:
        """A player's decision (the turn timer), else an input its program sends itself."""
        return self is Need.DECISION


@dataclass(frozen=True)
class Awaited:
    """One seat the step waits for, and what it owes."""
    seat: int
    need: Need


@dataclass(frozen=True)
class StepHeld:
    """What this peer holds of the current step (the evidence the blame is read from)."""
    kind: str                                   # the decision's kind (`DecisionKind`)
    players: tuple[int, ...]                    # human seats no bot plays (link givers)
    actors: tuple[int, ...]                     # the decision's seats no bot plays
    inputs: frozenset[int] = frozenset()        # chance: links; tower: votes; else the actor's
    commits: Mapping[int, int] = field(default_factory=dict)    # plan: seat -> lock held here
    # plan: echoer -> seat -> lock of the commitment its echo holds
    echoes: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    links: frozenset[int] = frozenset()         # plan: seats whose link is here
    reveals: frozenset[int] = frozenset()       # plan: seats whose opened bid is here


def echo_complete(echo: Mapping[int, int] | None, commits: Mapping[int, int],
                  planners: tuple[int, ...]) -> bool:
    """Does an echo hold every planner's commitment at the lock held here?"""
    return echo is not None and all(s in echo and s in commits and echo[s] == commits[s]
                                    for s in planners)


def awaited(held: StepHeld) -> tuple[Awaited, ...]:
    """The seats the step waits for, each with what it owes (see the module's table)."""
    kind = held.kind
    if kind == "over":
        return ()
    if kind in ("chance", "tower"):
        need = Need.LINK if kind == "chance" else Need.VOTE
        return tuple(Awaited(s, need) for s in held.players if s not in held.inputs)
    if kind != "plan":
        need = Need.OPENING if kind == "open" else Need.DECISION
        return tuple(Awaited(s, need) for s in held.actors[:1] if s not in held.inputs)
    planners = held.actors
    missing = [s for s in planners if s not in held.commits]
    if missing:
        return tuple(Awaited(s, Need.DECISION) for s in missing)
    behind = [s for s in held.players
              if not echo_complete(held.echoes.get(s), held.commits, planners)]
    if behind:
        return tuple(Awaited(s, Need.ECHO) for s in behind)
    return tuple(Awaited(s, Need.BID) for s in held.players
                 if s not in held.links or (s in planners and s not in held.reveals))
