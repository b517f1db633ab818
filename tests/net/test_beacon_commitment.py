"""The beacon's hash chains and the plan commitments."""

import pytest

from net import commitment
from net.beacon import BeaconError, ChainVerifier, HashChain, combine, H


def test_links_verify_in_order_and_with_gaps():
    chain = HashChain(b"s" * 32, 20)
    v = ChainVerifier(chain.commitment, 20)
    v.accept(0, chain.link(0))
    v.accept(1, chain.link(1))
    v.accept(4, chain.link(4))          # a gap: hashed forward to the last link
    assert v.next_round == 5
    assert H(chain.link(0)) == chain.commitment


def test_wrong_link_is_rejected():
    chain, other = HashChain(b"s" * 32, 20), HashChain(b"t" * 32, 20)
    v = ChainVerifier(chain.commitment, 20)
    with pytest.raises(BeaconError, match="does not hash"):
        v.accept(0, other.link(0))
    with pytest.raises(BeaconError, match="does not hash"):
        v.accept(0, chain.link(1))       # a later link cannot stand in for an earlier one
    with pytest.raises(BeaconError, match="32 bytes"):
        v.accept(0, b"short")


def test_replayed_link_is_rejected():
    chain = HashChain(b"s" * 32, 20)
    v = ChainVerifier(chain.commitment, 20)
    v.accept(0, chain.link(0))
    with pytest.raises(BeaconError, match="replayed"):
        v.accept(0, chain.link(0))


def test_seed_depends_on_every_link_and_order():
    a, b = b"a" * 32, b"b" * 32
    assert combine([a, b]) != combine([b, a])
    assert combine([a, b]) != combine([a, b"c" * 32])
    assert combine([a], b"chance") != combine([a], b"plan")


def test_secret_chains_differ_and_links_are_not_predictable_from_the_commitment():
    c1, c2 = HashChain(), HashChain()
    assert c1.commitment != c2.commitment
    assert c1.link(0) != c1.commitment and H(c1.link(0)) == c1.commitment


def test_commitment_binds_the_plan():
    plan = {"type": "SubmitPlan", "seat": 1, "actions": {"tax": "Owari"}, "bid": 2}
    nonce = commitment.new_nonce()
    digest = commitment.commit(nonce, plan)
    assert commitment.verify(digest, nonce, plan)
    assert not commitment.verify(digest, nonce, {**plan, "bid": 3})
    assert not commitment.verify(digest, commitment.new_nonce(), plan)
    assert not commitment.verify(digest, b"short", plan)
    # key order does not matter: the encoding is canonical
    assert commitment.commit(nonce, dict(reversed(list(plan.items())))) == digest
