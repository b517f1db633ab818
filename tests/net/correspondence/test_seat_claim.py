"""A friend's claim of a seat, row by row, and the seating of claims
(net/correspondence/seat_claim.py)."""

from __future__ import annotations

import pytest

from net.correspondence.seat_claim import (Claim, ClaimKind, claim_file_name, judge_claim,
                                           make_claim, seat_claims)
from net.correspondence.table_start import TableCode, make_door
from net.trust.seat_keys import SeatKey
from tests.net.correspondence.test_table_start import (CODE, FRIEND, HOST, OTHER, WRONG, case_id,
                                                       refit, start)

NAME = claim_file_name(CODE.table, FRIEND.public)
GOOD = make_claim(FRIEND, CODE, "Kenji")


def wrong_code_claim() -> bytes:
    """A claim made with another code, but carrying this table's id (read from the folder)."""
    import hashlib
    fake = make_door(FRIEND, "claim", CODE.table, WRONG.sealing,
                     [FRIEND.public, "Kenji", hashlib.blake2b(b"x").digest()])
    return fake


def bad_proof_claim() -> bytes:
    return make_door(FRIEND, "claim", CODE.table, CODE.sealing,
                     [FRIEND.public, "Kenji", bytes(64)])


def unsigned_claim() -> bytes:
    """Carries FRIEND's key and a good proof, signed by OTHER."""
    from net.correspondence import seat_claim
    return make_door(OTHER, "claim", CODE.table, CODE.sealing,
                     [FRIEND.public, "Kenji", seat_claim._proof(CODE, FRIEND.public, "Kenji")])


@pytest.mark.parametrize("file, data, kind, says", ids=case_id, argvalues=[
    (NAME, GOOD, ClaimKind.CLAIM, ""),
    (NAME, GOOD[:-3], ClaimKind.NOT_WHOLE, "not whole"),
    (NAME, b"x" * 40, ClaimKind.DAMAGED, "damaged"),
    (NAME, make_claim(FRIEND, WRONG, "Kenji"), ClaimKind.OTHER_TABLE, "another table"),
    (NAME, wrong_code_claim(), ClaimKind.NO_CODE, "does not prove the table's code"),
    (NAME, bad_proof_claim(), ClaimKind.NO_CODE, "does not prove the table's code"),
    (NAME, refit(GOOD, len(GOOD) - 4 - 70), ClaimKind.NO_CODE, "does not prove"),
    (NAME, unsigned_claim(), ClaimKind.FORGED, "not signed by the key it carries"),
    (claim_file_name(CODE.table, OTHER.public), GOOD, ClaimKind.COPIED, "copied"),
    (claim_file_name(CODE.table, HOST.public), make_claim(HOST, CODE, "Aiko"), ClaimKind.HOST,
     "host's own key"),
])
def test_a_claim(file, data, kind, says):
    verdict = judge_claim(CODE, start(), file, data)
    assert verdict.kind is kind, verdict.sentence
    assert says in verdict.sentence
    assert (verdict.claim is not None) == (kind is ClaimKind.CLAIM)
    assert verdict.names_someone == (kind not in (ClaimKind.CLAIM, ClaimKind.NOT_WHOLE))


def test_a_claim_carries_its_key_and_its_shown_name():
    claim = judge_claim(CODE, start(), NAME, make_claim(FRIEND, CODE, "Ken\x1b[2Jji" + "x" * 60)).claim
    assert claim is not None and claim.public == FRIEND.public
    assert "\x1b" not in claim.name and len(claim.name) <= 40


def test_claim_file_names_differ_between_tables_for_one_key():
    other = TableCode.new(HOST.public)
    assert claim_file_name(CODE.table, FRIEND.public) != claim_file_name(other.table, FRIEND.public)


def claims(n: int) -> list[Claim]:
    keys = [SeatKey(bytes([i + 1]) * 32) for i in range(n)]
    return [Claim(claim_file_name(CODE.table, k.public), k.public, f"p{i}") for i, k in enumerate(keys)]


@pytest.mark.parametrize("players, bots, given, seated", [
    (3, 1, 0, None),            # host + 1 friend needed
    (3, 1, 1, 2),
    (3, 1, 3, 2),               # extras left out
    (5, 0, 3, None),
    (5, 0, 4, 5),
    (4, 3, 0, 1),               # the host alone with three bots
])
def test_the_seating_of_claims(players, bots, given, seated):
    got = seat_claims(start(players=players, bots=bots), claims(given))
    if seated is None:
        assert got is None
        return
    assert got is not None
    assert [e.seat for e in got.seats] == list(range(players))
    assert sum(e.kind == "human" for e in got.seats) == seated
    assert got.seats[0].public == HOST.public
    assert [e.kind for e in got.seats[players - bots:]] == ["bot"] * bots
    # first come, first seated; a key claimed twice is one claim
    assert [e.public for e in got.seats[1:seated]] == [c.public for c in claims(given)[:seated - 1]]
    assert seat_claims(start(players=players, bots=bots), claims(given) * 2) == got
