"""Host: which friends by code are away from the game and need a code to come back.

Why: a friend who came by code reached the table through a magic-wormhole tunnel, and
that tunnel does not outlive the friend's program. Restarted with `--resume`, it has no
address of the host that works (the save holds the dead tunnel's loopback end), so the
host keeps its invitation open after the start while such a seat is absent, and says a
code for it (`Invitations`, net/reach/rendezvous.py; the friend's side is
`cli/by_code.py` `join_later` with `--resume`). The code's SPAKE2 only opens a new tunnel:
the rejoin through it proves the seat with the saved token and seat key, as any rejoin.

Tests: tests/net/reach/test_rejoin_by_code.py (the decision, and real processes).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, Callable

from net.reach.reach_table import ReachTable


def absent_by_code(by_code: Collection[int], offline: Iterable[int],
                   started: bool, closed: bool) -> list[int]:
    """The seats that came by code and are offline now, while the game goes on: each
    needs a code to rejoin (before the start a seat that leaves is simply open again)."""
    if not started or closed:
        return []
    return sorted(set(by_code) & set(offline))


class FriendsByCode:
    """The seats whose player was seen connected through one of the host's tunnels (a
    connection from a source port a tunnel made, `Invitations.tunnelled`): remembered,
    since a dropped connection no longer tells where it came from."""

    def __init__(self, session: ReachTable, tunnelled_ports: Callable[[], Collection[int]]) -> None:
        self.session = session
        self.tunnelled_ports = tunnelled_ports
        self.seats: set[int] = set()

    def look(self) -> None:
        ports = self.tunnelled_ports()
        for conn in self.session.conns:
            if conn.seat is not None and not conn.closed and conn.transport is not None \
                    and conn.tcp.getPeer().port in ports:
                self.seats.add(conn.seat)

    def absent(self) -> list[int]:
        """Looks again, then the seats of friends by code that are away from the game."""
        self.look()
        return absent_by_code(self.seats, self.session.offline_seats,
                              self.session.started, self.session.closed)
