"""Whose input a step waits for (net/lockstep/blame.py): the module's table, row by row,
and the issue 52 case (an echo without one seat's commitment is what the step waits for,
not the bids that wait on it)."""

from __future__ import annotations

import pytest

from net.lockstep.blame import Awaited, Need, StepHeld, awaited

P4 = (0, 1, 2, 3)
ALL = {0: 0, 1: 0, 2: 0, 3: 0}                       # every planner's commitment, lock 0


def _echo(*without: int, relocked: dict[int, int] | None = None) -> dict[int, int]:
    echo = {s: lock for s, lock in ALL.items() if s not in without}
    echo.update(relocked or {})
    return echo


ROWS = [
    # (what this peer holds, the seats awaited and what they owe)
    ("chance: links missing", StepHeld("chance", P4, (), frozenset({0, 2})),
     [(1, Need.LINK), (3, Need.LINK)]),
    ("chance: every link here", StepHeld("chance", P4, (), frozenset(P4)), []),
    ("tower: one vote missing", StepHeld("tower", (0, 1, 2), (), frozenset({0, 1})),
     [(2, Need.VOTE)]),
    ("a card to turn, not opened", StepHeld("open", P4, (2,)), [(2, Need.OPENING)]),
    ("a card to turn, opened", StepHeld("open", P4, (2,), frozenset({2})), []),
    ("a bot's card (no actor)", StepHeld("open", P4, ()), []),
    ("one seat's move", StepHeld("move", P4, (3,)), [(3, Need.DECISION)]),
    ("one seat's move, here", StepHeld("move", P4, (3,), frozenset({3})), []),
    ("the game is over", StepHeld("over", P4, ()), []),
    ("plan: a commitment missing (a slow player)",
     StepHeld("plan", P4, P4, commits={0: 0, 2: 0, 3: 0},
              echoes={0: _echo(1)}),
     [(1, Need.DECISION)]),
    ("plan: every commitment, one echo missing",
     StepHeld("plan", P4, P4, commits=ALL, echoes={0: _echo(), 1: _echo(), 2: _echo()}),
     [(3, Need.ECHO)]),
    ("plan: an echo without seat 1's commitment (issue 52: it took seat 1 alone)",
     StepHeld("plan", P4, P4, commits=ALL,
              echoes={0: _echo(1), 1: _echo(), 2: _echo(), 3: _echo()}),
     [(0, Need.ECHO)]),
    ("plan: ... and the bids that wait on it are not awaited",
     StepHeld("plan", P4, P4, commits=ALL,
              echoes={0: _echo(1), 1: _echo(), 2: _echo(), 3: _echo()},
              links=frozenset({0}), reveals=frozenset({0})),
     [(0, Need.ECHO)]),
    ("plan: an echo with an older lock of a relocked plan",
     StepHeld("plan", P4, P4, commits={**ALL, 2: 1},
              echoes={0: _echo(relocked={2: 1}), 1: _echo(), 2: _echo(relocked={2: 1}),
                      3: _echo(relocked={2: 1})}),
     [(1, Need.ECHO)]),
    ("plan: every echo agrees, bids missing",
     StepHeld("plan", P4, P4, commits=ALL, echoes={s: _echo() for s in P4},
              links=frozenset({0, 1}), reveals=frozenset({0, 1})),
     [(2, Need.BID), (3, Need.BID)]),
    ("plan: a bot's planner seat is no actor; a link giver that does not plan",
     StepHeld("plan", P4, (0, 1, 2), commits={0: 0, 1: 0, 2: 0},
              echoes={s: {0: 0, 1: 0, 2: 0} for s in P4},
              links=frozenset({0, 1, 2}), reveals=frozenset({0, 1, 2})),
     [(3, Need.BID)]),
    ("plan: everything here", StepHeld("plan", P4, P4, commits=ALL,
                                       echoes={s: _echo() for s in P4},
                                       links=frozenset(P4), reveals=frozenset(P4)), []),
]


@pytest.mark.parametrize("held, expected", [(h, e) for _, h, e in ROWS],
                         ids=[name for name, _, _ in ROWS])
def test_the_blame_table(held, expected):
    assert awaited(held) == tuple(Awaited(s, n) for s, n in expected)


def test_only_a_decision_runs_on_the_turn_timer():
    assert [n for n in Need if n.decided] == [Need.DECISION]
