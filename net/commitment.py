"""Plan commitments: a plan goes out as a hash first and is revealed after all commit.

Why: plans are secret and simultaneous (R-PLAN). The digest binds a seat to its plan
without showing it; the 32-byte random nonce stops anyone from guessing a plan by
hashing candidate plans (there are few sensible plans, but 2**256 nonces).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

import msgpack

NONCE_BYTES = 32


def canonical(obj: Any) -> bytes:
    """Canonical msgpack: maps with sorted keys, bytes as bin."""
    return msgpack.packb(_sorted(obj), use_bin_type=True)


def _sorted(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj, key=lambda k: (str(type(k)), k))}
    if isinstance(obj, (list, tuple)):
        return [_sorted(x) for x in obj]
    return obj


def new_nonce() -> bytes:
    return os.urandom(NONCE_BYTES)


def commit(nonce: bytes, plan_wire: dict[str, Any]) -> bytes:
    return hashlib.sha256(b"shogun-plan/" + nonce + canonical(plan_wire)).digest()


def verify(digest: bytes, nonce: bytes, plan_wire: dict[str, Any]) -> bool:
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        return False
    return hmac.compare_digest(digest, commit(nonce, plan_wire))
