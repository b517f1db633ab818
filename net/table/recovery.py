"""Recovery: a player rejoining (after a crash, or after a desync), the log it catches up
from, and giving that log to others.

Why: a restarted or diverged peer becomes the same peer again by proving its seat,
replaying the majority's command log with its own sim, and restoring what it already
said from its save.

Tests: tests/net/table/test_session.py (resume, rejoin), tests/net/table/test_faults_random.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, TYPE_CHECKING

from net.transport.messages import Wire

from net.lockstep.beacon import ChainVerifier
from net.lockstep.plan_steps import for_spectators
from net.table.dialer import Dialer
from net.table.persistence import Persistence
from net.table.phase import Phase
from net.table.play import Play
from net.table.shared import Identity, Roster, StartRecord, TableSetting, TableState
from net.table.before_start.start_mesh import OPTIONAL_START_KEYS, START_KEYS, check_start, start_not_mine
from net.table.takeover import Takeover
from net.transport.message_records import CaughtUp

if TYPE_CHECKING:
    from net.lockstep.core import Lockstep
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


def _same_step(a: Wire, b: Wire) -> bool:
    """Two log entries of one step agree: the same hash as it began, the same commands
    and the same take-overs."""
    return a.get("hash") == b.get("hash") and a.get("commands") == b.get("commands") \
        and sorted(a.get("takeovers", [])) == sorted(b.get("takeovers", []))


class Recovery:
    """Rejoining my seat, catching up, and giving my log to a player that rejoins."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, dialer: Dialer, takeover: Takeover,
                 persistence: Persistence, play: Play, drain: Callable[[], None]) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._dialer = dialer
        self._takeover = takeover
        self._persistence = persistence
        self._play = play
        self._drain = drain                  # messages kept for later, handled now
        self.saved_plans: dict[int, tuple[bytes, dict[str, Any]]] = {}   # my plans, from my save
        self.saved_outbox: dict[int, list[dict[str, Any]]] = {}          # what I had sent, per step
        self._old_log: list[dict[str, Any]] = []                # my log before a rejoin
        self._early_rejoiners: list[PeerConnection] = []   # rejoined in the handshake

    def rejoin(self, table_id: bytes) -> None:
        """Dial every other player as the seat I hold at table `table_id` (a resume, or
        a rejoin after a desync)."""
        table = self._shared
        hello = {"role": "rejoin", "seat": table.my_seat, "token": self._start.token,
                 "table": table_id}
        for seat, (host, port) in sorted(self._start.addresses.items()):
            if seat != table.my_seat:
                self._dialer.dial(host, port, hello)

    def rejoin_all(self) -> None:
        """Rejoin my seat with the peer still running: the same path as `--resume`."""
        table = self._shared
        old = table.lockstep
        if table.closed or table.over() or old is None \
                or any(c.seat is not None and not c.closed for c in self._roster.conns):
            return
        if not [s for s, kind in old.kinds.items() if kind == "human" and s != table.my_seat
                and s not in old.bots and s not in table.expelled]:
            return      # the others are bots or cheaters I expelled: nobody to rejoin
        log.warning("dropped by every player: rejoining seat %d", table.my_seat)
        self._setting.callbacks.on_paused("dropped by the other players; rejoining and catching up")
        self._old_log = list(old.log)
        self.saved_plans = dict(old.my_plans)
        self.saved_outbox = {step: list(msgs) for step, msgs in old.sent.items()}
        self._takeover.cancel_all()
        table.role = "resume"
        table.enter(Phase.RECOVERY)
        table.lockstep = None
        self._play.early.forget()
        assert self._start.info is not None
        self.rejoin(self._start.info["table"])

    def rejoined(self, conn: PeerConnection) -> None:
        """A dropped player proved its seat: give it the log, then my current messages."""
        table = self._shared
        seat = conn.seat
        assert seat is not None
        conn.remote_name = self._start.name_of_seat(seat)
        log.warning("seat %d rejoined", seat)
        self._takeover.back_online(seat)
        if table.lockstep is None or seat not in self._start.chain_ends:
            # it dropped in the start handshake: the log follows once the game has begun
            # here and its commitment (which it sends again) has arrived
            self._early_rejoiners.append(conn)
            return
        self._send_caught_up(conn)

    def _send_caught_up(self, conn: PeerConnection) -> None:
        ls = self._shared.lockstep
        assert ls is not None
        conn.send(self.caught_up())
        for msg in ls.resend_from(ls.step):
            conn.send(msg)

    def catch_up_early_rejoiners(self) -> None:
        table = self._shared
        if table.lockstep is None:
            return
        waiting = []
        for conn in self._early_rejoiners:
            if conn.closed or conn not in self._roster.conns:
                continue
            if conn.seat in self._start.chain_ends:
                self._send_caught_up(conn)
            else:
                waiting.append(conn)
        self._early_rejoiners = waiting

    def caught_up(self, spectator: bool = False) -> Wire:
        """The `CaughtUp` for a rejoining player or a spectator: the start and my log
        (a spectator's without the bots' seeds, `plan_steps.for_spectators`)."""
        ls = self._shared.lockstep
        assert ls is not None
        chains = {str(s): [v.next_round, v.last] for s, v in ls.verifiers.items()}
        entries = [for_spectators(e) for e in ls.log] if spectator else ls.log
        return {"type": "CaughtUp", "start": self._persistence.start_wire(), "log": entries,
                "chains": chains, "step": ls.step}

    def caught_up_received(self, conn: PeerConnection, msg: CaughtUp) -> None:
        """A `CaughtUp` from a player I dialled to rejoin or to watch."""
        table = self._shared
        if not conn.dialer or table.role not in ("watch", "resume"):
            conn.offence("CaughtUp sent to a peer that did not ask")
            return
        if table.role == "watch" and conn is not self._roster.source:
            conn.offence("CaughtUp from a peer we do not follow")
            return
        recovering = table.phase is Phase.RECOVERY     # the first catch-up of a rejoin
        try:
            if table.lockstep is not None and table.role == "watch" \
                    and not self._same_history(msg["log"]):
                # the player we watched had applied steps the others never saw (it
                # dropped mid-step and a bot took its seat): follow the new player's
                # history from the start
                log.warning("rewinding the spectated game to the history of %s",
                            conn.describe())
                table.lockstep = None
            ls = table.lockstep
            if ls is None:
                ls = self._begin_from(msg)
            for entry in msg["log"][ls.step:]:
                if ls.ended:
                    break
                ls.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("could not catch up from %s: %s", conn.describe(), exc)
            self._setting.callbacks.on_error(f"could not catch up: {exc}")
            return
        if table.role == "resume":
            ls.following = False
            ls.chain = self._start.chain
            ls.my_seat = table.my_seat
            if recovering:
                if table.phase is Phase.RECOVERY:
                    table.enter(Phase.PLAY)
                self._restore_my_step(ls)
                self._takeover.watch_absent_seats()
            else:
                for m in ls.resend_from(msg["step"]):
                    conn.send(m)
            self._drain()
            ls.advance()

    def _same_history(self, other: list[Wire]) -> bool:
        assert self._shared.lockstep is not None
        mine = self._shared.lockstep.log
        if len(other) < len(mine):
            return False
        return all(_same_step(a, b) for a, b in zip(mine, other))

    def _begin_from(self, msg: CaughtUp) -> Lockstep:
        table = self._shared
        start = msg["start"]
        check_start(self._setting.engine, start)
        problem = start_not_mine(self._me, start) if table.role == "resume" else None
        if problem is not None:
            raise ValueError(problem)
        self._start.info = {k: start[k] for k in START_KEYS + OPTIONAL_START_KEYS
                            if k in start or k not in OPTIONAL_START_KEYS}
        self._start.chain_ends = {s: e for s, e in start["chain_ends"]}
        self._start.token_hashes = {s: t for s, t in start["token_hashes"]}
        if table.role == "resume" and (self._start.chain is None or table.my_seat is None or
                                       self._start.chain_ends.get(table.my_seat)
                                       != self._start.chain.commitment):
            raise ValueError("my saved chain does not match my commitment at this table")
        for p in start["peers"]:
            self._start.addresses.setdefault(p["seat"], (p["host"], p["port"]))
        ls = self._play.make_lockstep(self._start.chain_ends, following=True)
        table.lockstep = ls
        for conn in self._roster.conns:
            if conn.seat is None:
                conn.seat = self._start.seat_of_peer(conn.remote_peer, table.lobby)
        self._setting.callbacks.on_started(ls.config, table.my_seat, ls.state)
        ls.host.events_happened(ls.initial_events, ls.state)
        for entry in msg["log"]:
            ls.replay(entry)
        for s, (next_round, last) in msg["chains"].items():
            v = ChainVerifier(self._start.chain_ends[int(s)])
            v.next_round, v.last = next_round, last
            ls.verifiers[int(s)] = v
        if table.role == "resume" and self._start.chain is not None and table.my_seat is not None:
            # my own links: trust my chain, not the peer
            v = ChainVerifier(self._start.chain.commitment)
            v.next_round = ls.round
            chain = self._start.chain
            v.last = chain.link(ls.round - 1) if ls.round else chain.commitment
            ls.verifiers[table.my_seat] = v
        return ls

    def _restore_my_step(self, ls: Lockstep) -> None:
        """After catching up: my committed plan (from the save) is still my plan."""
        old_log = self._old_log
        if not all(_same_step(a, b) for a, b in zip(old_log, ls.log)):
            # my history was not theirs (a desync): what I said from it is void, but for
            # my plan of the round if the table holds its commitment
            self.saved_plans = ls.plans_the_table_holds(self.saved_plans)
            self.saved_outbox = {}
            log.warning("my history differed from the table's; my earlier messages are void"
                        + ("; my plan of the round stands" if self.saved_plans else ""))
        ls.my_plans.update(self.saved_plans)
        ls.restore_outbox(self.saved_outbox)
        for m in ls.resend_from(ls.step):
            self._roster.broadcast(m)
