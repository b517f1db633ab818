"""Lockstep traffic while the game runs: building the `net.lockstep.core.Lockstep`,
routing messages into it, its offences, the end, and desync reports.

Tests: tests/net/table/test_session.py, tests/net/lockstep/,
tests/net/trust/test_signature_checks.py.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, cast

from net.lockstep.core import Lockstep, Offence
from net.lockstep.engine import (EngineCommand, EngineEvent, EngineState, PendingDecision,
                                 sim_events)
from net.lockstep.plan_steps import for_spectators
from net.transport.message_records import Wire
from net.table.drop_claims import DropClaims
from net.table.expulsion import Expulsion
from net.table.seat_signer import SeatSigner
from net.table.liveness import Liveness
from net.table.persistence import Persistence
from net.table.phase import Phase
from net.table.shared import Identity, Roster, StartRecord, TableEngine, TableSetting, TableState
from net.table.takeover import Takeover
from store.table_save import write_desync_report

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection
    from sim.state import Decision

log = logging.getLogger("net.table.session")

# the signed kinds whose signature a peer checks on arrival even from the seat's own
# connection (see `Play._check_now`); the others are checked when shown to a third peer
CHECKED_AT_ONCE = frozenset({"PlanCommitted", "PlanUnlocked", "CommitsEchoed",
                             "ChainCommitted"})
BUFFER_LIMIT = 5000     # messages kept for later (before the game began here)


class SeatBots:
    """The engine as the lockstep sees it, with each bot seat's own level: the host set
    them in the lobby (`GameStarted.bot_levels`); any other seat a bot plays (taken over
    after a drop or an expulsion) gets the table's bot. Everything else is the engine."""

    def __init__(self, engine: TableEngine, levels: dict[int, str],
                 before_long_work: Callable[[], None] = lambda: None) -> None:
        self._engine = engine
        self.levels = dict(levels)
        self.before_long_work = before_long_work     # the session's `flush_sends`

    def choose(self, state: EngineState, seat: int, bot: str, seed: bytes) -> EngineCommand:
        self.before_long_work()
        return self._engine.choose(state, seat, self.levels.get(seat, bot), seed)

    def settle(self, decision: PendingDecision) -> EngineCommand:
        self.before_long_work()
        return self._engine.settle(decision)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._engine, name)
        setattr(self, name, value)      # found once: the lockstep asks at every message
        return value


class EarlyMessages:
    """Game messages that came before the game began here (or while I catch up), kept in
    their order and handled when it does (`Connections.drain`); at most `BUFFER_LIMIT`.
    Play's: the connections, the relays and recovery keep, take and forget through it."""

    def __init__(self) -> None:
        self._kept: list[tuple[PeerConnection, Wire]] = []

    def keep(self, conn: PeerConnection, msg: Wire) -> bool:
        """Keep `msg` for when the game begins here; False when `BUFFER_LIMIT` are kept."""
        if len(self._kept) >= BUFFER_LIMIT:
            return False
        self._kept.append((conn, msg))
        return True

    def take(self) -> list[tuple[PeerConnection, Wire]]:
        """The kept messages, in their order; none are kept after."""
        kept, self._kept = self._kept, []
        return kept

    def forget(self) -> None:
        """A rejoin starts over: what came for the game I left is not for the new one."""
        self._kept = []


