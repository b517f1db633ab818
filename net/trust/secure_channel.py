"""Every frame after the key exchange: encrypted and authenticated (XSalsa20-Poly1305).

Why explicit counters: each direction has its own key and numbers its frames 0, 1, 2 …;
the counter is the nonce and travels in clear (8 bytes) so a rejected frame can be
named exactly — a replay (a counter already used), a frame out of order or missing
(a counter ahead), or a forgery (right counter, wrong authenticator). A rejected frame
never advances the counter, so the honest stream goes on after it.

Tests: tests/net/trust/test_secure_channel.py, tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

import struct

from nacl.bindings import crypto_secretbox_easy, crypto_secretbox_open_easy
from nacl.exceptions import CryptoError
from nacl.secret import SecretBox

_COUNTER = struct.Struct(">Q")
OVERHEAD = _COUNTER.size + SecretBox.MACBYTES
MAX_GAP = 1 << 20          # a number this far ahead was never sealed by this channel


class ChannelError(ValueError):
    """A sealed frame that was refused; the text says what was wrong with it."""


def _nonce(counter: int) -> bytes:
    return bytes(SecretBox.NONCE_SIZE - _COUNTER.size) + _COUNTER.pack(counter)


class SecureChannel:
    """Seals what I send and opens what I receive on one connection."""

    def __init__(self, send_key: bytes, receive_key: bytes) -> None:
        # libsodium's secretbox is called directly (what `nacl.secret.SecretBox` wraps,
        # without its per-call checks and result objects: a frame is sealed or opened
        # ~2,000 times per peer per game), so the keys are checked once, here
        for key in (send_key, receive_key):
            if not isinstance(key, bytes) or len(key) != SecretBox.KEY_SIZE:
                raise ValueError(f"a channel key must be {SecretBox.KEY_SIZE} bytes")
        self._send_key, self._receive_key = send_key, receive_key
        self.sent = 0            # frames sealed so far (= next outgoing counter)
        self.received = 0        # frames opened so far (= next expected counter)

    def seal(self, body: bytes) -> bytes:
        counter = self.sent
        self.sent += 1
        return _COUNTER.pack(counter) + crypto_secretbox_easy(body, _nonce(counter),
                                                              self._send_key)

    def open(self, sealed: bytes) -> bytes:
        if len(sealed) < OVERHEAD:
            raise ChannelError(f"sealed frame of {len(sealed)} bytes is too short")
        (counter,) = _COUNTER.unpack_from(sealed)
        if counter < self.received:
            raise ChannelError(f"replayed frame: number {counter} was already received")
        if counter > self.received + MAX_GAP:
            raise ChannelError("frame is not sealed for this connection (sent in clear, or "
                               "taken from another connection)")
        if counter > self.received:
            raise ChannelError(f"frame out of order: number {counter}, expected {self.received}")
        try:
            body = crypto_secretbox_open_easy(sealed[_COUNTER.size:], _nonce(counter),
                                              self._receive_key)
        except CryptoError:
            raise ChannelError(f"forged or corrupted frame number {counter}: "
                               "its authenticator does not match") from None
        self.received += 1
        return body
