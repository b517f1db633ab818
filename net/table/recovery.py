"""Recovery: a player rejoining (after a crash, or after a desync), the log it catches up
from, and giving that log to others.

Why: a restarted or diverged peer becomes the same peer again by proving its seat,
replaying the majority's command log with its own sim, and restoring what it already
said from its save.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.lockstep.beacon import ChainVerifier
from net.table.start_mesh import START_KEYS
from net.table.phase import Phase

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


def _same_step(a: dict, b: dict) -> bool:
    """Two log entries of one step agree: the same hash as it began, the same commands
    and the same take-overs."""
    return a.get("hash") == b.get("hash") and a.get("commands") == b.get("commands") \
        and sorted(a.get("takeovers", [])) == sorted(b.get("takeovers", []))


class Recovery:
    """Mixed into `net.table.session.TableSession`."""

    def _rejoin_all(self) -> None:
        """Rejoin my seat with the peer still running: the same path as `--resume`."""
        if self.closed or self._over() or self.lockstep is None \
                or any(c.seat is not None and not c.closed for c in self.conns):
            return
        old = self.lockstep
        log.warning("dropped by every player: rejoining seat %d", self.my_seat)
        self.on_paused("dropped by the other players; rejoining and catching up")
        self._old_log = list(old.log)
        self.saved_plans = dict(old.my_plans)
        self.saved_outbox = {step: list(msgs) for step, msgs in old.sent.items()}
        for call in self.offline.values():
            if call.active():
                call.cancel()
        self.offline.clear()
        self.role = "resume"
        self.phase = Phase.RECOVERY
        self.lockstep = None
        self.buffer = []
        hello = {"role": "rejoin", "seat": self.my_seat, "token": self.token,
                 "table": self.start_info["table"]}
        for seat, (host, port) in sorted(self.addresses.items()):
            if seat != self.my_seat:
                self._dial(host, port, hello)

    def _rejoined(self, conn: PeerConnection) -> None:
        """A dropped player proved its seat: give it the log, then my current messages."""
        seat = conn.seat
        conn.remote_name = self._name_of_seat(seat)
        log.warning("seat %d rejoined", seat)
        self._back_online(seat)
        if self.lockstep is None or seat not in self.chain_ends:
            # it dropped in the start handshake: the log follows once the game has begun
            # here and its commitment (which it sends again) has arrived
            self._early_rejoiners.append(conn)
            return
        self._send_caught_up(conn)

    def _send_caught_up(self, conn: PeerConnection) -> None:
        conn.send(self._caught_up())
        for msg in self.lockstep.resend_from(self.lockstep.step):
            conn.send(msg)

    def _catch_up_early_rejoiners(self) -> None:
        if self.lockstep is None:
            return
        waiting = []
        for conn in self._early_rejoiners:
            if conn.closed or conn not in self.conns:
                continue
            if conn.seat in self.chain_ends:
                self._send_caught_up(conn)
            else:
                waiting.append(conn)
        self._early_rejoiners = waiting

    def _start_wire(self) -> dict:
        return {**self.start_info,
                "chain_ends": [[s, e] for s, e in sorted(self.chain_ends.items())],
                "token_hashes": [[s, t] for s, t in sorted(self.token_hashes.items())]}

    def _caught_up(self) -> dict:
        ls = self.lockstep
        chains = {str(s): [v.next_round, v.last] for s, v in ls.verifiers.items()}
        return {"type": "CaughtUp", "start": self._start_wire(), "log": ls.log,
                "chains": chains, "step": ls.step}

    def _on_CaughtUp(self, conn: PeerConnection, msg: dict) -> None:
        if not conn.dialer or self.role not in ("watch", "resume"):
            conn.offence("CaughtUp sent to a peer that did not ask")
            return
        if self.role == "watch" and conn is not self.source:
            conn.offence("CaughtUp from a peer we do not follow")
            return
        recovering = self.phase is Phase.RECOVERY     # the first catch-up of a rejoin
        try:
            if self.lockstep is not None and self.role == "watch" \
                    and not self._same_history(msg["log"]):
                # the player we watched had applied steps the others never saw (it
                # dropped mid-step and a bot took its seat): follow the new player's
                # history from the start
                log.warning("rewinding the spectated game to the history of %s", conn.describe())
                self.lockstep = None
            if self.lockstep is None:
                self._begin_from(msg)
            for entry in msg["log"][self.lockstep.step:]:
                if self.lockstep.ended:
                    break
                self.lockstep.replay(entry)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("could not catch up from %s: %s", conn.describe(), exc)
            self.on_error(f"could not catch up: {exc}")
            return
        if self.role == "resume":
            self.lockstep.following = False
            self.lockstep.chain = self.chain
            self.lockstep.my_seat = self.my_seat
            if recovering:
                if self.phase is Phase.RECOVERY:
                    self.phase = Phase.PLAY
                self._restore_my_step()
                self._watch_absent_seats()
            else:
                for m in self.lockstep.resend_from(msg["step"]):
                    conn.send(m)
            self._drain()
            self.lockstep.advance()

    def _same_history(self, other: list) -> bool:
        mine = self.lockstep.log
        if len(other) < len(mine):
            return False
        return all(_same_step(a, b) for a, b in zip(mine, other))

    def _begin_from(self, msg: dict) -> None:
        start = msg["start"]
        self._check_start(start)
        self.start_info = {k: start[k] for k in START_KEYS}
        self.chain_ends = {s: e for s, e in start["chain_ends"]}
        self.token_hashes = {s: t for s, t in start["token_hashes"]}
        if self.role == "resume" and self.chain_ends.get(self.my_seat) != self.chain.commitment:
            raise ValueError("my saved chain does not match my commitment at this table")
        for p in start["peers"]:
            self.addresses.setdefault(p["seat"], (p["host"], p["port"]))
        ls = self._make_lockstep(self.chain_ends, following=True)
        self.lockstep = ls
        for conn in self.conns:
            if conn.seat is None:
                conn.seat = self._seat_of_peer(conn.remote_peer)
        self.on_started(ls.config, self.my_seat, ls.state)
        ls.on_events(ls._initial_events, ls.state)
        for entry in msg["log"]:
            ls.replay(entry)
        for s, (next_round, last) in msg["chains"].items():
            v = ChainVerifier(self.chain_ends[int(s)])
            v.next_round, v.last = next_round, last
            ls.verifiers[int(s)] = v
        if self.role == "resume":
            # my own links: trust my chain, not the peer
            v = ChainVerifier(self.chain.commitment)
            v.next_round = ls.round
            v.last = self.chain.link(ls.round - 1) if ls.round else self.chain.commitment
            ls.verifiers[self.my_seat] = v

    def _restore_my_step(self) -> None:
        """After catching up: my committed plan (from the save) is still my plan."""
        ls = self.lockstep
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
            self._broadcast(m)
