"""Who a connection counts as for the limits meant for strangers (issue 47, finding 1).

Why: every friend who came by code reaches the host's table from a loopback port of the
host's end of its tunnel (`net.reach.tunnel.serve_table`), so every tunnelled friend
arrives as 127.0.0.1, and so do the two players of a pair tunnel at the serving end. A
limit counted per address (wrong join codes, handshake slots, spectators) then made one
friend pay for another: friend B's wrong codes into its own tunnel put 127.0.0.1 into a
growing wait, and friend A, resuming through a new tunnel, was refused for B's guesses.
A tunnel is an identity of its own: it was opened by one program that proved the
wormhole's code, and the host knows which tunnel each loopback connection came through
(the source port its tunnel's far end connected from: `Invitations.tunnelled`,
`PairLinks.served`). So the limits count per tunnel there, and per address elsewhere.

The decision is one pure function, `door_of`. What it cannot see: a connection accepted
before its tunnel recorded the port (the two happen in the same reactor turn, in either
order) counts as its address at that moment; the guess limit and the spectator cap ask
later (at the key offer, at the Hello), when the port is always known.

Tests: tests/net/trust/test_door_identity.py (the table), tests/net/reach/
test_tunnel_identity.py (a friend's wrong codes into its own tunnel while another
resumes, real processes).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Door:
    """What the limits for strangers count a connection as."""
    key: str          # an address, or a tunnel's name ("tunnel 2", "pair tunnel to seat 1")
    tunnel: bool      # it came through one of this table's wormhole tunnels


def _loopback(host: str) -> bool:
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def door_of(host: str, port: int, tunnels: Mapping[int, str]) -> Door:
    """The identity a connection from `host`:`port` counts as; `tunnels`: the source
    ports this machine's tunnel ends connect to the table from, and each tunnel's name.

    | the remote                               | counted as            |
    |------------------------------------------|-----------------------|
    | loopback, a port a tunnel of mine opened | that tunnel           |
    | loopback, any other port                 | its address           |
    | another address (whatever its port)      | its address           |

    A tunnel's end is always on this machine: a port number seen from elsewhere is
    someone else's port, however it matches."""
    name = tunnels.get(port)
    if name is not None and _loopback(host):
        return Door(name, True)
    return Door(host, False)
