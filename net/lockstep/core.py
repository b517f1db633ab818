"""The lockstep core: which inputs each step needs, and applying them in the sim's order.

Why a transport-free core: every peer runs this same object; the session feeds it the
messages its connections received (already checked for shape and for the sender's seat)
and broadcasts what it emits. Being free of sockets and clocks, it is tested directly.

A *step* is one decision point of the sim (`pending(state)`), run by the part for its
kind (the table `_runners`): `chance` draws (`net.lockstep.chance_step`), secret `plan`s
and the `open`ing of their cards (`net.lockstep.plan_steps`), the `tower` vote
(`net.lockstep.tower_vote`), and one seat's command for any other
(`net.lockstep.command_step`). Each message kind is handled by one method of one part
(the table `receivers`, like `net.transport.messages.SCHEMAS`), which
`net.lockstep.inputs` uses after the checks every kind shares. Every message carries
the sender's state hash at its step, compared on arrival (`net.lockstep.desync`).

Tests: tests/net/lockstep/test_core.py, tests/net/lockstep/test_field_reveal.py,
tests/net/lockstep/test_echo.py, tests/net/lockstep/test_tower_vote.py,
tests/net/lockstep/test_real_engine.py; over a network: tests/net/table/.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from net.lockstep.beacon import ChainVerifier, HashChain
from net.lockstep.blame import Awaited, StepHeld, awaited
from net.lockstep.chance_step import ChanceStep
from net.lockstep.command_step import CommandStep
from net.lockstep.core_view import Receiver, StepRunner, receives
from net.transport import message_records as records
from net.lockstep.desync import DesyncWatch
from net.lockstep.engine import (Applied, EngineCommand, EngineConfig, EngineEvent,
                                  EngineState, GameEngine, PendingDecision)
from net.lockstep.heard import Heard
from net.lockstep.host import LockstepHost, QuietHost
from net.lockstep.inputs import RELAYABLE, Inputs
from net.lockstep.links import BeaconLinks
from net.lockstep.outbox import Outbox
from net.lockstep.plan_messages import PLAN_KINDS, PlanMessages
from net.lockstep.plan_steps import PlanSteps
from net.lockstep.step_inbox import STALE_GRACE, Offence, StepInbox, Wire
from net.lockstep.tower_vote import TowerDisagreement, TowerVote
from sim.state import DecisionKind

__all__ = ["Lockstep", "Offence", "StepInbox", "RELAYABLE", "PLAN_KINDS", "STALE_GRACE"]

log = logging.getLogger("net.lockstep.core")

SAVE_EVERY = 25       # steps between saves of the command log


@dataclass
class _Answers:
    """The core's questions asked at every message, answered once per state (or per take-over)."""
    hash: tuple[EngineState, tuple[int, ...], str] | None = None
    decision: tuple[EngineState, PendingDecision] | None = None
    contributors: tuple[int, list[int]] | None = None


