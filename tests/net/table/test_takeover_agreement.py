"""The take-over policy, row by row (net/table/policy/takeover_agreement.py): a bot takes a seat
only after the seat's countdown ran out and more than half of the table's human players
signed that it did; never on one peer's word; never my own seat while I answer."""

import pytest

from net.table.policy.takeover_agreement import SeatWait, agreed

FOUR = frozenset({0, 1, 2, 3})
THREE = frozenset({0, 1, 2})


def wait(seat=2, me=0, humans=FOUR, awaited=True, over=True, claims=(), step=7, blamed=()):
    return SeatWait(seat=seat, step=step, humans=humans, me=me, awaited=awaited,
                    countdown_over=over, claimants=frozenset(claims),
                    blamed=frozenset(blamed) | {seat})


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
    # a claimant is not a witness against the seats it stalls (issue 52): a seat the
    # step waits for here has no vote at that step
    ("the others agree, but one of them is awaited too (it stalls the step)",
     wait(me=1, claims={0, 3}, blamed={0}), False, False, "2 of 4"),
    ("the honest three claim the seat that stalls them",
     wait(seat=0, me=1, claims={2, 3}), True, False, "3 of 4"),
    ("my own claim does not count while the step waits for my decision",
     wait(me=1, over=True, claims={3, 0}, blamed={1}), False, False, "2 of 4"),
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


# ---------------------------------------------------------------- in memory (issue 52)
def _claim(session, absent):
    """`session`'s signed claim that `absent`'s countdown ran out at the current step."""
    ls = session.lockstep
    msg = session.signer.sign({"type": "TakeoverClaimed", "step": ls.step,
                               "seat": session.my_seat, "absent": absent, "hash": ls.hash})
    session.roster.broadcast(msg)


def test_a_majority_claiming_my_seat_while_i_plan_is_told_in_words_and_refused(tmp_path):
    """Never my own seat while I answer: three players claim a seat whose player is
    still inside its turn timer; its own peer keeps the seat and tells its player who
    says so; once the countdown really ran out, the lobby names the claimants."""
    from tests.net.tables import finished, hashes, open_table
    net, engine, sessions = open_table(players=4, tmp_path=tmp_path, rejoin_timeout=20.0,
                                       start=False)
    slow = sessions[3]
    answer = slow.on_decision
    slow.on_decision = lambda d, state: None if d.kind == "plan" else answer(d, state)
    notices: list[str] = []
    slow.on_notice = notices.append
    sessions[0].start_game()
    net.pump()
    seat = slow.my_seat
    assert all(seat in s.waiting_for() for s in sessions)
    for s in sessions[:3]:
        _claim(s, seat)
    net.pump()
    net.advance(2)
    net.pump()
    assert seat not in slow.lockstep.bots
    said = [n for n in notices if "claim it for a bot" in n]
    assert len(said) == 1, notices
    assert said[0].startswith("seats 0 (") and " and 2 (" in said[0]
    assert "you are playing, so your seat stays yours here" in said[0]
    # the turn timer and the countdown run out: the table agrees, and says who did
    net.advance(400)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    entry = next(e for e in sessions[0].lobby["seats"] if e["seat"] == seat)
    assert entry["taken_over"] and entry["claimed_by"] == [0, 1, 2], entry
