"""The two rules of expulsion by proof over a folder (net/correspondence/fork_proof.py)."""

from __future__ import annotations

import pytest

from net.correspondence.fork_proof import ProofClaim, counts, judge_proof, takes_over
from net.trust.seat_keys import SeatKey
from tests.net.correspondence.seat_writers import OTHER_TABLE, TABLE, Writer

ACCUSED, WRITER = 0, 1


def _records() -> dict[str, bytes]:
    w = Writer(ACCUSED)
    w.write(b"zero")
    a = w.next_record(b"one")                       # record 1, one side
    b = w.next_record(b"one, otherwise")            # record 1, the other side
    c = w.next_record(b"one", seq=2)                # numbered 2
    forged = w.next_record(b"one", key=SeatKey(None))
    other = Writer(ACCUSED, table=OTHER_TABLE, key=w.key).next_record(b"one")
    third = Writer(2, key=w.key).next_record(b"one")  # seat 2's record, the same key
    return {"a": a.raw, "b": b.raw, "c": c.raw, "zero": w.records[0].raw,
            "forged": forged.raw, "other": other.raw, "seat2": third.raw,
            "cut": a.raw[:-3], "two": a.raw + b.raw, "junk": b"not a record", "key": w.public}


R = _records()
KEYS = {ACCUSED: R["key"], WRITER: SeatKey(None).public}

PROOFS = [
    # (case, accused, first, second, expelled from seq or None, words in the sentence)
    ("a fork: two signed records numbered 1", ACCUSED, "a", "b", 1, "two different records numbered 1"),
    ("the other order", ACCUSED, "b", "a", 1, "numbered 1"),
    ("the same record twice", ACCUSED, "a", "a", None, "the same record twice"),
    ("two numbers", ACCUSED, "a", "c", None, "not one number"),
    ("a record the seat did not sign", ACCUSED, "a", "forged", None, "did not sign"),
    ("a record of another table", ACCUSED, "a", "other", None, "another table or seat"),
    ("a record of another seat", ACCUSED, "a", "seat2", None, "another table or seat"),
    ("a record cut short", ACCUSED, "cut", "b", None, "two whole records"),
    ("two records in one", ACCUSED, "two", "b", None, "two whole records"),
    ("bytes that are no record", ACCUSED, "junk", "b", None, "two whole records"),
    ("a seat with no key", 4, "a", "b", None, "no key"),
]


@pytest.mark.parametrize("case,accused,first,second,expelled,words", PROOFS,
                         ids=[p[0] for p in PROOFS])
def test_a_proof_record_expels_only_when_it_proves_itself(case, accused, first, second,
                                                           expelled, words):
    verdict = judge_proof(TABLE, KEYS, ProofClaim(WRITER, accused, R[first], R[second]))
    assert words in verdict.sentence
    if expelled is None:
        assert not verdict.proves and verdict.accused is None
        assert verdict.sentence.startswith(f"seat {WRITER} wrote a proof against seat {accused}")
    else:
        assert verdict.accused == accused and verdict.from_seq == expelled


TAKEOVERS = [
    # (case, expelled, bots, waiting, step, queued {seat: steps}, taken over)
    ("awaited, nothing counted left", {0}, set(), [0, 1], 7, {}, (0,)),
    ("awaited, only later inputs left", {0}, set(), [0], 7, {0: [8, 9]}, (0,)),
    ("awaited, an input for this step left", {0}, set(), [0], 7, {0: [7]}, ()),
    ("awaited, an older input left (the lockstep takes it first)", {0}, set(), [0], 7, {0: [6]}, ()),
    ("not awaited", {0}, set(), [1], 7, {}, ()),
    ("a bot already", {0}, {0}, [0], 7, {}, ()),
    ("not expelled", set(), set(), [0], 7, {}, ()),
    ("two expelled, both awaited", {2, 0}, set(), [0, 2], 3, {}, (0, 2)),
]


@pytest.mark.parametrize("case,expelled,bots,waiting,step,queued,taken", TAKEOVERS,
                         ids=[t[0] for t in TAKEOVERS])
def test_a_bot_plays_an_expelled_seat_from_the_first_step_its_records_do_not_complete(
        case, expelled, bots, waiting, step, queued, taken):
    assert takes_over(expelled, bots, waiting, step, queued) == taken


COUNTS = [
    # (case, writer, record, step, expelled, taken, proved_at, counts)
    ("nobody expelled", 1, 5, 9, {}, {}, {}, True),
    ("the forker, below its fork", 0, 4, 9, {0: 5}, {}, {}, True),
    ("the forker, at its fork", 0, 5, 3, {0: 5}, {}, {}, False),
    ("the forker, after its fork", 0, 7, 3, {0: 5}, {}, {}, False),
    ("before the take-over is known", 1, 5, 9, {0: 5}, {}, {}, True),
    ("a step at the take-over, written before any proof", 1, 5, 8, {0: 5}, {0: 8}, {}, True),
    ("a step past the take-over, written before any proof", 1, 5, 9, {0: 5}, {0: 8}, {}, False),
    ("past it, written before the writer's proof", 1, 5, 9, {0: 5}, {0: 8}, {(1, 0): 6}, False),
    ("past it, written after the writer's proof", 1, 7, 9, {0: 5}, {0: 8}, {(1, 0): 6}, True),
    ("another writer's proof does not do", 2, 7, 9, {0: 5}, {0: 8}, {(1, 0): 6}, False),
    ("a message of no step (a chain's end)", 1, 0, None, {0: 5}, {0: 8}, {}, True),
]


@pytest.mark.parametrize("case,writer,seq,step,expelled,taken,proved_at,expected", COUNTS,
                         ids=[c[0] for c in COUNTS])
def test_what_a_player_wrote_past_the_take_over_before_it_knew_does_not_count(
        case, writer, seq, step, expelled, taken, proved_at, expected):
    assert counts(writer, seq, step, expelled, taken, proved_at) is expected
