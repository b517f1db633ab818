"""The test helper tests/net/recycled_pake.py stays a real key exchange."""

import pytest

from net.trust.pake import JoinKeyExchange, PakeError
from tests.net.recycled_pake import RecycledPake


def test_recycled_exchanges_agree_only_on_the_same_code_and_differ_per_connection():
    pool = RecycledPake()
    bindings = []
    for table in range(2):
        pool.new_table()
        for _ in range(3):
            a, b = pool.exchange("K3F9Q", dialer=True), pool.exchange("k3f9-q", dialer=False)
            ka, kb = a.finish(b.outbound()), b.finish(a.outbound())
            assert ka.send == kb.receive and ka.receive == kb.send and ka.binding == kb.binding
            bindings.append(ka.binding)
        wrong = pool.exchange("XXXXX", dialer=False)
        a = pool.exchange("K3F9Q", dialer=True)
        assert a.finish(wrong.outbound()).binding != wrong.finish(a.outbound()).binding
        # a real exchange (fresh secrets) with a recycled one: the same code, the same keys
        real = JoinKeyExchange("K3F9Q", dialer=False)
        a = pool.exchange("K3F9Q", dialer=True)
        assert a.finish(real.outbound()).binding == real.finish(a.outbound()).binding
        with pytest.raises(PakeError):
            pool.exchange("K3F9Q", dialer=True).finish(b"\1" * 5)
    assert len(set(bindings[:3])) == 3                     # one table: one key per connection
    assert bindings[:3] == bindings[3:]                    # the next table: the same, recycled
    assert pool.computed < 2 * 5 + 4                       # ...and not computed again
