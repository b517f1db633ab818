"""The wormholes that join two friends who came by code (issue 39: a tunnel per pair).

Why a part of its own: the host decides which pairs need one before the start
(`net.reach.internet.StartGate`, `net.reach.pair_tunnels.tunnel_pairs`); this part carries
that decision over the table and opens the wormholes. The host asks both players of a
pair (`PairTunnelOpened` without a code) before its `GameStarted`, on the same
connections, so the dialling player knows not to dial the other's address (the host sees
it only at 127.0.0.1). The serving player allocates a wormhole on the table's rendezvous
and relay, serves its own table port through it (`net.reach.tunnel.serve_table`) and
sends the code to the host, which passes it on to the dialling player; that one claims
it and dials its end's loopback port (`Forwarder`), and its redials go there too.

The host can read and alter the code it passes on: that gives it nothing. The mesh's own
handshake (the table's key exchange, the seat proof under the key pinned in
`GameStarted`) runs end to end through the tunnel, so a wrong code is a link that never
comes up (reported, and handled like any absent player), never a false peer.

Tests: tests/net/table/test_pair_links.py, tests/net/reach/test_internet_rendezvous.py.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping

if TYPE_CHECKING:
    from twisted.python.failure import Failure

    from net.reach.tunnel import Dilated

from net.reach.invite_codes import new_code, parse_code
from net.reach.pair_tunnels import CodeOffered, PairTunnel, pass_on
from net.reach.rendezvous import (APP_ID, RendezvousOptions, plain_failure,
                                  wormhole_for)
from net.reach.tunnel import Forwarder, Link, RelayRedial, link_of, serve_table, table_end
from net.table.dialer import Dialer
from net.table.shared import Identity, Roster, StartRecord, TableSetting, TableState
from net.transport.message_records import PairTunnelOpened
from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.pair_links")


class PairLinks:
    """The pair tunnels this peer takes part in (host: the ones it asked for)."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, dialer: Dialer) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._dialer = dialer
        # given by `use_relay` once the table's rendezvous is known (cli/runner.py, the
        # window's lobby and code search): none, no pair tunnel
        self.options: RendezvousOptions | None = None
        # host: Invitations' source ports of its friends' tunnels -> friend number
        self.tunnelled_ports: Callable[[], Mapping[int, int]] = lambda: {}
        self.say: Callable[[str], None] = log.info          # a headless peer prints it
        self.asked: set[PairTunnel] = set()          # host: the pairs it asked for
        self.passed: set[PairTunnel] = set()         # host: ... whose code it passed on
        self.charged: set[PairTunnel] = set()        # host: ... whose copy it charged
        self.served: dict[int, int] = {}             # a source port of my pair tunnels'
        #   far ends at my table -> the seat at the other end (`door_of` counts per tunnel)
        self.codes: dict[int, str] = {}              # seat -> the pair tunnel code I claimed
        self.through_tunnel: set[int] = set()        # seats I dial through a pair tunnel
        self.ends: dict[int, tuple[str, int]] = {}   # such a seat -> my end's loopback port
        self.wormholes: list[Any] = []
        self.redials: list[RelayRedial] = []
        self.forwarders: list[Forwarder] = []
        # seat -> how the pair tunnel to it is connected (the lobby names the link by it)
        self.links: dict[int, Link] = {}

    def use_relay(self, options: RendezvousOptions | None,
                  tunnelled_ports: Callable[[], Mapping[int, int]] | None = None,
                  say: Callable[[str], None] | None = None) -> None:
        """The table's rendezvous and relay (None: no pair tunnel). Why not given at
        construction: the session exists before the rendezvous is chosen (a friend learns
        it from the code search, a hosting window from its settings), and the host's
        `tunnelled_ports` (the source ports of its friends' tunnels, which tell the start
        check who came by code) belong to its `Invitations`, opened after the table."""
        self.options = options
        if tunnelled_ports is not None:
            self.tunnelled_ports = tunnelled_ports
        if say is not None:
            self.say = say

    def tunnel_names(self) -> dict[int, str]:
        """Every source port a tunnel of this machine connects to its table from, and that
        tunnel's name (`net.trust.door_identity.door_of`): the host's friends' tunnels and
        the pair tunnels I serve."""
        names = {port: f"tunnel {friend}" for port, friend in self.tunnelled_ports().items()}
        names.update((port, f"pair tunnel to seat {seat}") for port, seat in self.served.items())
        return names

    @property
    def relay_allowed(self) -> bool:
        return self.options is not None and self.options.relay_allowed

    def _seat_of(self, conn: PeerConnection) -> int | None:
        return self._start.seat_of_peer(conn.remote_peer, self._shared.lobby)

    def _conn_of_seat(self, seat: int) -> PeerConnection | None:
        return next((c for c in self._roster.conns
                     if not c.closed and self._seat_of(c) == seat), None)

    # ------------------------------------------------------------------------ host
    def ask(self, tunnels: Collection[PairTunnel]) -> None:
        """Host, just before `GameStarted`: tell both players of each pair."""
        for pair in tunnels:
            self.asked.add(pair)
            msg: PairTunnelOpened = {"type": "PairTunnelOpened", "serving": pair.serving,
                                     "dialling": pair.dialling, "code": None}
            for seat in (pair.serving, pair.dialling):
                conn = self._conn_of_seat(seat)
                if conn is not None:
                    conn.send(dict(msg))

    def _pass_on(self, conn: PeerConnection, msg: PairTunnelOpened) -> None:
        """A serving player's code: passed on to the dialling player once; copies are one
        offence of their sender (`pass_on`)."""
        pair = PairTunnel(msg["serving"], msg["dialling"])
        verdict = pass_on(CodeOffered(asked=pair in self.asked,
                                      from_serving=self._seat_of(conn) == pair.serving,
                                      has_code=msg["code"] is not None,
                                      passed=pair in self.passed,
                                      charged=pair in self.charged))
        if verdict.offence is not None:
            if pair in self.passed:
                self.charged.add(pair)
            conn.offence(f"PairTunnelOpened for seats {pair.serving} and {pair.dialling} "
                         + verdict.offence)
        if not verdict.forward:
            return
        other = self._conn_of_seat(pair.dialling)
        if other is not None:
            self.passed.add(pair)
            other.send(dict(msg))

    # --------------------------------------------------------------------- players
    def pair_tunnel_opened(self, conn: PeerConnection, msg: PairTunnelOpened) -> None:
        if self._me.is_host and self._shared.role == "host":
            self._pass_on(conn, msg)
            return
        if conn is not self._roster.host_conn:
            conn.offence("PairTunnelOpened from a peer that is not the host")
            return
        mine = self._start.seat_of_peer(self._me.peer_id, self._shared.lobby)
        pair = PairTunnel(msg["serving"], msg["dialling"])
        if mine == pair.serving and msg["code"] is None:
            self._serve(pair)
        elif mine == pair.dialling and msg["code"] is None:
            self.through_tunnel.add(pair.serving)
        elif mine == pair.dialling and pair.serving in self.through_tunnel \
                and pair.serving not in self.ends:
            self._claim(pair, msg["code"])
        elif mine == pair.dialling and msg["code"] is not None \
                and self.codes.get(pair.serving) == msg["code"]:
            # the code I claimed, once more: harmless, and maybe not the host's doing
            log.info("the tunnel code for seat %d came again; ignored", pair.serving)
        else:
            conn.offence(f"PairTunnelOpened for seats {pair.serving} and {pair.dialling} "
                         f"sent to seat {mine}")

    # a pair's code is passed on by the host, never typed: six words whose first three
    # name a namespace no stranger can list (net/reach/invite_codes.py, issue 47), on
    # its only nameplate
    PAIR_NAMEPLATE = "1"

    def _wormhole(self, app_id: str) -> Any:
        assert self.options is not None
        w = wormhole_for(self._setting.reactor, self.options, app_id)
        self.wormholes.append(w)
        return w

    def _dilate(self, w: Any, seat: int) -> Dilated:
        assert self.options is not None
        seen: list[Link] = []
        self.links[seat] = Link(False, False, "")

        def status(update: object) -> None:
            link = self.links[seat] = link_of(update)
            if link.connected and (not seen or seen[-1] != link):
                where = link.where
                self.say(f"the tunnel to seat {seat} is connected through the relay {where}"
                         if link.through_relay else
                         f"the tunnel to seat {seat} is connected directly ({where})")
            seen.append(link)
        dilated: Dilated = w.dilate(transit_relay_location=self.options.relay,
                           no_listen=self.options.relay_only, on_status_update=status)
        mailbox = self.options.mailbox

        def failed(failure: Failure) -> None:
            # a wrong code (altered on the way, or a stranger's guess) fails the wormhole on
            # both sides: said here; the seat is then absent, like any player who never came
            if not self._shared.closed:
                why = plain_failure(failure, mailbox)
                self.say(f"the tunnel to seat {seat} could not be opened: {why}")
        w.get_versions().addErrback(failed)
        self.redials.append(RelayRedial(self._setting.reactor, dilated))
        return dilated

    def _serve(self, pair: PairTunnel) -> None:
        """The serving player: a new wormhole, its code to the host, my table port behind it."""
        if not self.relay_allowed:
            log.warning("the host asked for a tunnel to seat %d, but this table has no relay "
                        "(--direct-only or no rendezvous)", pair.dialling)
            return
        code = new_code()
        w = self._wormhole(code.app_id(APP_ID))
        w.set_code(code.wormhole_code(self.PAIR_NAMEPLATE))

        def code_allocated(_code: str) -> None:
            host = self._roster.host_conn
            if host is not None and not host.closed:
                host.send({"type": "PairTunnelOpened", "serving": pair.serving,
                           "dialling": pair.dialling, "code": code.text})
        w.get_code().addCallbacks(code_allocated, lambda f: None)
        seat = pair.dialling
        serve_table(self._setting.reactor, self._dilate(w, seat),
                    table_end(self._setting.opts.interface), self._dialer.listen_port,
                    lambda port: self.served.__setitem__(port, seat))
        self.say(f"seat {seat} cannot dial this table directly: a tunnel of our "
                 "own through magic-wormhole, its code passed on by the host")

    def _claim(self, pair: PairTunnel, code: str | None) -> None:
        """The dialling player: claim the code, dial the other through my end."""
        if not self.relay_allowed or code is None:
            log.warning("seat %d offered a tunnel, but this table has no relay", pair.serving)
            return
        try:
            invite = parse_code(code)
        except ValueError as exc:
            log.warning("seat %d's tunnel code cannot be used: %s", pair.serving, exc)
            return
        w = self._wormhole(invite.app_id(APP_ID))
        w.set_code(invite.wormhole_code(self.PAIR_NAMEPLATE))
        seat = pair.serving
        self.codes[seat] = code
        forwarder = Forwarder(self._setting.reactor, self._dilate(w, seat))
        self.forwarders.append(forwarder)
        self.ends[seat] = (forwarder.host, forwarder.port)
        self.say(f"seat {seat} cannot be dialled directly: dialling it through a "
                 "tunnel of our own (magic-wormhole)")
        self.dial_ends()

    def dial_ends(self) -> None:
        """Once the game started here: dial each pair tunnel's end (where the mesh would
        dial the other's address), and keep that address for redials."""
        info, mine = self._start.info, self._shared.my_seat
        if info is None or mine is None:
            return                     # the start message comes first; called again then
        for seat, (host, port) in self.ends.items():
            if self._start.addresses.get(seat) == (host, port):
                continue               # dialled already
            self._start.addresses[seat] = (host, port)
            if self._roster.conn_for_seat(seat) is None:
                self._dialer.dial(host, port, {"role": "player", "seat": mine,
                                               "table": info["table"]})

    def close(self) -> None:
        for redial in self.redials:
            redial.stop()
        for forwarder in self.forwarders:
            forwarder.close()
        for w in self.wormholes:
            w.close().addErrback(lambda f: None)
        self.wormholes.clear()
