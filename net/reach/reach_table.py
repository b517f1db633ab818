"""The table session as `net.reach` reads it: its lobby, connections and listen port.

Why a Protocol: `net.reach` sits below `net.table` (it may not import it), yet the start
gate, the reseating, the announcement and the friends-by-code watch all read the table
session (`net.table.session.TableSession`). Naming the part they read lets the checker
see each read, as `net.reach.peer_links.LinkedTable` does for the lobby's link look.

Tests: tests/net/reach/test_internet_addresses.py (the start gate, reseating), tests/net/table/test_lobby.py,
tests/net/reach/test_rejoin_by_code.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Collection, Mapping, Protocol

from net.transport.messages import Wire

if TYPE_CHECKING:
    from net.reach.pair_tunnels import PairTunnel
    from net.transport.peer import PeerConnection


class GateLinks(Protocol):
    """The table's pair tunnels as the start gate uses them (`net.table.pair_links`)."""

    @property
    def relay_allowed(self) -> bool: ...

    @property
    def tunnelled_ports(self) -> Callable[[], Mapping[int, int]]: ...

    def ask(self, tunnels: Collection[PairTunnel]) -> None: ...


class ReachTable(Protocol):
    """What `net.reach` reads of a table session."""

    @property
    def listen_port(self) -> int: ...

    @property
    def peer_id(self) -> bytes: ...

    @property
    def conns(self) -> list[PeerConnection]: ...

    @property
    def lobby(self) -> Wire: ...

    @property
    def closed(self) -> bool: ...

    @property
    def started(self) -> bool: ...

    @property
    def offline_seats(self) -> list[int]: ...

    def move_players(self, moves: dict[int, int]) -> None: ...

    def lobby_full(self) -> bool: ...
