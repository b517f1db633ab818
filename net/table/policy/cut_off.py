"""When a player cut off from the table stops waiting: one policy over what it can see.

Why (found under CI load, after issue 1 of the net-flakes brief): a friend whose links
all broke at step 0 was silent to the two others; they held more than half of the table,
agreed, and a bot took its seat — the table played on to the end. The friend, alone,
was a minority (`net.table.liveness`): it may take no seat, so it waited "for the
others" for ever, its redials unanswered (and, once its links came back, refused: a seat
a bot plays is not given back, `net.table.policy.admission`). Nobody told it its seat was
gone, and its program never ended.

A lone peer cannot know whether the others gave its seat away; it can know whether they
*could*: a take-over needs the claims of more than half of the table's human players
(`net.table.policy.takeover_agreement`), each made when the seat's countdown ran out on
that player's clock (its silence limit, then the rejoin timeout). Every case is one line:

| the players I cannot reach (human seats no bot plays, mine left out) | verdict |
|---|---|
| half of the table's human players or fewer (I am on a majority side, or on a split one) | play on / wait, however long: nobody can give my seat away, and my redials go on |
| more than half, for less than `give_up_after(rejoin timeout)` of my awake time | wait (and redial): they may not have given my seat away yet, or my links come back |
| more than half, for `give_up_after(rejoin timeout)` of my awake time or more | give up: the game ends here, and my player reads that its seat has gone to a bot if the others play on, because it was silent (it cannot know that they do: they may have left) |

`give_up_after` is twice the rejoin timeout and a margin: the others count me silent after
their silence limit (a few seconds), claim after the rejoin timeout, and take over at the
first step that needs my seat; a link that comes back in that time still rejoins. The
time is counted while this peer was awake (`Liveness.awake_seconds`): a peer busy for a
minute does not give up. A split table (two against two) never gives up: neither half
can take a seat, so each waits for the network to heal, as before.

Tests: tests/net/table/test_cut_off.py (this table, row by row; a friend cut off at step 0
on a FakeNet, with its links down for good and with its links back after the take-over).
"""

from __future__ import annotations

from dataclasses import dataclass

MARGIN = 10.0     # seconds beyond two rejoin timeouts (the others' silence limit and more)


def give_up_after(rejoin_timeout: float) -> float:
    """Seconds cut off from more than half of the table after which a player stops."""
    return 2 * rejoin_timeout + MARGIN


@dataclass(frozen=True)
class CutOff:
    """What this peer knows of its links, at one heartbeat."""
    me: int                      # my seat (a human seat no bot plays)
    humans: frozenset[int]       # the table's human seats no bot plays (mine included)
    reachable: frozenset[int]    # the seats I hold a live player link to
    outvoted_for: float          # awake seconds the unreachable have been more than half
    rejoin_timeout: float


@dataclass(frozen=True)
class Verdict:
    outvoted: bool               # the players I cannot reach could give my seat to a bot
    give_up: bool                # ... and had the time to: the game ends here


def unreachable(view: CutOff) -> frozenset[int]:
    return view.humans - view.reachable - {view.me}


def outvoted(view: CutOff) -> bool:
    """More than half of the table's human players are out of my reach."""
    return 2 * len(unreachable(view)) > len(view.humans)


def decide(view: CutOff) -> Verdict:
    """The policy (see the table in the module doc)."""
    if not outvoted(view):
        return Verdict(outvoted=False, give_up=False)
    return Verdict(outvoted=True,
                   give_up=view.outvoted_for >= give_up_after(view.rejoin_timeout))
