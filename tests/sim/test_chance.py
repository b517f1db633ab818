"""`sim.chance.ChanceStream` draws exactly what its module describes (SHA-256 in counter
mode, 8 big-endian bytes a draw, rejection sampling), whatever the mix of draws: every
peer of a lockstep game, and every rollout of the hard bot, depends on it (issue 40 made
the draws quicker; they must stay the same numbers)."""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.chance import ChanceStream


class Described:
    """The generator as the module's docstring writes it, bytes sliced draw by draw."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.counter, self.buffer = seed, 0, b""

    def next64(self) -> int:
        if len(self.buffer) < 8:
            self.buffer += hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        x, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return x

    def below(self, n: int) -> int:
        limit = (2 ** 64 // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n


def test_the_first_draws_of_a_known_seed():
    seed = b"\x01" * 32
    block = hashlib.sha256(seed + (0).to_bytes(8, "big")).digest()
    stream = ChanceStream(seed)
    assert [stream.below(2 ** 63) for _ in range(4)] == \
        [int.from_bytes(block[i:i + 8], "big") % 2 ** 63 for i in range(0, 32, 8)]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine
@given(seed=st.binary(min_size=32, max_size=32),
       sizes=st.lists(st.one_of(st.integers(1, 12), st.integers(1, 2 ** 64),
                                st.just(1024), st.just(3 * 2 ** 62)), max_size=40))
def test_draws_are_the_described_ones(seed, sizes):
    stream, described = ChanceStream(seed), Described(seed)
    assert [stream.below(n) for n in sizes] == [described.below(n) for n in sizes]
    assert stream.draws_below(1024, 9) == [described.below(1024) for _ in range(9)]
    assert stream.draws_below(5, 3) == [described.below(5) for _ in range(3)]
    assert stream.uniform(0.0, 1.0) == (described.next64() >> 11) / float(1 << 53)
