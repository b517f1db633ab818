"""From `GameStarted` to the first step: the mesh among players and the chain commitments.

Why: every player dials the lower seats, proves its seat key, and commits to its beacon
chain; the game begins once every player's commitment is here (or, after a drop in this
handshake, without it once the timeout passed).
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any, Callable

from net.lockstep.beacon import H, HashChain
from net.lockstep.core import Lockstep
from net.table.phase import Phase
from store.table_save import default_save_path
from net.trust.seat_keys import seat_proved

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")

START_KEYS = ("table", "config", "seats", "peers", "bot", "bot_levels")   # kept of GameStarted


class SeatBots:
    """The engine as the lockstep sees it, with each bot seat's own level: the host set
    them in the lobby (`GameStarted.bot_levels`); any other seat a bot plays (taken over
    after a drop or an expulsion) gets the table's bot. Everything else is the engine."""

    def __init__(self, engine: Any, levels: dict[int, str],
                 before_long_work: Callable[[], None] = lambda: None) -> None:
        self._engine = engine
        self.levels = dict(levels)
        self.before_long_work = before_long_work     # the session's `flush_sends`

    def choose(self, state: Any, seat: int, bot: str, seed: Any) -> Any:
        self.before_long_work()
        return self._engine.choose(state, seat, self.levels.get(seat, bot), seed)

    def settle(self, decision: Any) -> Any:
        self.before_long_work()
        return self._engine.settle(decision)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._engine, name)
        setattr(self, name, value)      # found once: the lockstep asks at every message
        return value