class Play:
    """The running game: the lockstep, what goes into it, and what it reports."""

    def __init__(self, shared: TableState, setting: TableSetting, me: Identity, roster: Roster,
                 start: StartRecord, signer: SeatSigner, claims: DropClaims,
                 takeover: Takeover, expulsion: Expulsion, liveness: Liveness,
                 persistence: Persistence) -> None:
        self._shared = shared
        self._setting = setting
        self._me = me
        self._roster = roster
        self._start = start
        self._signer = signer
        self._claims = claims
        self._takeover = takeover
        self._expulsion = expulsion
        self._liveness = liveness
        self._persistence = persistence
        self.desyncs: list[dict[str, Any]] = []          # my desync reports
        self.early = EarlyMessages()

    def make_lockstep(self, chain_ends: dict[int, bytes], following: bool = False) -> Lockstep:
        table = self._shared
        info = self._start.info
        assert info is not None
        kinds = {s["seat"]: s["kind"] for s in info["seats"]}
        levels = {seat: level for seat, level in info.get("bot_levels", [])}
        return Lockstep(SeatBots(self._setting.engine, levels, self._liveness.flush_sends),
                        self._setting.engine.config_from_wire(info["config"]), kinds,
                        None if following else table.my_seat,
                        None if following else self._start.chain,
                        chain_ends, bot=info["bot"], tokens=self._start.token_hashes,
                        host=self, following=following)

    def lockstep_message(self, conn: PeerConnection, msg: Wire) -> None:
        """A player's game message (`messages.PLAYER_GAME_MESSAGES`) for the lockstep."""
        table = self._shared
        if conn.role == "spectator" or conn is self._roster.source:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if table.lockstep is None or table.phase is Phase.RECOVERY:
            if not (self._start.started or table.role == "resume") \
                    or not self.early.keep(conn, msg):
                conn.offence(f"{msg['type']} before the game started")
            return
        if conn.seat is None:
            conn.offence(f"{msg['type']} from a connection without a seat")
            return
        if msg["seat"] == conn.seat and self._check_now(conn.seat, msg) \
                and not self._signer.signed_by_seat(conn.seat, msg):
            conn.offence(f"{msg['type']} for step {msg['step']} is not signed by seat "
                         f"{conn.seat}'s key")
            return
        try:
            resent = conn.role == "rejoin" or (conn.dialer and table.role == "resume") \
                or conn.redialed
            table.lockstep.receive(conn.seat, msg, resent=resent)
            self._claims.forward(conn.seat, msg)
        except Offence as exc:
            conn.offence(str(exc))
        except ValueError as exc:
            conn.offence(f"rejected {msg['type']}: {exc}")

    def _check_now(self, seat: int, msg: Wire) -> bool:
        """Whether a message that came on `seat`'s own connection must have its signature
        checked at once.

        Why not always: that connection is already bound to the seat's key (its Hello
        proves the key over the key exchange's binding, or the key was pinned from it),
        so what arrives on it is the seat's word to me, signed or not. The signature is
        for showing the message to someone else, and a peer checks it when it does
        that: before passing it on (`heard_from`, forwarding to a parted player) and
        when building a proof (`cheated`). Commitments are the exception: an echo
        shows them to everyone at once, and a badly signed one in my echo would look
        like my forgery. Skipping the rest saves ~950 Ed25519 checks per peer per game
        (BENCHMARKS.md)."""
        return msg["type"] in CHECKED_AT_ONCE or self._claims.forwarded(seat)

    # ------------------------------------ the lockstep's host (`net.lockstep.host.LockstepHost`)
    def broadcast(self, msg: Wire) -> None:
        self._roster.broadcast(msg)

    def sign(self, msg: Wire) -> Wire:
        return self._signer.sign(msg)       # looked up each time: tests replace it

    def verify(self, seat: int, msg: Wire) -> bool:
        return self._signer.signed_by_seat(seat, msg)

    def cheated(self, seat: int, first: Mapping[str, object] | None,
                second: Mapping[str, object]) -> bool:
        return self._expulsion.cheated(seat, first, second)

    def events_happened(self, events: list[EngineEvent], state: EngineState) -> None:
        self._setting.callbacks.on_events(sim_events(events), state)

    def decision_due(self, decision: PendingDecision, state: EngineState) -> None:
        # the table's engine is the rules (`SimEngine`): its decision is `sim.state.Decision`
        self._setting.callbacks.on_decision(cast("Decision", decision), state)

    def save_due(self) -> None:
        self._persistence.save()

    def offended(self, seat: int, reason: str) -> None:
        conn = self._roster.conn_for_seat(seat)
        if conn is not None:
            conn.offence(reason)
        else:
            log.warning("rejected input from seat %d: %s", seat, reason)

    def step_applied(self, entry: Wire) -> None:
        if self._roster.spectators:
            watched = for_spectators(entry)
            for conn in self._roster.spectators:
                conn.send({"type": "StepApplied", "entry": watched})
        self._persistence.append_log(entry)
        if entry.get("takeovers"):
            self._seats_became_bots(entry["takeovers"])
        self._setting.callbacks.on_step_applied(entry)

    def _seats_became_bots(self, seats: list[int]) -> None:
        """Taken-over seats show as bots in the lobby (the window says "Bot (Orange)");
        the lobby keeps the player's name under `was`, and under `claimed_by` the seats
        whose claims gave it to a bot here (issue 52; empty: a proof, or a log caught up
        from). Local only: after the start no one sends LobbyChanged."""
        table = self._shared
        changed = False
        for entry in table.lobby.get("seats", []):
            if entry.get("seat") in seats and entry.get("kind") != "bot":
                entry.update(kind="bot", was=entry.get("name", ""), taken_over=True,
                             claimed_by=list(self._takeover.claimed_by.get(entry["seat"], [])))
                changed = True
        if changed:
            self._setting.callbacks.on_lobby_changed(table.lobby)

    def ended(self, state: EngineState) -> None:
        self._shared.enter(Phase.ENDED)
        self._takeover.cancel_all()
        self._setting.callbacks.on_ended(state)

    def desync_found(self, seat: int, step: int, mine: str, theirs: str) -> None:
        table = self._shared
        report: dict[str, Any] = {
            "step": step, "seat": seat, "my_seat": table.my_seat, "my_hash": mine,
            "their_hash": theirs, "versions": self._me.versions,
            "log": table.lockstep.log if table.lockstep else []}
        base = self._setting.opts.report_dir or (str(Path(self._me.save_path).parent)
                                         if self._me.save_path else os.getcwd())
        try:
            report["path"] = write_desync_report(base, report)
        except OSError as exc:
            log.error("could not write the desync report: %s", exc)
        log.error("DESYNC at step %d: seat %d has %s, I have %s (report %s)",
                  step, seat, theirs, mine, report.get("path"))
        self.desyncs.append(report)
        self._setting.callbacks.on_desync(report)
        conn = self._roster.conn_for_seat(seat)
        if conn is not None:
            conn.drop(f"desync at step {step}: your state hash differs from mine", offender=False)
