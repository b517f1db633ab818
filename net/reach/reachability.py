"""Who reaches whom: probing a table's listen address, and the pairs that cannot connect.

Why: every pair of players needs one TCP connection (the mesh). Behind home routers a
pair may have no way to connect at all, which used to show only as a game that never
began. A probe dials an address, times the TCP handshake (one round trip), asks
(`Probed`) and waits for the table's greeting (`Greeted`: no key exchange, so a probe
costs the table nothing and counts as no guess), so "something answered" and "a Shogun
table answered" are told apart. The host probes every joiner's announced address before the
start; `./shogun netcheck` probes the addresses given to it.

Who dials in a pair: the player with the higher seat dials the lower seat (net/table/session.py,
the mesh, and its redials). So that either side of a pair may be the one that accepts,
the host gives the players who can be dialled the lower seats before the start
(`mesh_order`); a pair fails only when neither of the two can be dialled.

Tests: tests/net/reach/test_internet_addresses.py, tests/net/table/test_lobby.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Collection, Iterable, cast

from net.reach.addresses import format_address, plain_host
from net.reach.reach_table import ReachTable
from net.transport.framing import FrameDecoder, FrameError, decode_body, encode_frame
from net.transport.peer import TcpTransport
from net.transport.reactor_types import NetReactor

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred
    from twisted.internet.interfaces import IAddress, IConnector
    from twisted.python.failure import Failure

PROBE_TIMEOUT = 3.0


@dataclass(frozen=True)
class Probe:
    """The outcome of dialling one address."""
    host: str
    port: int
    reached: bool
    round_trip: float | None = None     # seconds for the TCP handshake
    greeted: bool = False               # a Shogun table answered (not just an open port)
    error: str = ""
    answered_in: float | None = None    # seconds from sending `Probed` to the answer: the
                                        # round trip through a tunnel, whose TCP end is local

    @property
    def over(self) -> str:
        return "IPv6" if ":" in self.host else "IPv4"

    def sentence(self) -> str:
        where = format_address(self.host, self.port)
        if not self.reached:
            return f"{where}: not reached ({self.error})"
        rtt = f"{self.round_trip * 1000:.1f} ms" if self.round_trip is not None else "?"
        what = "a Shogun table" if self.greeted else "something that is not a Shogun table"
        return f"{where}: reached over {self.over}, round trip {rtt}, {what} answered"


def probe(reactor: NetReactor, host: str, port: int,
          timeout: float = PROBE_TIMEOUT) -> Deferred[Probe]:
    """Dial HOST:PORT; a Deferred that fires with a Probe (never errs)."""
    from twisted.internet import defer, protocol

    done: defer.Deferred[Probe] = defer.Deferred()
    began = time.perf_counter()
    state: dict[str, Any] = {}

    def finish(result: Probe) -> None:
        if not done.called:
            timer = state.get("timer")
            if timer is not None and timer.active():
                timer.cancel()
            done.callback(result)

    class Dialler(protocol.Protocol):
        def connectionMade(self) -> None:
            state["rtt"] = time.perf_counter() - began
            self.decoder = FrameDecoder()
            # a table says nothing before the dialer's first message (protocol 6)
            cast(TcpTransport, self.transport).write(encode_frame({"type": "Probed"}))
            state["asked"] = time.perf_counter()

        def dataReceived(self, data: bytes) -> None:
            for body in self.decoder.feed_bodies(data):
                greeted = False
                if not isinstance(body, FrameError):
                    try:
                        greeted = decode_body(body).get("type") == "Greeted"
                    except FrameError:
                        pass
                finish(Probe(host, port, True, state["rtt"], greeted,
                             answered_in=time.perf_counter() - state["asked"]))
                cast(TcpTransport, self.transport).loseConnection()
                return

        def connectionLost(self, reason: Failure | None = None) -> None:
            finish(Probe(host, port, True, state.get("rtt"), False))

    class Factory(protocol.ClientFactory):
        def buildProtocol(self, addr: IAddress | None) -> Dialler:
            dialler = state["protocol"] = Dialler()
            return dialler

        def clientConnectionFailed(self, connector: IConnector, reason: Failure) -> None:
            finish(Probe(host, port, False, error=_plain(reason.getErrorMessage())))

    connector = reactor.connectTCP(host, port, Factory(), timeout=timeout)

    def give_up() -> None:
        if "rtt" in state:
            finish(Probe(host, port, True, state["rtt"], False, "no greeting"))
        else:
            finish(Probe(host, port, False, error="no answer in "
                         f"{timeout:g} s (a router or firewall drops the connection)"))
        connector.disconnect()
    state["timer"] = reactor.callLater(timeout + 0.5, give_up)
    return done


def _plain(message: str) -> str:
    """Twisted's error text, shortened to what a player can act on."""
    low = message.lower()
    if "refused" in low:
        return "the connection was refused: nothing listens there, or the router " \
               "does not forward that port"
    if "timed out" in low or "timeout" in low:
        return "no answer (a router or firewall drops the connection)"
    if "unreachable" in low or "no route" in low:
        return "no route to that address from here"
    if "error occurred while connecting" in low:    # e.g. a router with no route answered
        return "the connection could not be made (no route to that address from here)"
    if "dns" in low or "name" in low and "resolve" in low:
        return "the name could not be looked up"
    return message.strip().rstrip(".")


