"""Plan commitments: a plan goes out as a hash first and is revealed after all commit.

Why: plans are secret and simultaneous (R-PLAN). The digest binds a seat to its plan
without showing it; the 32-byte random nonce stops anyone from guessing a plan by
hashing candidate plans (there are few sensible plans, but 2**256 nonces).

Tests: tests/net/lockstep/test_beacon_commitment.py, tests/net/lockstep/test_field_reveal.py.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any, Mapping

import msgpack

NONCE_BYTES = 32


def canonical(obj: object) -> bytes:
    """Canonical msgpack: maps with sorted keys, bytes as bin."""
    packed: bytes = msgpack.packb(_sorted(obj), use_bin_type=True)
    return packed


_PLAIN = frozenset({bytes, str, int, bool, float, type(None)})   # packed as they are


def _key_order(key: object) -> tuple[str, object]:
    return str(type(key)), key


_TEXT_ONLY = {str}


def _sorted(obj: object) -> object:
    """`obj` with every map's keys sorted by `_key_order` (plain leaves are not visited:
    every lockstep message is signed and checked through here, field digests and all).
    A map whose keys are all text, as every message's is, sorts by the keys themselves:
    the same order, since `_key_order` puts one type's keys in their own order."""
    if isinstance(obj, dict):
        keys = sorted(obj) if set(map(type, obj)) == _TEXT_ONLY else sorted(obj, key=_key_order)
        out: dict[object, object] = {}
        for k in keys:
            v = obj[k]
            out[k] = v if type(v) in _PLAIN else _sorted(v)
        return out
    if isinstance(obj, (list, tuple)):
        return [x if type(x) in _PLAIN else _sorted(x) for x in obj]
    return obj


def new_nonce() -> bytes:
    return os.urandom(NONCE_BYTES)


def commit(nonce: bytes, plan_wire: Mapping[str, object]) -> bytes:
    return hashlib.sha256(b"shogun-plan/" + nonce + canonical(plan_wire)).digest()


def verify(digest: bytes, nonce: bytes, plan_wire: Mapping[str, object]) -> bool:
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        return False
    return hmac.compare_digest(digest, commit(nonce, plan_wire))


# ------------------------------------------------------------------ one commitment per field
# Why per field: the rules turn a plan card by card (R-EXEC-2), the bids together
# (R-BID-1). Each field gets its own salted digest, so opening one field (its salt and
# card) tells nothing about the others, and each is opened only when its card is turned.

def field_salt(nonce: bytes, field: str) -> bytes:
    """The salt of one field: HMAC of the plan's secret nonce and the field's name. Opening
    a field shows its salt only; the other fields' salts cannot be derived from it."""
    return hmac.new(nonce, b"shogun-field-salt/" + field.encode(), hashlib.sha256).digest()


def field_digest(salt: bytes, seat: object, step: object, field: str, card: object) -> bytes:
    """The digest of one field. Seat and plan step are bound in, so a player cannot copy
    another's commitment and mirror its plan card for card as it is opened."""
    return hashlib.sha256(b"shogun-field/" + salt + canonical(
        {"seat": seat, "step": step, "field": field, "card": card})).digest()


def field_digests(nonce: bytes, seat: int, step: int, fields: tuple[str, ...],
                  cards: Mapping[str, object]) -> list[bytes]:
    """Every field's digest, in `fields` order (what `PlanCommitted` carries)."""
    return [field_digest(field_salt(nonce, f), seat, step, f, cards[f]) for f in fields]


def field_matches(digest: object, salt: object, seat: object, step: object, field: str,
                  card: object) -> bool:
    if not isinstance(salt, bytes) or len(salt) != NONCE_BYTES or not isinstance(digest, bytes):
        return False
    return hmac.compare_digest(digest, field_digest(salt, seat, step, field, card))


def opening_mismatch(committed: Mapping[str, object], opened: Mapping[str, object],
                     fields: tuple[str, ...]) -> str | None:
    """If the signed `opened` (BidOpened / FieldOpened) does not match the signed
    `committed` (PlanCommitted) it claims to open, the sentence saying so; else None.
    Both signed by one seat, the pair is a proof of cheating anyone can check."""
    if committed.get("type") != "PlanCommitted" or opened.get("type") not in (
            "BidOpened", "FieldOpened") or committed.get("seat") != opened.get("seat"):
        return None
    field: Any                # wire values: checked below
    step: Any
    if opened["type"] == "BidOpened":
        field, step, lock = "bid", opened.get("step"), opened.get("lock")
    else:
        field, step, lock = opened.get("field"), opened.get("plan"), opened.get("lock")
    if step != committed.get("step") or lock != committed.get("lock") or field not in fields:
        return None
    digests = committed.get("fields")
    if not isinstance(digests, list) or len(digests) != len(fields):
        return None
    if field_matches(digests[fields.index(field)], opened.get("salt"), opened["seat"], step,
                     field, opened.get("card")):
        return None
    return (f"seat {opened['seat']} opened its {field} field of step {step} with a card "
            f"its signed commitment does not hold")