class Mesh:
    """Mixed into `net.table.session.TableSession`."""

    def _on_GameStarted(self, conn: PeerConnection, msg: dict) -> None:
        if conn is not self.host_conn or self.started:
            conn.offence("GameStarted from a peer that is not the host")
            return
        try:
            self._check_start(msg)
        except ValueError as exc:
            self.on_error(f"the host's GameStarted is malformed: {exc}")
            conn.offence(f"malformed GameStarted: {exc}")
            return
        host_addr = self.host_address
        for p in msg["peers"]:
            if p["host"] == "":
                p["host"] = host_addr[0]
        self._game_started(msg)

    def _check_start(self, msg: dict) -> None:
        self._config_from(msg["config"])
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
        for p in msg["peers"]:
            if not isinstance(p, dict) or not isinstance(p.get("host"), str) \
                    or not isinstance(p.get("port"), int) or not isinstance(p.get("peer"), bytes):
                raise ValueError("bad peer entry")

    def _config_from(self, wire: dict) -> Any:
        return self.engine.config_from_wire(wire)

    def _game_started(self, msg: dict) -> None:
        self.start_info = {k: msg[k] for k in START_KEYS}
        self.phase = Phase.MESH
        self.lobby["started"] = True
        self.my_seat = self._seat_of_peer(self.peer_id)
        for p in msg["peers"]:
            self.addresses[p["seat"]] = (p["host"], p["port"])
        for conn in list(self.conns):
            if conn.pending_mesh:
                conn.pending_mesh = False
                entry = self._seat_entry(conn.hello["seat"])
                if conn.hello["table"] != msg["table"] or entry is None \
                        or entry["peer"] != conn.remote_peer:
                    conn.drop("mesh connection for another table or seat")
                    continue
                if not seat_proved(entry.get("key"), msg["table"], entry["seat"],
                                   conn.binding, conn.hello["seat_proof"]):
                    conn.drop(f"mesh connection without seat {entry['seat']}'s key")
                    continue
            if conn.seat is None or conn is self.host_conn:
                conn.seat = self._seat_of_peer(conn.remote_peer)
        self.chain = HashChain()
        self.token = os.urandom(32)
        self.chain_ends[self.my_seat] = self.chain.commitment
        self.token_hashes[self.my_seat] = H(self.token)
        if self.save_path is None:
            self.save_path = default_save_path(self.name)
        self._save()        # before the commitment goes out: a restart must keep this chain
        # a player that never shows up (its GameStarted was lost with the host, say) is
        # treated like one that dropped: after the rejoin timeout a bot takes its seat
        self._watch_absent_seats()
        # the mesh: dial every player with a lower seat we are not yet connected to
        for p in msg["peers"]:
            if p["seat"] < self.my_seat and self._conn_for_peer(p["peer"]) is None:
                self._dial(p["host"], p["port"], {"role": "player", "seat": self.my_seat,
                                                  "table": msg["table"]})
        for conn in self.conns:
            self._send_chain(conn)
        self._start_heartbeat()
        self._drain()
        self._maybe_begin()

    def _watch_absent_seats(self) -> None:
        """Players I have no connection to (yet) get the rejoin timeout, as if they had
        just dropped: one that never shows up, or that the others already gave up
        waiting for while I was away, is taken over like any dropped seat."""
        bots = self.lockstep.bots if self.lockstep is not None else set()
        for seat in self._humans():
            if seat != self.my_seat and seat not in bots and seat not in self.offline \
                    and self._conn_for_seat(seat) is None:
                self._start_timeout(seat, self.opts.rejoin_timeout)

    def _send_chain(self, conn: PeerConnection) -> None:
        msg = self.chain_msgs.get(self.my_seat)
        if msg is None:
            msg = self.chain_msgs[self.my_seat] = self.sign(
                {"type": "ChainCommitted", "seat": self.my_seat,
                 "chain_end": self.chain.commitment, "token_hash": H(self.token)})
        conn.send(msg)

    def _on_ChainCommitted(self, conn: PeerConnection, msg: dict) -> None:
        if not self.started or conn.seat is None or msg["seat"] != conn.seat:
            conn.offence(f"ChainCommitted for seat {msg['seat']} from {conn.seat}")
            return
        seat = msg["seat"]
        if not self.signed_by_seat(seat, msg):
            conn.offence(f"ChainCommitted is not signed by seat {seat}'s key")
            return
        old = self.chain_ends.get(seat)
        if old is not None:
            if old != msg["chain_end"] or self.token_hashes[seat] != msg["token_hash"]:
                conn.offence(f"seat {seat} committed to a second chain")
                self._cheated(seat, self.chain_msgs.get(seat), msg)
            return
        self.chain_msgs[seat] = msg
        self.chain_ends[seat] = msg["chain_end"]
        self.token_hashes[seat] = msg["token_hash"]
        if self._conn_for_seat(seat) is not None:
            self._cancel_timeout(seat)               # it showed up: no take-over
        if self.lockstep is not None:
            # the game began here without it (the seat dropped in the handshake and has
            # come back): its links can be checked from now on
            self.lockstep.add_chain(seat, msg["chain_end"], self.token_hashes[seat])
        self._maybe_begin()
        self._catch_up_early_rejoiners()

    def _humans(self) -> list[int]:
        return [s["seat"] for s in self.start_info["seats"] if s["kind"] == "human"]

    def _maybe_begin(self, without_missing: bool = False) -> None:
        """Begin once every player's chain commitment is here — or, after a player dropped
        in the start handshake and did not come back in time, without the missing ones:
        the game then runs to the first step that needs the dropped seat, where a bot
        takes it over, at the same step as at the players that did get its commitment."""
        if self.lockstep is not None or self.role not in ("host", "join") \
                or self.start_info is None:
            return        # a resumed peer begins from the log it is sent (CaughtUp)
        if not without_missing and not all(s in self.chain_ends for s in self._humans()):
            return
        self.lockstep = self._make_lockstep(self.chain_ends)
        self.phase = Phase.PLAY
        log.info("game begins: seat %s of %d", self.my_seat, len(self.start_info["seats"]))
        self.on_started(self.lockstep.config, self.my_seat, self.lockstep.state)
        for conn in self.spectators:
            conn.send(self._caught_up())
        self.lockstep.start()
        self._drain()
        self._catch_up_early_rejoiners()

    def _make_lockstep(self, chain_ends: dict[int, bytes], following: bool = False) -> Lockstep:
        info = self.start_info
        kinds = {s["seat"]: s["kind"] for s in info["seats"]}
        levels = {seat: level for seat, level in info.get("bot_levels", [])}
        ls = Lockstep(SeatBots(self.engine, levels, self.flush_sends),
                      self._config_from(info["config"]), kinds,
                      None if following else self.my_seat, None if following else self.chain,
                      chain_ends, bot=info["bot"], tokens=self.token_hashes)
        ls.following = following
        ls.broadcast = self._broadcast
        ls.sign = self.sign
        ls.verify = self.signed_by_seat
        ls.on_cheated = self._cheated
        ls.on_events = lambda events, state: self.on_events(events, state)
        ls.on_decision = lambda d, state: self.on_decision(d, state)
        ls.on_step = self._step_applied
        ls.on_desync = self._desync
        ls.on_offence = self._lockstep_offence
        ls.on_ended = self._ended
        ls.on_saved = self._save
        return ls

    def _drain(self) -> None:
        pending, self.buffer = self.buffer, []
        for conn, msg in pending:
            if not conn.closed:
                self.received(conn, msg)