class Lockstep:
    """One peer's view of the game: state, command log, inboxes, and its own outbox."""

    Offence = Offence

    def __init__(self, game: GameEngine, config: EngineConfig, kinds: dict[int, str],
                 my_seat: int | None, chain: HashChain | None, chain_ends: dict[int, bytes],
                 bot: str = "heuristic", tokens: dict[int, bytes] | None = None,
                 host: LockstepHost | None = None, following: bool = False) -> None:
        self.host: LockstepHost = host if host is not None else QuietHost()   # my way out
        self.game = game
        self.config = config
        self.kinds = dict(kinds)                 # seat -> "human" | "bot"
        self.bots = {s for s, k in kinds.items() if k == "bot"}
        self._step_bots = tuple(sorted(self.bots))   # bots as the current step began
        self.my_seat = my_seat
        self.chain = chain
        self.bot = bot
        self.state, events = game.new_game(config)
        self.step = 0
        self.round = 0                           # beacon rounds used so far
        self.log: list[Wire] = []
        self.inbox: dict[int, StepInbox] = {}
        self.heard = Heard()                     # what each seat said, per step
        self.ended = False
        self.following = following               # spectators apply StepApplied only
        self.initial_events: list[EngineEvent] = events
        self._asked: int | None = None
        self._cached = _Answers()                # hash, decision, contributors: per state
        self._pending_takeovers: list[int] = []   # seats taken over in the current step
        # the parts, each with its own state
        self.links = BeaconLinks(self, chain_ends, tokens or {})
        self.outbox = Outbox(self)
        self.desync = DesyncWatch(self, self.outbox, self.heard)
        self.chance = ChanceStep(self, self.links)
        self.commands = CommandStep(self)
        self.tower = TowerVote(self)
        self.plans = PlanSteps(self, self.links)
        self.plan_messages = PlanMessages(self, self.plans, self.links)
        receivers: dict[str, Receiver] = {**dict((
            receives(records.HashStated, self.desync.on_hash_stated),
            receives(records.GameFinished, self.desync.on_game_finished),
            receives(records.LinkRevealed, self.chance.on_link_revealed),
            receives(records.TowerVoted, self.tower.on_voted),
            receives(records.CommandSent, self.commands.on_command_sent))),
            **self.plan_messages.receivers()}
        self.inputs = Inputs(self, self.heard, self.desync, receivers)
        self._runners: dict[str, StepRunner] = {
            "chance": self.chance.run, "plan": self.plans.run_plan,
            "tower": self.tower.run, "open": self.plans.run_open}

    # ------------------------------------------------------------------ the parts' state
    @property
    def sent(self) -> dict[int, list[Wire]]:
        """My messages per step (for resends and the save)."""
        return self.outbox.sent

    @property
    def my_plans(self) -> dict[int, tuple[bytes, Wire]]:
        """step -> (nonce, plan wire) of my locked plans (for the save)."""
        return self.plans.my_plans

    @property
    def verifiers(self) -> dict[int, ChainVerifier]:
        """seat -> the checker of its beacon links (`net.lockstep.links`)."""
        return self.links.verifiers

    @property
    def tower_disagreements(self) -> list[TowerDisagreement]:
        """Steps where the voters' drops differed (`net.lockstep.tower_vote`)."""
        return self.tower.disagreements

    # ------------------------------------------------------------------ queries
    @property
    def hash(self) -> str:
        """What every message carries and every peer compares: the state hash, and which
        seats bots play as the step begins. The seats matter as much as the state: a peer
        that got a dropped seat's last input while the others took the seat over has the
        same state for a step, but seeds the next draw with one link more, so it must be
        caught at once. (A take-over during a step shows from the next step on: messages
        sent before it carry the hash the step began with.) Cached per state."""
        bots = self._step_bots
        cached = self._cached.hash
        if cached is None or cached[0] is not self.state or cached[1] != bots:
            state_hash = self.game.state_hash(self.state)
            if bots:
                state_hash = hashlib.sha256(
                    f"{state_hash}/bots/{','.join(map(str, bots))}".encode()).hexdigest()
            cached = self._cached.hash = (self.state, bots, state_hash)
        return cached[2]

    def decision(self) -> PendingDecision:
        """The engine's pending decision, asked once per state (every message checks it)."""
        cached = self._cached.decision
        if cached is None or cached[0] is not self.state:
            cached = self._cached.decision = (self.state, self.game.pending(self.state))
        return cached[1]

    def contributors(self) -> list[int]:
        """Seats whose beacon links make the seeds: humans not taken over by a bot. (Asked
        for every message; kept until a seat is taken over: `bots` only ever grows.)"""
        cached = self._cached.contributors
        if cached is None or cached[0] != len(self.bots):
            cached = self._cached.contributors = (len(self.bots), sorted(
                s for s, k in self.kinds.items() if k == "human" and s not in self.bots))
        return list(cached[1])

    def waiting_for(self) -> list[int]:
        """The seats the current step waits for (empty when over): those whose own input
        is missing first, never one whose input waits on another's (`net.lockstep.blame`)."""
        return [a.seat for a in self.awaited()]

    def awaited(self) -> tuple[Awaited, ...]:
        """The seats the current step waits for, each with what it owes."""
        if self.ended:
            return ()
        return awaited(self.held())

    def held(self) -> StepHeld:
        """What I hold of the current step: the evidence the blame is read from."""
        d = self.decision()
        box = self.inbox.get(self.step, StepInbox())
        players = tuple(self.contributors())
        actors = tuple(s for s in d.seats if s not in self.bots)
        if d.kind == DecisionKind.CHANCE:
            return StepHeld(d.kind, players, actors, frozenset(box.links))
        if d.kind == DecisionKind.TOWER:
            return StepHeld(d.kind, players, actors, frozenset(box.votes))
        if d.kind == DecisionKind.PLAN:
            return StepHeld(d.kind, players, actors,
                            commits={s: m["lock"] for s, m in box.commits.items()},
                            echoes={e: {s: m["lock"] for s, m in held.items()}
                                    for e, held in box.echoes.items()},
                            links=frozenset(box.links), reveals=frozenset(box.reveals))
        here = box.opening is not None if d.kind == DecisionKind.OPEN \
            else box.command is not None
        actor = tuple(s for s in d.seats[:1] if s not in self.bots)    # one seat's turn
        return StepHeld(d.kind, players, actor, frozenset(actor) if here else frozenset())

    def add_chain(self, seat: int, chain_end: bytes, token_hash: bytes) -> None:
        """A late beacon commitment (`net.lockstep.links.BeaconLinks.add_chain`)."""
        self.links.add_chain(seat, chain_end, token_hash)

    def box(self, step: int) -> StepInbox:
        """The inbox of `step`, made when first needed."""
        box = self.inbox.get(step)
        if box is None:
            box = self.inbox[step] = StepInbox()
        return box

    def earlier(self, step: int, seat: int, kind: str) -> Wire | None:
        """The message of `kind` I accepted from `seat` for `step` (one half of a proof)."""
        return self.heard.earlier(step, seat, kind)

    # ------------------------------------------------------------------ my inputs
    def start(self) -> None:
        """Announce the initial events and run to the first step that needs input."""
        self.host.events_happened(self.initial_events, self.state)
        self.advance()

    def submit(self, command: EngineCommand) -> None:
        """My seat's command for the current step. IllegalCommand/ValueError if not now."""
        if self.my_seat is None or self.following:
            raise ValueError("a spectator cannot submit commands")
        d = self.decision()
        seat = getattr(command, "seat", None)
        if seat != self.my_seat or self.my_seat not in d.seats \
                or d.kind in (DecisionKind.CHANCE, DecisionKind.OVER, DecisionKind.OPEN, DecisionKind.TOWER):
            raise ValueError(f"seat {seat} may not act now ({d.kind} for {list(d.seats)})")
        result = self.game.apply(self.state, command)   # raises IllegalCommand; pure
        wire = self.game.to_wire(command)
        if d.kind == DecisionKind.PLAN:
            self.plans.lock_plan(command, wire)
        else:
            self.commands.submit(command, wire, result)
        self.advance()

    def unlock(self) -> None:
        """Take my locked plan back (`net.lockstep.plan_steps.PlanSteps.unlock`)."""
        self.plans.unlock()

    def my_plan(self) -> EngineCommand | None:
        """My locked plan of this round, or None (`PlanSteps.my_plan`)."""
        return self.plans.my_plan()

    def plans_the_table_holds(self, plans: dict[int, tuple[bytes, Wire]]
                              ) -> dict[int, tuple[bytes, Wire]]:
        """Of my saved plans, the one the table holds (`PlanSteps.plans_the_table_holds`)."""
        return self.plans.plans_the_table_holds(plans)

    def send(self, msg: Wire) -> Wire:
        """Sign, keep and broadcast one of my messages (`net.lockstep.outbox`)."""
        return self.outbox.send(msg)

    def restore_outbox(self, sent: dict[int, list[Wire]]) -> None:
        """After a restart: my messages from before the crash count as sent again."""
        self.outbox.restore(sent)

    def resend_from(self, step: int) -> list[Wire]:
        """My messages for `step` and later (for a peer that reconnected)."""
        return self.outbox.resend_from(step)

    def ask(self, d: PendingDecision) -> None:
        """Ask my player for this step's input, once per step (the answer may come at
        once: a nested advance)."""
        if self._asked != self.step:
            self._asked = self.step
            self.host.decision_due(d, self.state)

    def ask_again(self) -> None:
        """My plan was taken back: the next advance asks for one again."""
        self._asked = None

    # ------------------------------------------------------------------ their inputs
    def receive(self, seat: int, msg: Wire, resent: bool = False) -> None:
        """A checked game message from the player owning `seat`. Raises Offence.
        (`net.lockstep.inputs.Inputs.receive`; `resent`: from a rejoining connection.)"""
        self.inputs.receive(seat, msg, resent)

    def receive_relayed(self, seat: int, msg: Wire) -> None:
        """A dropped seat's message, relayed by another player (`Inputs.receive_relayed`)."""
        self.inputs.receive_relayed(seat, msg)

    def heard_from(self, seat: int, since: int) -> list[Wire]:
        """`seat`'s messages I accepted for steps >= since, to relay them: only those that
        carry its signature. Most were taken from the seat's own connection unchecked
        (`net.table.play.Play._check_now`); a relayed one must prove itself to the receiver,
        who would otherwise take my relay for a forgery."""
        return self.heard.signed_from(seat, since, self.host.verify)

    def take_over(self, seat: int, step: int) -> bool:
        """A bot plays `seat` from `step` on (after the rejoin timeout). True if applied now."""
        if seat in self.bots or self.kinds.get(seat) != "human":
            return False
        if step < self.step:
            log.warning("take-over of seat %d at past step %d ignored (now %d)",
                        seat, step, self.step)
            return False
        self.box(step).takeovers.add(seat)
        self.advance()
        return seat in self.bots

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """Apply every step whose inputs are complete; emit my own inputs when due."""
        while not self.ended:
            d = self.decision()
            if d.kind == DecisionKind.OVER:
                self.ended = True
                # the last step has no later message to carry its hash: say it
                if self.my_seat is not None and not self.following \
                        and self.my_seat not in self.bots:
                    self.send({"type": "GameFinished", "step": self.step,
                               "seat": self.my_seat, "hash": self.hash})
                self.host.save_due()
                self.host.ended(self.state)
                return
            box = self.box(self.step)
            for seat in sorted(box.takeovers):
                if seat not in self.bots:
                    self._apply_takeover(seat, box)
            self.plan_messages.read_early_reveals(box, self.step)
            if self.following:
                return
            if not self._runners.get(d.kind, self.commands.run)(d, box):
                return

    def _apply_takeover(self, seat: int, box: StepInbox) -> None:
        log.warning("seat %d is played by a bot from step %d on", seat, self.step)
        self.bots.add(seat)
        box.drop_plan_inputs(seat)
        box.links.pop(seat, None)
        box.votes.pop(seat, None)
        if box.command is not None and box.command[0] == seat:
            box.command = None
        self._pending_takeovers.append(seat)

    def commit_step(self, commands: list[EngineCommand], beacon: bool,
                    result: Applied | None = None,
                    commits: list[Wire] | None = None, bot_seed: bytes | None = None) -> None:
        """Log the step's commands and apply them (`result`: already applied once)."""
        entry: Wire = {"step": self.step, "hash": self.hash,
                       "commands": [self.game.to_wire(c) for c in commands],
                       "takeovers": sorted(self._pending_takeovers)}
        if commits:                  # the signed plan commitments, for a rejoining peer
            entry["commits"] = commits
        if bot_seed is not None:     # the bots' plans, face down: computed again from it
            entry["bot_seed"] = bot_seed.hex()
        self._pending_takeovers = []
        if beacon:
            self.links.accept(self.inbox[self.step])
        self._apply_entry(entry, commands, beacon, result)

    def _apply_entry(self, entry: Wire, commands: list[EngineCommand], beacon: bool,
                     result: Applied | None = None) -> None:
        if result is not None:          # already applied once when it was checked
            self.state, events = result
        else:
            events = []
            for command in commands:
                self.state, more = self.game.apply(self.state, command)
                events.extend(more)
        self.log.append(entry)
        self.inbox.pop(self.step, None)
        self.outbox.sent.pop(self.step - STALE_GRACE, None)
        self.heard.drop(self.step - STALE_GRACE)
        self.step += 1
        self._step_bots = tuple(sorted(self.bots))
        if beacon:
            self.round += 1
        self.host.step_applied(entry)
        self.host.events_happened(events, self.state)
        if self.step % SAVE_EVERY == 0:
            self.host.save_due()
        if not self.following:
            self._entered_step()

    def _entered_step(self) -> None:
        """Checks for messages that arrived early for the step just reached."""
        box = self.inbox.get(self.step)
        if box is None:
            return
        d = self.decision()
        for seat, theirs in list(box.hashes.items()):
            self.desync.compare(seat, theirs)
        bad = (self.links.check_early(d, box) + self.tower.check_early(d, box)
               + self.plan_messages.check_early(d, box) + self.commands.check_early(d, box))
        for seat, reason in bad:
            log.warning("rejected early message from seat %d: %s", seat, reason)
            self.host.offended(seat, reason)

    # ------------------------------------------------------------------ replay
    def replay(self, entry: Wire) -> None:
        """Apply a logged step (catch-up or spectating). ValueError if it does not fit."""
        if entry.get("step") != self.step:
            raise ValueError(f"log entry for step {entry.get('step')} but I am at {self.step}")
        if entry.get("hash") != self.hash:
            raise ValueError(f"log entry hash differs at step {self.step}")
        d = self.decision()
        if d.kind == DecisionKind.OVER:
            raise ValueError("the game is over")
        for seat in entry.get("takeovers", []):
            if isinstance(seat, int) and self.kinds.get(seat) == "human":
                self.bots.add(seat)
        wires = entry.get("commands")
        if not isinstance(wires, list) or not wires:
            raise ValueError("log entry has no commands")
        commands = [self.game.from_wire(w) for w in wires]
        if d.kind == DecisionKind.PLAN:
            self.plans.restore_field_commits(entry)
            self.plans.restore_bot_plans(entry, self.state, d)
        self._apply_entry(dict(entry), commands, d.kind in (DecisionKind.CHANCE, DecisionKind.PLAN))
        if self.decision().kind == DecisionKind.OVER and not self.ended:
            self.ended = True
            self.host.ended(self.state)
