"""The beacon's hash chains and the plan commitments."""

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.lockstep import commitment
from net.lockstep.beacon import BeaconError, ChainVerifier, HashChain, combine, H


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


# what `commitment.canonical` means, written plainly: its fast path must give these bytes
def _reference_sorted(obj):
    if isinstance(obj, dict):
        return {k: _reference_sorted(v)
                for k, v in sorted(obj.items(), key=lambda kv: (str(type(kv[0])), kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [_reference_sorted(x) for x in obj]
    return obj


_leaves = st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=6) \
    | st.binary(max_size=6)
_keys = st.text(max_size=4) | st.integers(-5, 5)
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(_keys, inner, max_size=5), max_leaves=20)


@given(st.dictionaries(_keys, _values, max_size=6))
def test_canonical_bytes_sort_every_map_by_key_type_then_key(message):
    expected = msgpack.packb(_reference_sorted(message), use_bin_type=True)
    assert commitment.canonical(message) == expected
    assert commitment.canonical(dict(reversed(list(message.items())))) == expected
