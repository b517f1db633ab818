"""Expanding a 32-byte chance seed into draws, the same way on every machine.

Why not `random.Random`: its algorithms for `randrange`/`shuffle` are not a documented
contract across Python versions, and peers of a lockstep game must agree bit for bit.
This generator is SHA-256 in counter mode with rejection sampling, fully specified here:

    block(i) = SHA256(seed || i as 8-byte big-endian)
    below(n): take the next 8 bytes as an unsigned big-endian integer x; reject it while
              x >= floor(2**64 / n) * n; return x % n.

Everything else (`shuffle`, `choice`, `sample`, `uniform`) is built on `below`.

Tests: tests/sim/test_determinism.py (the same seed, the same game in every process).
"""

from __future__ import annotations

import hashlib
import struct
from typing import Sequence, TypeVar

T = TypeVar("T")
SEED_BYTES = 32
_SPAN = 1 << 64
_WORDS = struct.Struct(">4Q")   # a block as four big-endian 8-byte draws


def derive_seed(parent: bytes, label: str) -> bytes:
    """A child seed for an independent use of the same chance input."""
    return hashlib.sha256(parent + b"/" + label.encode("utf-8")).digest()


class ChanceStream:
    """Deterministic draws from one seed."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
            raise ValueError(f"a chance seed must be {SEED_BYTES} bytes")
        self._seed = bytes(seed)
        self._counter = 0
        self._left: list[int] = []   # the current block's draws not yet taken, last first

    def _next64(self) -> int:
        """The next 8 bytes as an integer. A block is split into its four draws at once
        (a list popped from the end, not bytes sliced per draw: the hard bot's rollouts
        draw tens of thousands of times per decision, issue 40); the same draws in the
        same order as the module's description."""
        if not self._left:
            self._next64_refill()
        return self._left.pop()

    def _next64_refill(self) -> None:
        """The next block's four draws, last first."""
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._left = list(_WORDS.unpack(block))
        self._left.reverse()

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (_SPAN // n) * n
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def draws_below(self, n: int, k: int) -> list[int]:
        """`k` draws of `below(n)`, the same numbers in the same order, in one call (the
        hard bot's tower model draws once per cube, issue 40)."""
        if n <= 0:
            raise ValueError("draws_below() needs n >= 1")
        limit = (_SPAN // n) * n
        out: list[int] = []
        while len(out) < k:
            if not self._left:
                self._next64_refill()
            x = self._left.pop()
            if x < limit:
                out.append(x % n)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the end."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffle(items)[:k]

    def uniform(self, lo: float, hi: float) -> float:
        """A float in [lo, hi) from 53 random bits (exact and portable)."""
        return lo + (hi - lo) * ((self._next64() >> 11) / float(1 << 53))


def seed_for(game_seed: int | bytes, index: int) -> bytes:
    """Chance seeds for local games: the `index`-th seed of a game's seed (not used by net)."""
    base = game_seed if isinstance(game_seed, bytes) else str(game_seed).encode()
    return hashlib.sha256(b"shogun-local/" + base + b"/" + str(index).encode()).digest()