def probe_all(reactor: NetReactor, targets: Iterable[tuple[str, int]],
              timeout: float = PROBE_TIMEOUT) -> Deferred[list[Probe]]:
    """Probe every (host, port) at once; a Deferred of the Probes in the same order."""
    from twisted.internet import defer
    ds = [probe(reactor, h, p, timeout) for h, p in targets]
    return defer.gatherResults(ds)


@dataclass(frozen=True)
class Player:
    """A seated player as the host sees it: where the others would dial it."""
    seat: int
    name: str
    host: str
    port: int
    accepts: bool        # the host could dial its listen address
    by_code: bool = False    # it reached the host through a wormhole tunnel (issue 39)


def unreachable_pairs(players: list[Player],
                      tunnelled: Collection[frozenset[int]] = ()) -> list[str]:
    """One sentence per pair where neither player can be dialled: no seat order helps
    them (`mesh_order` puts the players who can be dialled in the lower seats), unless
    the pair's seats are `tunnelled` (a wormhole of their own: net/reach/pair_tunnels.py)."""
    out = []
    closed = [p for p in sorted(players, key=lambda p: p.seat) if not p.accepts]
    for i, a in enumerate(closed):
        for b in closed[i + 1:]:
            if frozenset((a.seat, b.seat)) in tunnelled:
                continue
            out.append(f"{a.name} and {b.name} cannot reach each other: neither can be "
                       f"dialled from outside their own network ({a.name} at "
                       f"{format_address(a.host, a.port)}, {b.name} at "
                       f"{format_address(b.host, b.port)}). One of them can forward its "
                       "TCP port on the router, or use IPv6, or all can join one VPN "
                       "(ZeroTier, Tailscale); see docs/net.md.")
    return out


def mesh_order(players: list[Player]) -> dict[int, int]:
    """Either side may dial: the mesh has the higher seat dial the lower, so players who
    can be dialled take the lowest of the players' seats (in their order) and the others
    the rest. Returns {old seat: new seat} for the players who move (empty: none)."""
    seats = sorted(p.seat for p in players)
    ordered = sorted(players, key=lambda p: (not p.accepts, p.seat))
    return {p.seat: seats[i] for i, p in enumerate(ordered) if p.seat != seats[i]}


def lobby_players(session: ReachTable) -> list[tuple[int, str, str, int]]:
    """(seat, name, host, listen port) of every human in the host's lobby; the host's own
    entry has host ''."""
    found = []
    by_peer = {conn.remote_peer: conn for conn in session.conns}
    for seat in session.lobby["seats"]:
        if seat["kind"] != "human":
            continue
        if seat["peer"] == session.peer_id:
            found.append((seat["seat"], seat["name"] or f"seat {seat['seat']}", "",
                          session.listen_port))
            continue
        conn = by_peer.get(seat["peer"])
        if conn is None:
            continue
        assert conn.hello is not None        # a seated player's connection said its Hello
        found.append((seat["seat"], seat["name"] or f"seat {seat['seat']}",
                      plain_host(str(conn.tcp.getPeer().host)), int(conn.hello["listen_port"])))
    return found


def tunnelled_seats(session: ReachTable, tunnelled_ports: Collection[int]) -> set[int]:
    """The seats whose player reached the host through one of the host's wormhole
    tunnels: its connection comes from a source port a tunnel made
    (`Invitations.tunnelled`)."""
    by_peer = {conn.remote_peer: conn for conn in session.conns}
    found = set()
    for seat in session.lobby["seats"]:
        conn = by_peer.get(seat.get("peer"))
        if conn is not None and conn.transport is not None \
                and conn.tcp.getPeer().port in tunnelled_ports:
            found.add(seat["seat"])
    return found


def check_lobby(reactor: NetReactor, session: ReachTable, timeout: float = PROBE_TIMEOUT,
                tunnelled_ports: Collection[int] = ()) -> Deferred[tuple[list[Player], list[str]]]:
    """Host only, before the start: probe every joiner's announced address from here.
    A Deferred of (players, sentences for the pairs that cannot connect)."""
    seated = lobby_players(session)
    targets = [(h, p) for _, _, h, p in seated if h]
    by_code = tunnelled_seats(session, tunnelled_ports)

    def judged(probes: list[Probe]) -> tuple[list[Player], list[str]]:
        it = iter(probes)
        players = []
        for seat, name, h, p in seated:
            ok = True if not h else next(it).greeted
            players.append(Player(seat, name, h, p, ok, seat in by_code))
        return players, unreachable_pairs(players)
    return probe_all(reactor, targets, timeout).addCallback(judged)
