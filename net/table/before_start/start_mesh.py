"""From `GameStarted` to the first step: the mesh among players and the chain commitments.

Why: every player dials the lower seats, proves its seat key, and commits to its beacon
chain; the game begins once every player's commitment is here (or, after a drop in this
handshake, without it once the timeout passed).

Tests: tests/net/table/test_session.py (the start, drops in the handshake),
tests/net/table/test_mesh_addresses.py, tests/net/table/test_mesh_attacks.py (the addresses kept).
"""

from __future__ import annotations

import hashlib
import logging
import os
from typing import Any, Callable, Mapping, TYPE_CHECKING, TypedDict

from net.transport.messages import Wire

from net.lockstep.beacon import H, HashChain
from net.lockstep.commitment import canonical
from net.reach.offered import FriendSide, on_loopback
from net.table.dialer import Dialer
from net.table.input_deadline import turn_time_problem
from net.table.expulsion import Expulsion
from net.table.seat_signer import SeatSigner
from net.table.liveness import Liveness
from net.table.persistence import Persistence
from net.table.phase import Phase
from net.table.policy.mesh_addresses import GivenAddress, PlayerSide, judge_mesh, refused_sentence
from net.table.play import Play
from net.table.shared import Identity, Roster, StartRecord, TableEngine, TableSetting, TableState
from net.table.takeover import Takeover
from net.trust.own_seat import PinnedSeat, own_seat
from net.trust.seat_keys import seat_proved
from net.transport.message_records import ChainCommitted, GameStarted, as_wire
from store.table_save import default_save_path

if TYPE_CHECKING:
    from net.table.pair_links import PairLinks
    from net.table.recovery import Recovery
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

START_KEYS = ("table", "config", "seats", "peers", "bot", "bot_levels")   # kept of GameStarted
# kept if there: the turn timer (issue 26 item 4) and the take-over countdown (issue 34):
# the host's, so every peer shows and applies the same clocks (`TableState.turn_time`)
OPTIONAL_START_KEYS = ("turn_time", "rejoin_timeout")


def check_start(engine: TableEngine, msg: Wire) -> None:
    """A `GameStarted` (or the start record a `CaughtUp` carries) is well formed:
    ValueError says what is wrong."""
    engine.config_from_wire(msg["config"])
    seen = set()
    for s in msg["seats"]:
        if not isinstance(s, dict) or not isinstance(s.get("seat"), int) \
                or s.get("kind") not in ("human", "bot"):
            raise ValueError("bad seat entry")
        if s["kind"] == "human" and not (isinstance(s.get("key"), bytes)
                                         and len(s["key"]) == 32):
            raise ValueError(f"seat {s['seat']} has no seat key")
        seen.add(s["seat"])
    if seen != set(range(len(msg["seats"]))):
        raise ValueError("seats are not 0..n-1")
    bots = {s["seat"] for s in msg["seats"] if s["kind"] == "bot"}
    for pair in msg.get("bot_levels", []):
        if not (isinstance(pair, list) and len(pair) == 2 and pair[0] in bots
                and isinstance(pair[1], str) and len(pair[1]) <= 40):
            raise ValueError(f"bad bot level entry {pair!r:.60}")
    if "turn_time" in msg and turn_time_problem(msg["turn_time"]) is not None:
        raise ValueError(f"bad turn time {msg['turn_time']!r:.20}")
    if "rejoin_timeout" in msg and (isinstance(msg["rejoin_timeout"], bool) or not isinstance(
            msg["rejoin_timeout"], (int, float)) or not 1 <= msg["rejoin_timeout"] <= 86_400):
        raise ValueError(f"bad rejoin timeout {msg['rejoin_timeout']!r:.20}")
    for p in msg["peers"]:
        if not isinstance(p, dict) or not isinstance(p.get("host"), str) \
                or not isinstance(p.get("port"), int) or not isinstance(p.get("peer"), bytes):
            raise ValueError("bad peer entry")


