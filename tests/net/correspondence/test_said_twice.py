"""Two messages a seat may say once, in its own unforked file (net/correspondence/said_twice.py):
which pairs expel it, and which never do (said again after a take-over)."""

from __future__ import annotations

import pytest

from net.correspondence.said_twice import SaidRecord, judge_said
from net.correspondence.seat_record import KIND_HAND, KIND_OWN, KIND_PROOF, KIND_TABLE

SEAT = 0


def _plan(step: int, digest: bytes, hash_: bytes = b"h" * 8) -> dict[str, object]:
    return {"type": "PlanCommitted", "step": step, "seat": SEAT, "lock": 0,
            "fields": [digest * 32] * 4, "hash": hash_, "sig": b"s" * 64}


A, B = _plan(5, b"a"), _plan(5, b"b")          # two plans for step 5: a conflict
C = _plan(6, b"b")                             # a plan for another step
D = _plan(5, b"b", b"g" * 8)                   # step 5 on another state (another hash)


def _file(*records: tuple[int, tuple[dict[str, object], ...]]) -> list[SaidRecord]:
    return [SaidRecord(i, kind, msgs) for i, (kind, msgs) in enumerate(records)]


T, OWN, PROOF, HAND = KIND_TABLE, KIND_OWN, KIND_PROOF, KIND_HAND
CASES = [
    # (case, the seat's records, first, second, void from (None: no proof), sentence words)
    ("two plans for one step in two records", [(T, (A,)), (OWN, ()), (T, (B,))], 0, 2, 2,
     "signed two different PlanCommitted messages for step 5"),
    ("the later first", [(T, (A,)), (T, (B,))], 1, 0, 1, "is expelled"),
    ("both in one record", [(T, ()), (T, (A, B))], 1, 1, 1, "is expelled"),
    ("said again after its proof record (an expulsion it learned)",
     [(T, (A,)), (PROOF, ()), (T, (B,))], 0, 2, None, "after its record 1"),
    ("said again after its hand-over claim (`known`)",
     [(T, (A,)), (T, ()), (HAND, ()), (OWN, ()), (T, (B,))], 0, 4, None, "after its record 2"),
    ("a proof or claim after both: still a proof",
     [(T, (A,)), (T, (B,)), (PROOF, ())], 0, 1, 1, "is expelled"),
    ("two steps: no conflict", [(T, (A,)), (T, (C,))], 0, 1, None, "no two messages"),
    ("one step on two states (two hashes): no conflict", [(T, (A,)), (T, (D,))], 0, 1, None,
     "no two messages"),
    ("the same plan twice", [(T, (A,)), (T, (dict(A),))], 0, 1, None, "no two messages"),
    ("a record of another kind", [(T, (A,)), (OWN, ())], 0, 1, None, "no two messages"),
    ("one record twice, one plan in it", [(T, (A,))], 0, 0, None, "the same record twice"),
]


@pytest.mark.parametrize("case,records,first,second,void,words", CASES,
                         ids=[c[0] for c in CASES])
def test_two_messages_in_one_file(case: str, records: list[tuple[int, tuple[dict[str, object], ...]]],
                                  first: int, second: int, void: int | None,
                                  words: str) -> None:
    verdict = judge_said(SEAT, _file(*records), first, second)
    assert not verdict.wait
    assert verdict.proves is (void is not None)
    if void is not None:
        assert verdict.accused == SEAT and verdict.from_seq == void
    assert words in verdict.sentence, verdict.sentence


def test_records_not_here_yet_wait() -> None:
    verdict = judge_said(SEAT, _file((T, (A,))), 0, 3)
    assert verdict.wait and not verdict.proves
    assert "record 3 is not here yet" in verdict.sentence
