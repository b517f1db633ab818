"""Signed lockstep messages, and proofs that a seat said two different things.

Why: without signatures a player can tell one peer one thing and another peer another
(equivocation), and a relayer can invent what a dropped seat "said". A seat signs every
message it originates; receivers check it against the key pinned in `GameStarted`.
Then a relayed message proves itself like any other, and two different signed messages
of one kind from one seat for one step, made from one state (the same carried hash),
are a proof of cheating that every peer can check for itself: an honest peer never
sends them (its choices are saved before they are sent and repeated exactly).

Tests: tests/net/trust/test_signature_checks.py, tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from net.lockstep import commitment, echo
from net.lockstep.commitment import canonical
from net.transport.messages import PLAN_FIELD_NAMES as PLAN_FIELDS, Wire
from net.trust.seat_keys import SeatKey, verify

SIGNED = frozenset({"ChainCommitted", "PlanCommitted", "PlanUnlocked", "BidOpened",
                    "FieldOpened", "LinkRevealed", "CommandSent", "GameFinished",
                    "CommitsEchoed", "TowerVoted", "HashStated", "TakeoverClaimed"})
# a player may claim several seats' take-over for one step: two claims prove nothing
MANY_PER_STEP = frozenset({"TakeoverClaimed"})


def _signed_bytes(table: bytes, msg: Mapping[str, object]) -> bytes:
    return b"shogun-msg/" + table + canonical({k: v for k, v in msg.items() if k != "sig"})


def sign(key: SeatKey, table: bytes, msg: Wire) -> Wire:
    """Sign `msg` in place (once; a resend reuses the signature) and return it."""
    if "sig" not in msg:
        msg["sig"] = key.sign(_signed_bytes(table, msg))
    return msg


def signed_by(public: bytes | None, table: bytes, msg: Mapping[str, object]) -> bool:
    return verify(public, _signed_bytes(table, msg), msg.get("sig"))


def conflict(a: Mapping[str, object], b: Mapping[str, object]) -> str | None:
    """If `a` and `b` are two different messages one seat may send only once (same kind,
    seat and step, made from the same state), the sentence saying so; else None.
    Signatures are checked by the caller. A plan opening that does not match the seat's
    signed commitment is a proof as well (`net.lockstep.commitment.opening_mismatch`), and so is an
    unlock after the seat's own echo (`net.lockstep.echo.unlock_after_echo`); a relock (`lock`) is
    a new commitment, not a second one."""
    mismatch = commitment.opening_mismatch(a, b, PLAN_FIELDS)
    if mismatch is not None:
        return mismatch
    late = echo.unlock_after_echo(a, b) or echo.unlock_after_echo(b, a)
    if late is not None:
        return late
    if a.get("type") != b.get("type") or a.get("lock") != b.get("lock") or a.get("type") not in SIGNED \
            or a.get("type") in MANY_PER_STEP \
            or a.get("seat") != b.get("seat") or a.get("step") != b.get("step") \
            or a.get("hash") != b.get("hash"):
        return None

    def strip(m: Mapping[str, object]) -> bytes:
        return canonical({k: v for k, v in m.items() if k != "sig"})
    if strip(a) == strip(b):
        return None
    where = f" for step {a['step']}" if "step" in a else ""
    return f"seat {a['seat']} signed two different {a['type']} messages{where}"
