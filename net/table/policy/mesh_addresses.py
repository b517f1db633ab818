"""Which of the addresses the host gave in `GameStarted` a player dials: the host's seat
where the player reached it, the others only of plausible scope (the mesh's door).

Why: `GameStarted` gives each player the address of every other seat, and the player
dials the lower seats at those addresses (`net.table.before_start.start_mesh`), redials a lost one
there (`net.table.liveness`) and dials them all on a rejoin (`net.table.recovery`). The
host is whoever opened the table, or holds its wormhole code: before, a hostile host could
give any text and port for any seat, and every player dialled it — a service on the
player's own loopback or home network, or somebody else's machine: the friends' programs
became the host's scanner (issue 47's door for `Offer`s, here for the mesh). Now
`judge_mesh` (pure, over typed records) keeps, for each seat:

| what the host gave for seat S              | kept? | why not                                  |
|--------------------------------------------|-------|------------------------------------------|
| S is my own seat                           | yes (never dialled by me) |                      |
| S is not a player's seat of this start     | no    | not a player's seat                      |
| S given a second time                      | no    | a seat given twice                       |
| S is the host's seat                       | yes, at the address I reached the host at (never the host's text) | |
| a port outside 1..65535                    | no    | not a port a table listens at            |
| not an IP address (a name, a scope id, "") | no    | not an IP address                        |
| an address out of scope from here          | no    | `offered.scope_refusal`: this computer's own, link-local, another network's private one, not an address a table listens at |
| an IP and port kept already for a seat     | no    | an address given for two seats           |
| otherwise                                  | yes, written from the parsed IP | |

The scope rules are the `Offer`'s (`net.reach.offered.scope_refusal`): loopback and this
machine's own addresses only when this player's table is on loopback (a test); link-local
never; a private address only inside a network of one of this machine's interfaces; a
global address always. There is no word of seat S itself about its address that the host
could not have changed: a player's `Hello` (with its listen port) goes to the host alone,
and the address is what the host saw; so the host's word is judged, and a connection
there must still prove seat S's pinned key (`net.trust.seat_keys`). A seat refused is not
dialled or redialled; the player reads one sentence per such seat (`refused_sentence`).

Tests: tests/net/table/test_mesh_addresses.py (the table), tests/net/table/test_mesh_attacks.py
(a hostile host process).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from net.reach.offered import FriendSide, ip_of, scope_refusal


@dataclass(frozen=True)
class GivenAddress:
    """One entry of `GameStarted`'s `peers`, as the host wrote it."""
    seat: int
    host: str
    port: int


@dataclass(frozen=True)
class PlayerSide:
    """What this player knows of its side when `GameStarted` comes."""
    machine: FriendSide                 # its interfaces, and whether its table is on loopback
    my_seat: int
    host_seat: int | None               # the seat of the peer that sent `GameStarted`
    host_at: tuple[str, int]            # where this player reached the host (its own choice)
    players: frozenset[int]             # the human seats of the start


@dataclass(frozen=True)
class MeshAddress:
    """A seat's address and whether this player keeps it (dials it when the mesh says)."""
    seat: int
    host: str
    port: int
    keep: bool
    why: str = ""            # for one not kept: "not an IP address", ...


def judge_mesh(given: Sequence[GivenAddress], side: PlayerSide) -> list[MeshAddress]:
    """Each address the host gave, in its order, with whether this player keeps it."""
    out: list[MeshAddress] = []
    seats: set[int] = set()
    kept: set[tuple[str, int]] = {(_canonical(side.host_at[0]), side.host_at[1])}
    for g in given:
        if g.seat in seats:
            out.append(MeshAddress(g.seat, g.host, g.port, False, "a seat given twice"))
            continue
        seats.add(g.seat)
        if g.seat == side.my_seat:
            out.append(MeshAddress(g.seat, g.host, g.port, True))
            continue
        if g.seat not in side.players:
            out.append(MeshAddress(g.seat, g.host, g.port, False, "not a player's seat"))
            continue
        if g.seat == side.host_seat:
            out.append(MeshAddress(g.seat, side.host_at[0], side.host_at[1], True))
            continue
        why = _refusal(g, side)
        ip = ip_of(g.host)
        if not why and ip is not None and (str(ip), g.port) in kept:
            why = "an address given for two seats"
        if why or ip is None:
            out.append(MeshAddress(g.seat, g.host, g.port, False, why))
            continue
        kept.add((str(ip), g.port))
        out.append(MeshAddress(g.seat, str(ip), g.port, True))
    return out


def _refusal(g: GivenAddress, side: PlayerSide) -> str:
    if not 1 <= g.port <= 65535:
        return "not a port a table listens at"
    ip = ip_of(g.host)
    if ip is None:
        return "not an IP address"
    return scope_refusal(ip, side.machine)


def _canonical(host: str) -> str:
    ip = ip_of(host)
    return host if ip is None else str(ip)


def refused_sentence(seat: int) -> str:
    """What the player reads, once, for a seat whose address it does not dial."""
    return (f"seat {seat} is not dialled: the host gave an address for it that this "
            "computer does not dial (one of its own, another network's private one, or "
            "not a table's)")


__all__ = ["GivenAddress", "MeshAddress", "PlayerSide", "judge_mesh", "refused_sentence"]