def start_digest(start: Wire) -> bytes:
    """What every player must have been given alike (issue 34): the whole start — the
    table, its settings, the seats and their keys, the bots, the turn time and the
    take-over countdown — but the players' addresses (each is told them as it reaches
    them) and what a resumed player's start record carries besides. Each player signs it
    in its `ChainCommitted`, so a host that gives one player other clocks or settings
    (equivocation) is found out at the start."""
    same = {k: start[k] for k in START_KEYS + OPTIONAL_START_KEYS
            if k in start and k != "peers"}
    return hashlib.sha256(b"shogun-start/" + canonical(same)).digest()


def start_differs(seat: int, from_host: bool) -> str:
    """The sentence when seat `seat`'s signed start digest is not mine."""
    if from_host:
        return ("the host signed a different start from the one it sent you (another turn "
                "time, take-over countdown or settings), so the players would not play one "
                "game; you left the table")
    return (f"seat {seat} was given a different start (another turn time, take-over "
            "countdown or settings), so it cannot play at this table; a bot takes the seat "
            "if it does not come back")


def start_not_mine(me: Identity, start: Wire) -> str | None:
    """Why a start (checked by `check_start`) is not mine to play: my seat missing,
    doubled or pinned under another key (`net.trust.own_seat`); None when it is mine."""
    my_key = me.seat_key.public if me.seat_key is not None else b""
    return own_seat([PinnedSeat.of(s) for s in start["seats"]], me.peer_id, my_key).problem


class DialledPeer(TypedDict):
    """One seat of `GameStarted.peers` this player dials: its peer id (the key it must
    prove), where, and its seat."""
    peer: bytes
    host: str
    port: int
    seat: int


