"""The join code as a password-authenticated key exchange (SPAKE2).

Why a PAKE and not a proof of the code: an HMAC of the code over a nonce lets anyone who
sees one handshake (an eavesdropper, or a fake table that someone dialed) test every
candidate code offline — 25 bits fall in under a minute. With SPAKE2 each side sends one
group element blinded by the code; a wrong code only yields a different key, and the
transcript is equally consistent with every code. An attacker gets one guess per
connection it takes part in, which `net.trust.guess_limit` rations.

The dialer plays SPAKE2 side A, the listener side B. Both derive the same 32-byte key
only if both used the same code; from it come one key per direction (so the two
directions' nonce counters can never collide) and a channel binding that seat
signatures cover (a proof made on one connection cannot be replayed on another).

Tests: tests/net/trust/test_attacks.py, tests/net/transport/test_peer.py.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Callable

from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

ID_DIALER = b"shogun-join/dialer"
ID_LISTENER = b"shogun-join/listener"
MESSAGE_BYTES = 33


def normalized_code(code: str) -> str:
    """The code as the exchange uses it: upper case, without the dashes and spaces a
    player types or reads aloud ("k7q2-m9xd" is "K7Q2M9XD")."""
    return "".join(ch for ch in code.upper() if not ch.isspace() and ch != "-")


class PakeError(ValueError):
    """The other side's key-exchange message cannot be used; the text says why."""


@dataclass(frozen=True)
class ChannelKeys:
    """What one side of a finished exchange holds."""
    send: bytes          # key for frames I send
    receive: bytes       # key for frames I receive
    binding: bytes       # the same on both sides; unique to this connection


def channel_key(key: bytes, label: bytes) -> bytes:
    """One key of a connection from the exchange's shared key: each direction and the
    channel binding have their own label (an attack test derives one as an eavesdropper
    who guessed the code would)."""
    return hashlib.blake2b(label, key=key, digest_size=32, person=b"shogun-channel").digest()


class JoinKeyExchange:
    """One side of one connection's exchange: `outbound()` to send, `finish()` to end."""

    def __init__(self, code: str, dialer: bool,
                 entropy: Callable[[int], bytes] = os.urandom) -> None:
        cls = SPAKE2_A if dialer else SPAKE2_B
        self.dialer = dialer
        self._spake = cls(normalized_code(code).encode("utf-8"), idA=ID_DIALER, idB=ID_LISTENER,
                          entropy_f=entropy)
        self._outbound: bytes = self._spake.start()

    def outbound(self) -> bytes:
        return self._outbound

    def finish(self, inbound: bytes) -> ChannelKeys:
        if not isinstance(inbound, bytes) or len(inbound) != MESSAGE_BYTES:
            raise PakeError(f"key-exchange message has {len(inbound)} bytes, not {MESSAGE_BYTES}")
        try:
            key = self._spake.finish(inbound)
        except SPAKEError as exc:
            raise PakeError(f"unusable key-exchange message: {exc}") from None
        except Exception as exc:          # a malformed point, say
            raise PakeError(f"unusable key-exchange message: {type(exc).__name__}") from None
        d2l, l2d = channel_key(key, b"dialer->listener"), channel_key(key, b"listener->dialer")
        binding = channel_key(key, b"binding")
        return ChannelKeys(send=d2l if self.dialer else l2d,
                           receive=l2d if self.dialer else d2l, binding=binding)
