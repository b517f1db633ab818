"""The chance beacon: hash chains to which every player contributes.

Why: a lockstep game has no server to roll dice. Each player commits at game start to
the end of a hash chain, `h_N = H^N(secret)`, and later reveals `h_{N-1}, h_{N-2}, ...`,
one link per beacon round. A link is fixed by the commitment (so nobody can steer a
seed) and unknown to others until revealed (so nobody can predict one before every
link of the round is out). A wrong link fails `H(link) == previous`.

Tests: tests/net/lockstep/test_beacon_commitment.py.
"""

from __future__ import annotations

import hashlib
import os

CHAIN_LENGTH = 4096
LINK_BYTES = 32


def H(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class BeaconError(ValueError):
    """A link that does not extend the chain we know."""


class HashChain:
    """My own chain: the secret end, the public commitment, and the links to reveal."""

    def __init__(self, secret: bytes | None = None, length: int = CHAIN_LENGTH) -> None:
        self.secret = secret if secret is not None else os.urandom(LINK_BYTES)
        if len(self.secret) != LINK_BYTES:
            raise ValueError("a chain secret is 32 bytes")
        self.length = length
        links = [self.secret]
        for _ in range(length):
            links.append(H(links[-1]))
        self._links = links              # links[i] = H^i(secret)

    @property
    def commitment(self) -> bytes:
        return self._links[self.length]

    def link(self, index: int) -> bytes:
        """The link revealed for beacon round `index` (0-based): h_{N-1-index}."""
        if not 0 <= index < self.length:
            raise IndexError(f"beacon round {index} is beyond the chain of {self.length}")
        return self._links[self.length - 1 - index]


class ChainVerifier:
    """What we know of another player's chain: its last verified link and round."""

    def __init__(self, commitment: bytes, length: int = CHAIN_LENGTH) -> None:
        self.commitment = commitment
        self.length = length
        self.last = commitment
        self.next_round = 0

    def check(self, round_: int, link: bytes) -> None:
        """Raise BeaconError unless `link` is the correct link for `round_` (not yet seen)."""
        if not isinstance(link, bytes) or len(link) != LINK_BYTES:
            raise BeaconError("a link is 32 bytes")
        if round_ < self.next_round:
            raise BeaconError(f"link for round {round_} replayed (next is {self.next_round})")
        # links may be verified only in order; a link for a later round is checked by
        # hashing forward to the last known link
        gap = round_ - self.next_round + 1
        if gap > self.length:
            raise BeaconError(f"round {round_} is beyond the chain")
        value = link
        for _ in range(gap):
            value = H(value)
        if value != self.last:
            raise BeaconError(f"link for round {round_} does not hash to the committed chain")

    def accept(self, round_: int, link: bytes) -> None:
        self.check(round_, link)
        self.last = link
        self.next_round = round_ + 1


def combine(links: list[bytes], label: bytes = b"") -> bytes:
    """The round's seed: SHA-256 of every contributor's link in seat order."""
    return H(b"shogun-beacon/" + label + b"/" + b"".join(links))
