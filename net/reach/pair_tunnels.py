"""Which pairs of friends get a wormhole tunnel of their own, and who opens it (issue 39).

Why: a friend who joined by code through magic-wormhole is reached by the host through
that friend's own tunnel; the other friends see it nowhere. Two such friends (say three
homes behind symmetric NAT) have no path to each other, and the mesh needs one TCP
connection per pair. When the host's table allows the relay, such a pair gets a fresh
wormhole on the same mailbox and relay: the player the mesh has dialled (the lower seat,
`net.table.before_start.start_mesh`) allocates its code and serves its own table port through it;
the host passes the code on to the other (`PairTunnelOpened`), who claims it and dials
the loopback port of its end as it would a direct address. The table's own key exchange
and seat proof still run end to end over it: a host that alters the code only produces
a link that fails (and is reported like any dropped link), never a false peer.

The decision is one pure function over typed records (`tunnel_pairs`); the wormholes
are `net.table.pair_links`'s.

Tests: tests/net/reach/test_pair_tunnels.py (the decision, table-driven),
tests/net/reach/test_internet_rendezvous.py (three homes behind symmetric NAT).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from net.reach.reachability import Player


@dataclass(frozen=True)
class PairTunnel:
    """One pair of players joined by a wormhole of their own."""
    serving: int     # the lower seat: the mesh dials it; it allocates the code, serves its table
    dialling: int    # the higher seat: claims the code, dials through its end's loopback port


def tunnel_pairs(players: Sequence[Player], relay_allowed: bool) -> list[PairTunnel]:
    """Every pair where neither player can be dialled and both came by code (each holds
    the rendezvous settings and reaches the host through a tunnel), when the host's table
    allows the relay; the lower seat opens the wormhole. Seats as the game starts (after
    `mesh_order`)."""
    if not relay_allowed:
        return []
    closed = sorted((p for p in players if not p.accepts and p.by_code),
                    key=lambda p: p.seat)
    return [PairTunnel(a.seat, b.seat) for i, a in enumerate(closed) for b in closed[i + 1:]]


def covered(tunnels: Sequence[PairTunnel]) -> set[frozenset[int]]:
    """The pairs (as seat sets) the tunnels join, for `unreachable_pairs`."""
    return {frozenset((t.serving, t.dialling)) for t in tunnels}


@dataclass(frozen=True)
class CodeOffered:
    """A pair tunnel's code that reached the host (`PairTunnelOpened` with a code), as the
    host's choice to pass it on sees it."""
    asked: bool           # the host asked this pair for a tunnel
    from_serving: bool    # it came from the pair's serving seat (who allocates the code)
    has_code: bool
    passed: bool          # a code for this pair was passed on already
    charged: bool = False  # a copy of it was charged to its sender already


@dataclass(frozen=True)
class PassOn:
    forward: bool                 # passed on to the dialling seat
    offence: str | None = None    # the sender's offence, in a sentence


NOT_ASKED = "that this host did not ask for"
A_COPY = "again: its code was passed on already (a copy is the sender's offence)"


def pass_on(offered: CodeOffered) -> PassOn:
    """Whether the host passes a pair tunnel's code on to the dialling seat, and whether
    the sender is charged with an offence (issue 47 finding 3).

    | asked, from the serving seat, a code | passed before | a copy charged | verdict        |
    |--------------------------------------|---------------|----------------|----------------|
    | no (any of the three)                | any           | any            | the sender's offence (not asked) |
    | yes                                  | no            | any            | passed on, once |
    | yes                                  | yes           | no             | the sender's offence (a copy), not passed on |
    | yes                                  | yes           | yes            | ignored: not passed on, not charged again |

    Why once: the host answers one question (one tunnel per pair) with one code. It passed
    every copy on before, and the dialling player, which cannot tell a forwarded copy
    from the host's own, charged the host with an offence per copy and dropped it (a
    friend re-sending its own message three times cut the host off). A copy is its
    sender's offence, never the forwarder's; and, as reports are counted per event,
    copies of one message are one offence: a sender dropped for them mid-start would
    cost the honest players their pace for the whole game (its messages relayed step by
    step), and nothing would be safer for it."""
    if not (offered.asked and offered.from_serving and offered.has_code):
        return PassOn(False, NOT_ASKED)
    if not offered.passed:
        return PassOn(True)
    if not offered.charged:
        return PassOn(False, A_COPY)
    return PassOn(False)
