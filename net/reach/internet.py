"""What a headless peer does for players outside its home: map its port, say where to join.

Why a module of its own: the runner (and later the window) calls one function after the
table is open; the address listing, the router mapping and the wording live here rather
than in the session, which knows nothing about routers.

Tests: tests/net/reach/test_internet_addresses.py, tests/net/reach/test_internet_nat.py.
"""

from __future__ import annotations

import socket
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from net.reach import portmap
from net.reach.addresses import Reachable, join_lines, reachable_addresses
from net.reach.pair_tunnels import PairTunnel, covered, tunnel_pairs
from net.reach.reach_settings import ReachSettings
from net.reach.reach_table import GateLinks, ReachTable
from net.transport.reactor_types import NetReactor, ShutdownReactor

if TYPE_CHECKING:
    from twisted.python.failure import Failure

    from net.reach.reachability import Player


def default_interface() -> str:
    """Listen on every IPv6 and IPv4 address ("::", dual stack) when the machine has IPv6,
    so a `join [2001:db8::7]:7531` reaches the table; otherwise on every IPv4 address."""
    if not socket.has_ipv6:
        return ""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::", 0))
        return "::"
    except OSError:
        return ""


def announce(reactor: ShutdownReactor, session: ReachTable, command: str, interface: str,
             settings: ReachSettings,
             say: Callable[[str], None] | None = None) -> portmap.PortMapper | None:
    """Print where the table can be reached (host), ask the router to forward our listen
    port (every player: the mesh needs each pair to connect), and print the outcome."""
    say = say or (lambda line: print(line, flush=True))
    port = session.listen_port
    code = getattr(session, "join_code", None)
    loopback_only = interface.startswith("127.") or interface == "::1"

    def print_addresses(mapped: list[tuple[str, int]]) -> None:
        if command != "host":
            return
        if loopback_only:
            found = [Reachable(interface, port, "this machine", "lo")]
        else:
            found = reachable_addresses(port, mapped)
        for line in join_lines(found, code):
            say(line)

    if not portmap.wanted(interface, settings):
        print_addresses([])
        return None

    def mapped(m: portmap.Mapping) -> None:
        say(f"the router forwards {m.public_host}:{m.public_port} to this computer's "
            f"port {m.local_port}")
        print_addresses([(m.public_host, m.public_port)])

    def failed(message: str) -> None:
        print(message, file=sys.stderr, flush=True)
        print_addresses([])

    return portmap.map_later(reactor, port, mapped, failed)


class StartGate:
    """The host's start, held until every pair of players is known to connect.

    Why: a pair that cannot connect used to show only as a game that never began (the
    mesh waited out the rejoin timeout). The host probes each joiner's announced address
    (net/reach/reachability.py) and starts only when no pair fails; otherwise `refuse` gets one
    sentence per failing pair, before anything started. `settings.reach_check` off
    (SHOGUN_NET_REACH_CHECK=off) skips it.
    """

    RETRIES = 2           # a joiner asks its router only after it dialled the host:
    RETRY_AFTER = 3.0     # a failing pair is checked again before it is reported

    def __init__(self, reactor: NetReactor, session: ReachTable,
                 say: Callable[[str], None] | None = None,
                 settings: ReachSettings = ReachSettings()) -> None:
        self.reactor, self.session = reactor, session
        self.say = say or (lambda line: print(line, flush=True))
        self.checking = False
        self.tries = 0
        self.enabled = settings.reach_check

    def start(self, start: Callable[[], None], refuse: Callable[[list[str]], None]) -> None:
        if self.checking:
            return
        if not self.enabled:
            start()
            return
        self.checking = True
        self._start, self._refuse = start, refuse
        self._check()

    @property
    def _pair_links(self) -> GateLinks | None:
        """The session's pair tunnels (net/table/pair_links.py) when it offers the relay."""
        links: GateLinks | None = getattr(self.session, "pair_links", None)
        return links if links is not None and links.relay_allowed else None

    def _check(self) -> None:
        from net.reach.reachability import check_lobby
        links = self._pair_links
        checked = check_lobby(self.reactor, self.session) if links is None else \
            check_lobby(self.reactor, self.session, tunnelled_ports=links.tunnelled_ports())
        checked.addCallbacks(self._judged, self._broken)

    def _judged(self, result: tuple[list[Player], list[str]]) -> None:
        players, failures = result
        tunnels: list[PairTunnel] = []
        links = self._pair_links
        if links is not None:
            # two friends who both came by code: a wormhole of their own (issue 39)
            from net.reach.reachability import mesh_order, unreachable_pairs
            moves = mesh_order(players)
            seated = [replace(p, seat=moves.get(p.seat, p.seat)) for p in players]
            tunnels = tunnel_pairs(seated, True)
            failures = unreachable_pairs(seated, covered(tunnels))
        if self.session.started or not self.session.lobby_full():
            self.checking = False
        elif failures and self.tries < self.RETRIES:
            self.tries += 1
            self.reactor.callLater(self.RETRY_AFTER, self._check)
        else:
            self.checking = False
            if failures:
                self._refuse(failures)
            else:
                reseat(self.session, players, self.say)
                if tunnels and links is not None:
                    links.ask(tunnels)     # before GameStarted, on the same connections
                self._start()

    def _broken(self, failure: Failure) -> None:
        self.checking = False
        self._refuse([f"the reachability check failed: {failure.getErrorMessage()}"])


def reseat(session: ReachTable, players: list[Player], say: Callable[[str], None]) -> None:
    """Move the players who can be dialled to the lower seats (net/reach/reachability.py,
    `mesh_order`), so every pair with one such player connects. It runs before
    `start_game`, whose GameStarted carries the seats to everyone."""
    from net.reach.reachability import mesh_order
    moves = mesh_order(players)
    if not moves:
        return
    session.move_players(moves)
    names = {p.seat: p.name for p in players}
    say("seats changed so that every pair can connect: " + ", ".join(
        f"{names[old]} takes seat {new}" for old, new in sorted(moves.items(),
                                                               key=lambda m: m[1])))
