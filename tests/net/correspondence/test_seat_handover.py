"""The hand-over rule (net/correspondence/seat_handover.py), row by row, and a property:
the same claims in any order give the same hand-overs."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from net.correspondence.seat_handover import (HandClaim, claim_payload, counts_after,
                                              hand_overs, read_claim)

THREE, FOUR, FIVE = (0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4)


def claims(*rows: tuple[int, int, int]) -> list[HandClaim]:
    return [HandClaim(w, s, n) for w, s, n in rows]


HANDOVER_ROWS = [
    # (humans, gone, claims (writer, seat, step), handed {seat: step}, why)
    (THREE, (), claims((0, 2, 9), (1, 2, 9)), {2: 9}, "both others of three"),
    (THREE, (), claims((0, 2, 9)), {}, "one claim alone"),
    (THREE, (), claims((0, 2, 9), (0, 2, 9)), {}, "one claim written twice"),
    (THREE, (), claims((0, 2, 9), (1, 2, 10)), {}, "claims for two steps"),
    (THREE, (), claims((0, 2, 9), (2, 2, 9)), {}, "the seat's own claim never counts"),
    (FOUR, (), claims((0, 3, 9), (1, 3, 9)), {}, "two of four: not more than half"),
    (FOUR, (), claims((0, 3, 9), (1, 3, 9), (2, 3, 9)), {3: 9}, "three of four"),
    (FIVE, (), claims((0, 4, 9), (1, 4, 9), (2, 4, 9)), {4: 9}, "three of five"),
    ((0, 1), (), claims((0, 1, 9)), {}, "a table of two humans waits"),
    (THREE, (2,), claims((0, 2, 9), (1, 2, 9)), {}, "an expelled seat is no more in play"),
    (FOUR, (), claims((0, 3, 5), (1, 3, 5), (2, 3, 5), (0, 3, 9), (1, 3, 9), (2, 3, 9)),
     {3: 5}, "handed once, at the first agreed step"),
    (FOUR, (), claims((0, 3, 5), (1, 3, 5), (2, 3, 5), (0, 2, 7), (1, 2, 7)), {3: 5, 2: 7},
     "after one hand-over, both others of the three players left"),
    (FOUR, (), claims((0, 3, 5), (1, 3, 5), (2, 3, 5), (0, 2, 7)), {3: 5},
     "after one hand-over, one of the three players left"),
    (FIVE, (), claims((0, 4, 5), (1, 4, 5), (2, 4, 5), (0, 3, 7), (1, 3, 7)), {4: 5},
     "two of the four left are not enough"),
    (FIVE, (), claims((0, 4, 5), (1, 4, 5), (2, 4, 5), (0, 3, 7), (1, 3, 7), (2, 3, 7)),
     {4: 5, 3: 7}, "then three of the four left"),
]


@pytest.mark.parametrize("humans,gone,held,handed,why", HANDOVER_ROWS,
                         ids=[r[-1] for r in HANDOVER_ROWS])
def test_hand_overs(humans, gone, held, handed, why) -> None:
    got = hand_overs(humans, gone, held)
    assert {s: h.step for s, h in got.items()} == handed, why
    for s, h in got.items():
        assert s not in h.agreed and "a bot plays the seat" in h.sentence


COUNT_ROWS = [
    # (writer, step, handed, counts)
    (2, 9, {2: 9}, False), (2, 12, {2: 9}, False), (2, 8, {2: 9}, True),
    (1, 12, {2: 9}, True), (2, None, {2: 9}, True), (2, 9, {}, True),
]


@pytest.mark.parametrize("writer,step,handed,want", COUNT_ROWS)
def test_counts_after(writer, step, handed, want) -> None:
    assert counts_after(writer, step, handed) is want


CLAIM_ROWS = [
    (claim_payload(2, 9, False), HandClaim(1, 2, 9, False)),
    (claim_payload(2, 9, True), HandClaim(1, 2, 9, True)),
    (b"", None), (b"\x93\x02\x09", None), (b"\x93\x0b\x09\x00", None),
    (b"\x93\x02\xff\x00", None), (b"\x93\x02\x09\x02", None), (b"\x92\x02\x09", None),
    (b"\x93\xa1x\x09\x00", None), (b"\x93\x02\x09\x00\x00", None),
]


@pytest.mark.parametrize("payload,want", CLAIM_ROWS)
def test_read_claim(payload, want) -> None:
    assert read_claim(1, payload) == want


claim_st = st.builds(HandClaim, st.integers(0, 4), st.integers(0, 4), st.integers(0, 6))


@given(st.lists(claim_st, max_size=24), st.randoms(use_true_random=False))
def test_the_same_claims_in_any_order_hand_over_the_same_seats(held, rnd) -> None:
    shuffled = list(held)
    rnd.shuffle(shuffled)
    first, second = hand_overs(FIVE, (), held), hand_overs(FIVE, (), shuffled)
    assert {s: h.step for s, h in first.items()} == {s: h.step for s, h in second.items()}
    for s, h in first.items():                      # never one player's word
        assert len(h.agreed) >= 3 and s not in h.agreed
