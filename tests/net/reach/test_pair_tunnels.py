"""Which pairs of friends get a wormhole of their own, and who opens it (issue 39):
`net.reach.pair_tunnels.tunnel_pairs`, one pure decision over typed records."""

from __future__ import annotations

import pytest

from net.reach.pair_tunnels import CodeOffered, PairTunnel, covered, pass_on, tunnel_pairs
from net.reach.reachability import Player, unreachable_pairs

HOST = Player(0, "Ann", "", 7531, True)


def _p(seat: int, accepts: bool, by_code: bool) -> Player:
    return Player(seat, f"p{seat}", "127.0.0.1" if by_code else f"11.0.0.{seat}", 7000 + seat,
                  accepts, by_code)


CASES = [
    # (who sits at the table, relay allowed, the tunnels)
    pytest.param([HOST, _p(1, False, True), _p(2, False, True)], True, [PairTunnel(1, 2)],
                 id="two friends by code, neither dialled: the lower seat serves"),
    pytest.param([HOST, _p(1, False, True), _p(2, False, True)], False, [],
                 id="the same with --direct-only: no tunnel"),
    pytest.param([HOST, _p(1, True, True), _p(2, False, True)], True, [],
                 id="one of the pair can be dialled: the mesh needs no tunnel"),
    pytest.param([HOST, _p(1, False, False), _p(2, False, True)], True, [],
                 id="one came by address: it holds no rendezvous, no tunnel"),
    pytest.param([HOST, _p(1, False, True), _p(2, False, True), _p(3, False, True)], True,
                 [PairTunnel(1, 2), PairTunnel(1, 3), PairTunnel(2, 3)],
                 id="three friends by code: one tunnel per pair"),
    pytest.param([HOST, _p(3, False, True), _p(1, False, True)], True, [PairTunnel(1, 3)],
                 id="in seat order whatever the order given"),
    pytest.param([HOST], True, [], id="the host alone"),
]


@pytest.mark.parametrize("players, relay_allowed, tunnels", CASES)
def test_tunnel_pairs(players, relay_allowed, tunnels):
    assert tunnel_pairs(players, relay_allowed) == tunnels


def test_a_tunnelled_pair_is_not_reported_and_any_other_still_is():
    players = [HOST, _p(1, False, True), _p(2, False, True), _p(3, False, False)]
    tunnels = tunnel_pairs(players, True)
    assert tunnels == [PairTunnel(1, 2)]
    said = unreachable_pairs(players, covered(tunnels))
    assert len(said) == 2 and all("p3" in line for line in said), said
    assert len(unreachable_pairs(players)) == 3


NOT_ASKED = "that this host did not ask for"
COPY = "again: its code was passed on already (a copy is the sender's offence)"


@pytest.mark.parametrize("asked, from_serving, has_code, passed, verdict", [
    (False, True, True, False, NOT_ASKED),
    (True, False, True, False, NOT_ASKED),      # from the dialling seat
    (True, True, False, False, NOT_ASKED),      # no code: the host's own question back
    (True, True, True, True, COPY),             # a copy: the sender's offence, not passed on
    (True, True, True, False, None),            # the one answer: passed on
])
def test_the_host_passes_a_pair_tunnels_code_on_once(asked, from_serving, has_code, passed,
                                                       verdict):
    assert pass_on(CodeOffered(asked, from_serving, has_code, passed)) == verdict
