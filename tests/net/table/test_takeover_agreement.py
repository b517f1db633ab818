"""The take-over policy, row by row (net/table/policy/takeover_agreement.py): a bot takes a seat
only after the seat's countdown ran out and more than half of the table's human players
signed that it did; never on one peer's word; never my own seat while I answer."""

import pytest

from net.table.policy.takeover_agreement import SeatWait, agreed

FOUR = frozenset({0, 1, 2, 3})
THREE = frozenset({0, 1, 2})


def wait(seat=2, me=0, humans=FOUR, awaited=True, over=True, claims=(), step=7):
    return SeatWait(seat=seat, step=step, humans=humans, me=me, awaited=awaited,
                    countdown_over=over, claimants=frozenset(claims))


# (name, the view, take over?, refused?, a fragment of the reason)
ROWS = [
    # one peer's word is never enough, whoever it is (the host at seat 0 included)
    ("a lone claim, my countdown still running", wait(me=1, over=False, claims={0}),
     False, False, "1 of 4"),
    ("a lone claim at a table of three", wait(humans=THREE, me=1, over=False, claims={0}),
     False, False, "1 of 3"),
    ("my countdown alone", wait(over=True), False, False, "1 of 4"),
    ("a claim and mine: two of four is not more than half", wait(claims={1}),
     False, False, "2 of 4 players agree that seat 2's countdown ran out at step 7; 3 must"),
    ("three of four", wait(claims={1, 3}), True, False, "3 of 4"),
    ("three of four without me: my countdown still runs",
     wait(over=False, claims={0, 1, 3}, me=0), True, False, "3 of 4"),
    ("two of three, mine included", wait(humans=THREE, claims={1}), True, False, "2 of 3"),
    ("two of three, mine not yet", wait(humans=THREE, over=False, claims={1}),
     False, False, "1 of 3"),
    # the seat's own claim never counts, nor a claim from a seat a bot plays
    ("the seat claims itself", wait(claims={1, 2}), False, False, "2 of 4"),
    ("a claim from a seat a bot plays", wait(humans=THREE, over=False, claims={1, 3}),
     False, False, "1 of 3"),
    # a table of two humans never gives a seat away (no majority without the seat)
    ("two humans", wait(humans=frozenset({0, 2}), claims={0}), False, False, "1 of 2"),
    # the input is here: it answered me, whatever the others say
    ("its input reached me", wait(awaited=False, claims={1, 3}), False, False, "is here"),
    ("already a bot's seat", wait(humans=THREE - {2} | {3}, claims={1, 3}),
     False, False, "not a player's seat"),
    # my own seat
    ("my own seat while I answer, everyone else claiming",
     wait(seat=0, me=0, over=False, claims={1, 2, 3}), False, True, "I am answering"),
    ("my own seat, my input sent", wait(seat=0, me=0, awaited=False, claims={1, 2, 3}),
     False, False, "is here"),
    ("my own seat, my countdown ran out, a lone claim",
     wait(seat=0, me=0, over=True, claims={1}), False, False, "1 of 4"),
    ("my own seat, my countdown ran out, the others agree",
     wait(seat=0, me=0, over=True, claims={1, 2, 3}), True, False, "3 of 4"),
    # a spectator follows the players' agreement
    ("a spectator", wait(me=None, claims={0, 1, 3}), True, False, "3 of 4"),
]


@pytest.mark.parametrize("name,view,take,refused,fragment", ROWS, ids=[r[0] for r in ROWS])
def test_each_case_of_the_take_over_policy(name, view, take, refused, fragment):
    verdict = agreed(view)
    assert verdict.take_over is take and verdict.refused is refused
    assert fragment in verdict.reason


def test_two_halves_of_a_split_table_can_never_both_agree():
    """2 against 2: each half would take the other half's seats with a majority of the
    *other* players; with more than half of all players needed, neither does."""
    for seat in (2, 3):
        assert not agreed(wait(seat=seat, me=0, claims={1})).take_over
    for seat in (0, 1):
        assert not agreed(wait(seat=seat, me=2, claims={3})).take_over


def test_the_players_whose_claims_count_are_named():
    verdict = agreed(wait(claims={1, 3, 2}))
    assert verdict.agreed == frozenset({0, 1, 3})