class StartHandshake:
    """From the host's `GameStarted` to the first step."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, dialer: Dialer, signer: SeatSigner,
                 expulsion: Expulsion, takeover: Takeover, liveness: Liveness,
                 persistence: Persistence, play: Play, recovery: Recovery,
                 drain: Callable[[], None],
                 leave: Callable[[PeerConnection, str], None],
                 pair_links: PairLinks | None = None) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._dialer = dialer
        self._signer = signer
        self._expulsion = expulsion
        self._takeover = takeover
        self._liveness = liveness
        self._persistence = persistence
        self._play = play
        self._recovery = recovery
        self._drain = drain              # messages kept for later, handled now
        self._leave = leave              # close the table, refused for the reason given
        self._pair_links = pair_links    # seats dialled through a tunnel of our own (issue 39)
        self.host_address: tuple[str, int] | None = None     # a guest's host
        self.saved_start: dict[str, Any] | None = None    # a resumed player's, until it catches up

    def game_started_received(self, conn: PeerConnection, msg: GameStarted) -> None:
        """The host's `GameStarted`."""
        if conn is not self._roster.host_conn or self._start.started:
            conn.offence("GameStarted from a peer that is not the host")
            return
        try:
            check_start(self._setting.engine, as_wire(msg))
        except ValueError as exc:
            self._setting.callbacks.on_error(f"the host's GameStarted is malformed: {exc}")
            conn.offence(f"malformed GameStarted: {exc}")
            return
        problem = start_not_mine(self._me, as_wire(msg))
        if problem is not None:
            log.warning("refusing the host's GameStarted: %s", problem)
            self._leave(conn, problem)
            return
        msg["peers"] = self.peers_to_dial(conn, msg)
        self.game_started(msg)

    def peers_to_dial(self, conn: PeerConnection, msg: GameStarted) -> list[DialledPeer]:
        """The host's `peers` I keep (`net.table.policy.mesh_addresses`): the host's seat
        where I reached it (its listen port may differ: a router's mapping, the loopback
        port of a tunnel, net/reach/tunnel.py), the others only of plausible scope from
        here; one sentence for each seat whose address I refuse."""
        assert self.host_address is not None
        host_seat = next((s["seat"] for s in msg["seats"]
                          if s.get("peer") == conn.remote_peer), None)
        my_seat = next((s["seat"] for s in msg["seats"] if s.get("peer") == self._me.peer_id),
                       -1)
        side = PlayerSide(FriendSide.here(on_loopback(self._setting.opts.interface)), my_seat,
                          host_seat, self.host_address,
                          frozenset(s["seat"] for s in msg["seats"] if s["kind"] == "human"))
        judged = judge_mesh([GivenAddress(p["seat"], p["host"], p["port"])
                             for p in msg["peers"]], side)
        tunnelled = self._pair_links.through_tunnel if self._pair_links else set()
        for j in judged:
            if not j.keep and j.seat not in tunnelled:   # a tunnel of our own reaches it
                log.warning("not dialling seat %s at the host's address: %s", j.seat, j.why)
                self._setting.callbacks.on_notice(refused_sentence(j.seat))
        return [DialledPeer(peer=p["peer"], host=j.host, port=j.port, seat=j.seat)
                for p, j in zip(msg["peers"], judged) if j.keep]

    def game_started(self, msg: GameStarted) -> None:
        table = self._shared
        wire = as_wire(msg)
        self._start.info = {k: wire[k] for k in START_KEYS + OPTIONAL_START_KEYS
                            if k in wire or k not in OPTIONAL_START_KEYS}
        table.enter(Phase.MESH)
        table.lobby["started"] = True
        table.my_seat = my_seat = self._start.seat_of_peer(self._me.peer_id, table.lobby)
        assert my_seat is not None
        for p in msg["peers"]:
            self._start.addresses[p["seat"]] = (p["host"], p["port"])
        for conn in list(self._roster.conns):
            if conn.pending_mesh:
                conn.pending_mesh = False
                assert conn.hello is not None
                entry = self._start.seat_entry(conn.hello["seat"])
                if conn.hello["table"] != msg["table"] or entry is None \
                        or entry["peer"] != conn.remote_peer:
                    conn.drop("mesh connection for another table or seat")
                    continue
                if not seat_proved(entry.get("key"), msg["table"], entry["seat"],
                                   conn.binding or b"", conn.hello["seat_proof"]):
                    conn.drop(f"mesh connection without seat {entry['seat']}'s key")
                    continue
            if conn.seat is None or conn is self._roster.host_conn:
                conn.seat = self._start.seat_of_peer(conn.remote_peer, table.lobby)
        self._start.chain = HashChain()
        self._start.token = os.urandom(32)
        self._start.chain_ends[my_seat] = self._start.chain.commitment
        self._start.token_hashes[my_seat] = H(self._start.token)
        if self._me.save_path is None:
            self._me.save_path = default_save_path(self._me.name)
        self._persistence.save()   # before the commitment goes out: a restart keeps this chain
        # a player that never shows up (its GameStarted was lost with the host, say) is
        # treated like one that dropped: after the rejoin timeout a bot takes its seat
        self._takeover.watch_absent_seats()
        # the mesh: dial every player with a lower seat we are not yet connected to (one
        # the host gave us a tunnel to is dialled through it: net/table/pair_links.py)
        through_tunnel = self._pair_links.through_tunnel if self._pair_links else set()
        for p in msg["peers"]:
            if p["seat"] < my_seat and self._roster.conn_for_peer(p["peer"]) is None \
                    and p["seat"] not in through_tunnel:
                self._dialer.dial(p["host"], p["port"], {"role": "player", "seat": my_seat,
                                                         "table": msg["table"]})
        if self._pair_links is not None:
            self._pair_links.dial_ends()
        for conn in self._roster.conns:
            self.send_chain(conn)
        self._liveness.start_heartbeat()
        self._drain()
        self.maybe_begin()

    def send_chain(self, conn: PeerConnection) -> None:
        """My signed chain commitment (made once, repeated to whoever needs it)."""
        table = self._shared
        assert table.my_seat is not None and self._start.chain is not None \
            and self._start.token is not None
        msg = self._start.chain_msgs.get(table.my_seat)
        if msg is None:
            msg = self._start.chain_msgs[table.my_seat] = self._signer.sign(
                {"type": "ChainCommitted", "seat": table.my_seat,
                 "chain_end": self._start.chain.commitment, "token_hash": H(self._start.token),
                 "start": start_digest(self._start.info or self.saved_start or {})})
        conn.send(msg)

    def chain_committed(self, conn: PeerConnection, msg: ChainCommitted) -> None:
        """A player's `ChainCommitted`."""
        table = self._shared
        if not self._start.started or conn.seat is None or msg["seat"] != conn.seat:
            conn.offence(f"ChainCommitted for seat {msg['seat']} from {conn.seat}")
            return
        seat = msg["seat"]
        if not self._signer.signed_by_seat(seat, msg):
            conn.offence(f"ChainCommitted is not signed by seat {seat}'s key")
            return
        old = self._start.chain_ends.get(seat)
        if old is not None:
            if old != msg["chain_end"] or self._start.token_hashes[seat] != msg["token_hash"]:
                conn.offence(f"seat {seat} committed to a second chain")
                self._expulsion.cheated(seat, self._start.chain_msgs.get(seat), msg)
            return
        if not self.same_start(conn, seat, msg):
            return
        self._start.chain_msgs[seat] = msg
        self._start.chain_ends[seat] = msg["chain_end"]
        self._start.token_hashes[seat] = msg["token_hash"]
        if self._roster.conn_for_seat(seat) is not None:
            self._takeover.cancel_timeout(seat)     # it showed up: no take-over
        if table.lockstep is not None:
            # the game began here without it (the seat dropped in the handshake and has
            # come back): its links can be checked from now on
            table.lockstep.add_chain(seat, msg["chain_end"], self._start.token_hashes[seat])
        self.maybe_begin()
        self._recovery.catch_up_early_rejoiners()

    def same_start(self, conn: PeerConnection, seat: int, signed: ChainCommitted) -> bool:
        """Was `seat` given my start? If the host's signed digest differs, the host lied
        to me or to the others: I leave. If another player's does, that player was lied
        to (or lies): it does not play here, and its seat is taken over like an absent
        one's. Never an offence: the host, not the sender, may be at fault."""
        table = self._shared
        if self._start.info is None or signed["start"] == start_digest(self._start.info):
            return True
        from_host = self._roster.host_conn is not None and self._roster.host_conn.seat == seat
        sentence = start_differs(seat, from_host)
        log.warning("%s", sentence)
        if from_host:
            self._leave(conn, sentence)
        else:
            self._setting.callbacks.on_error(sentence)
            direct = self._roster.conn_for_seat(seat)
            if direct is not None:
                direct.drop(f"seat {seat} was given a different start", offender=False)
        return False

    def maybe_begin(self, without_missing: bool = False) -> None:
        """Begin once every player's chain commitment is here — or, after a player dropped
        in the start handshake and did not come back in time, without the missing ones:
        the game then runs to the first step that needs the dropped seat, where a bot
        takes it over, at the same step as at the players that did get its commitment."""
        table = self._shared
        if table.lockstep is not None or table.role not in ("host", "join") \
                or self._start.info is None:
            return        # a resumed peer begins from the log it is sent (CaughtUp)
        start = self._start
        if not without_missing and not all(s in start.chain_ends for s in start.humans()):
            return
        table.lockstep = ls = self._play.make_lockstep(self._start.chain_ends)
        table.enter(Phase.PLAY)
        log.info("game begins: seat %s of %d", table.my_seat, len(self._start.info["seats"]))
        self._setting.callbacks.on_started(ls.config, table.my_seat, ls.state)
        for conn in self._roster.spectators:
            conn.send(self._recovery.caught_up(spectator=True))
        ls.start()
        self._drain()
        self._recovery.catch_up_early_rejoiners()
