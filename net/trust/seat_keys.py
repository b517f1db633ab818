"""Seat keys: every player's Ed25519 signing key, pinned for the table at the start.

Why: a seat must belong to whoever holds its key, not to whoever knows the join code
and a peer id (both reach every spectator). The public key goes to the host in the
player's `Hello`, the host pins every seat's key in `GameStarted`, and from then on a
connection claiming a seat must sign this connection's channel binding (so the proof
cannot be replayed on another connection), and every lockstep message is signed
(`net.lockstep.signatures`). The secret stays in the player's local save, so `--resume` can
prove the seat after a crash; nobody else can.

Tests: tests/net/trust/test_hostile.py, tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

PUBLIC_BYTES = 32
SIGNATURE_BYTES = 64


class SeatKey:
    """My seat's signing key (the 32-byte seed is what the save keeps)."""

    def __init__(self, seed: bytes | None = None) -> None:
        self._key = SigningKey(seed) if seed is not None else SigningKey.generate()
        self.seed = bytes(self._key)
        self.public = bytes(self._key.verify_key)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data).signature


def verify(public: bytes | None, data: bytes, signature: object) -> bool:
    """True if `signature` over `data` was made with the key whose public half is `public`."""
    if not isinstance(public, bytes) or len(public) != PUBLIC_BYTES \
            or not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        VerifyKey(public).verify(data, signature)
        return True
    except (BadSignatureError, ValueError):
        return False


def _seat_claim(table: bytes, seat: int, binding: bytes) -> bytes:
    return b"shogun-seat/" + table + bytes([seat]) + binding


def prove_seat(key: SeatKey, table: bytes, seat: int, binding: bytes) -> bytes:
    """A connection's proof that its dialer holds `seat`'s key (bound to this connection)."""
    return key.sign(_seat_claim(table, seat, binding))


def seat_proved(public: bytes | None, table: bytes, seat: int, binding: bytes,
                proof: bytes | None) -> bool:
    return verify(public, _seat_claim(table, seat, binding), proof)
