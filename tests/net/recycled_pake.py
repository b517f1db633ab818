"""Real SPAKE2 key exchanges whose elliptic-curve work is done once per test process.

For tests of the in-memory network whose point is not the key exchange (the random fault
tables of tests/net/table/test_faults_random.py open hundreds of tables, and pure-Python
SPAKE2 was about 40% of their CPU). Every exchange is still the production
`JoinKeyExchange`: the same code gives both sides the same keys, a wrong one different keys,
a malformed message the same `PakeError`. What changes is where the secret scalars come
from: the n-th dialer (or listener) exchange since `new_table()` draws its entropy from a
fixed seed of its own, so every connection of one table has its own keys and channel
binding, and the next table's connections repeat the same exchanges, whose results are
kept: a start and a finish already computed for the same side, code, seed (and message)
are not computed again.

Use the `recycled_pake` fixture, and call its `new_table()` before opening each table (each
hypothesis example): tests/net/table/test_faults_random.py.
"""

from __future__ import annotations

import hashlib
from typing import Callable

import pytest

from net.trust.pake import ChannelKeys, JoinKeyExchange, PakeError, normalized_code


def _seeded(side: bool, index: int) -> Callable[[int], bytes]:
    """The entropy of the index-th exchange of one side: the same bytes every time."""
    seed = hashlib.sha256(f"recycled-pake/{side}/{index}".encode()).digest()
    drawn = 0

    def entropy(n: int) -> bytes:
        nonlocal drawn
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + drawn.to_bytes(4, "big")).digest()
            drawn += 1
        return out[:n]
    return entropy


class RecycledPake:
    """Counts each side's exchanges since the last table, and keeps what was computed."""

    def __init__(self) -> None:
        self.counts = {True: 0, False: 0}
        self.outbounds: dict[tuple[bool, str, int], bytes] = {}
        self.finishes: dict[tuple[bool, str, int, bytes], ChannelKeys | PakeError] = {}
        self.computed = 0          # SPAKE2 starts actually run (a test may look)

    def new_table(self) -> None:
        self.counts = {True: 0, False: 0}

    def exchange(self, code: str, dialer: bool, entropy: object = None) -> "_Exchange":
        index = self.counts[dialer]
        self.counts[dialer] += 1
        return _Exchange(self, (dialer, normalized_code(code), index), code)

    def _real(self, key: tuple[bool, str, int], code: str) -> JoinKeyExchange:
        self.computed += 1
        real = JoinKeyExchange(code, dialer=key[0], entropy=_seeded(key[0], key[2]))
        self.outbounds.setdefault(key, real.outbound())
        return real


class _Exchange:
    """One connection's exchange, answering as `JoinKeyExchange` does."""

    def __init__(self, pool: RecycledPake, key: tuple[bool, str, int], code: str) -> None:
        self._pool, self._key, self._code = pool, key, code
        self.dialer = key[0]
        self._real: JoinKeyExchange | None = None
        if key not in pool.outbounds:
            self._real = pool._real(key, code)

    def outbound(self) -> bytes:
        return self._pool.outbounds[self._key]

    def finish(self, inbound: bytes) -> ChannelKeys:
        done = self._pool.finishes.get(self._key + (inbound,)) if isinstance(inbound, bytes) \
            else None
        if done is None:
            real, self._real = self._real or self._pool._real(self._key, self._code), None
            try:
                done = real.finish(inbound)
            except PakeError as exc:
                done = exc
            if isinstance(inbound, bytes):
                self._pool.finishes[self._key + (inbound,)] = done
        if isinstance(done, PakeError):
            raise PakeError(str(done))
        return done


_POOL = RecycledPake()        # kept for the whole test process


@pytest.fixture
def recycled_pake(monkeypatch: pytest.MonkeyPatch) -> RecycledPake:
    """Every handshake of this test's tables uses a `RecycledPake` exchange."""
    pool = _POOL
    pool.new_table()
    monkeypatch.setattr("net.transport.join_handshake.JoinKeyExchange", pool.exchange)
    return pool
