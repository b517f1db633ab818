"""The lockstep core: which inputs each step needs, and applying them in the sim's order.

Why a transport-free core: every peer runs this same object; the session feeds it the
messages its connections received (already checked for shape and for the sender's seat)
and broadcasts what it emits. Being free of sockets and clocks, it is tested directly.

A *step* is one decision point of the sim (`pending(state)`):

- `chance`: each contributing player reveals its next beacon link (`LinkRevealed`);
  the seed is the hash of all links in seat order. Further draws that follow at once
  (no player input between) belong to the same step, seeded from the same links.
- `plan`: each human seat commits one digest per plan field (`PlanCommitted`), every
  player echoes the commitments it holds, then each opens only its bid with its beacon
  link (`BidOpened`; contributors that plan nothing send `LinkRevealed`). Bot plans are
  seeded by the links, so they are unknown until every human committed. Plans are
  applied in seat order, and the draws and the bids that follow belong to the same step
  (`net.lockstep.plan_steps`).
- `open`: an action card to turn; its owner opens that one field (`FieldOpened`); a
  seat a bot took over forfeits it (a money card).
- one seat: the owner sends `CommandSent`; a bot seat is computed by every peer.
- `tower`: a drop's seed is known; every contributing player computes the drop and sends
  its outcome (`TowerVoted`). Float results differ between CPUs, libms and compilers, so
  peers may disagree: the outcome held by a strict majority of the voters is applied by
  everyone (no strict majority: the largest group, ties to the group with the lowest
  seat), and the disagreement is logged. A peer whose CPU rounds differently plays on.

Every message carries the sender's state hash at its step, compared on arrival.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from net.lockstep import echo
from net.lockstep.beacon import CHAIN_LENGTH, BeaconError, ChainVerifier, HashChain, combine
from net.lockstep.plan_steps import PlanSteps

log = logging.getLogger("net.lockstep.core")

STALE_GRACE = 16      # messages this many steps old are ignored silently (resends)
AHEAD_LIMIT = 400     # messages further ahead than this are an offence
SAVE_EVERY = 25       # steps between saves of the command log


class Offence(ValueError):
    """A well-formed message that breaks the protocol; the text is the logged reason."""


@dataclass
class StepInbox:
    """What arrived for one step, keyed by the sender's seat."""
    commits: dict[int, dict] = field(default_factory=dict)   # seat -> signed PlanCommitted
    unlocked: dict[int, int] = field(default_factory=dict)   # seat -> last withdrawn lock
    reveals: dict[int, tuple[bytes, Any]] = field(default_factory=dict)   # opened bids
    links: dict[int, bytes] = field(default_factory=dict)
    command: tuple[int, Any, dict] | None = None
    votes: dict[int, dict] = field(default_factory=dict)   # seat -> TowerSettled wire
    hashes: dict[int, str] = field(default_factory=dict)
    echoes: dict[int, dict[int, dict]] = field(default_factory=dict)  # echoer -> seat -> msg
    echo_locks: dict[int, int] = field(default_factory=dict)   # echoer -> its latest lock sum
    echo_msgs: dict[int, dict] = field(default_factory=dict)   # echoer -> its latest echo
    opening: dict | None = None                # FieldOpened for this step's card
    takeovers: set[int] = field(default_factory=set)
    result: tuple[Any, list] | None = None     # apply() of `command`, done when checked


PLAN_KINDS = ("PlanCommitted", "PlanUnlocked", "CommitsEchoed", "BidOpened", "FieldOpened")
# what a relay may carry: every signed lockstep message a seat originates (a chain
# commitment is relayed by the session itself). Signed, each proves itself from any
# relayer; one kind left out here stalls a player that hears a seat only through relays.
RELAYABLE = frozenset({"LinkRevealed", "CommandSent", "TowerVoted", "HashStated",
                       "GameFinished", *PLAN_KINDS})


class Lockstep(PlanSteps):
    """One peer's view of the game: state, command log, inboxes, and its own outbox."""

    Offence = Offence

    def __init__(self, game: Any, config: Any, kinds: dict[int, str], my_seat: int | None,
                 chain: HashChain | None, chain_ends: dict[int, bytes], bot: str = "heuristic",
                 tokens: dict[int, bytes] | None = None) -> None:
        self.game = game
        self.config = config
        self.kinds = dict(kinds)                 # seat -> "human" | "bot"
        self.bots = {s for s, k in kinds.items() if k == "bot"}
        self._step_bots = tuple(sorted(self.bots))   # bots as the current step began
        self.my_seat = my_seat
        self.chain = chain
        self.bot = bot
        self.tokens = dict(tokens or {})
        self.verifiers = {s: ChainVerifier(e, chain.length if chain else CHAIN_LENGTH)
                          for s, e in chain_ends.items()}
        self.chain_ends = dict(chain_ends)
        self.state, events = game.new_game(config)
        self.step = 0
        self.round = 0                           # beacon rounds used so far
        self.log: list[dict] = []
        self.inbox: dict[int, StepInbox] = {}
        self.sent: dict[int, list[dict]] = {}    # my messages per step (for resends)
        self.my_plans: dict[int, tuple[bytes, dict]] = {}   # step -> (nonce, plan wire)
        self.field_commits: dict[int, dict] = {}   # seat -> its signed plan of this round
        self.heard: dict[int, dict[int, list[dict]]] = {}   # step -> seat -> accepted msgs
        self.ended = False
        self.following = False                   # spectators apply StepApplied only
        # callbacks, set by the owner
        self.broadcast: Callable[[dict], None] = lambda msg: None
        self.on_events: Callable[[list, Any], None] = lambda events, state: None
        self.on_decision: Callable[[Any, Any], None] = lambda d, state: None
        self.on_step: Callable[[dict], None] = lambda entry: None
        self.on_desync: Callable[[int, int, str, str], None] = lambda *a: None
        self.on_offence: Callable[[int, str], None] = lambda seat, reason: None
        self.on_ended: Callable[[Any], None] = lambda state: None
        self.on_saved: Callable[[], None] = lambda: None
        self.sign: Callable[[dict], dict] = lambda msg: msg
        self.verify: Callable[[int, dict], bool] = lambda seat, msg: True
        self.on_cheated: Callable[[int, dict | None, dict], Any] = lambda *a: None
        self._initial_events = events
        self._asked: int | None = None
        self._my_outcome: tuple[int, Any, dict] | None = None   # (step, TowerSettled, wire)
        self._hash_cache: tuple[Any, tuple, str] | None = None
        self._decision_cache: tuple[Any, Any] | None = None
        self._contributors: tuple[int, list[int]] | None = None
        self._pending_takeovers: list[int] = []   # seats taken over in the current step
        self.tower_disagreements: list[dict] = [] # steps where voters' drops differed
        self.on_tower_disagreement: Callable[[dict], None] = lambda record: None

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
        cached = self._hash_cache
        if cached is None or cached[0] is not self.state or cached[1] != bots:
            state_hash = self.game.state_hash(self.state)
            if bots:
                state_hash = hashlib.sha256(
                    f"{state_hash}/bots/{','.join(map(str, bots))}".encode()).hexdigest()
            cached = self._hash_cache = (self.state, bots, state_hash)
        return cached[2]

    def decision(self) -> Any:
        """The engine's pending decision, asked once per state (every message checks it)."""
        cached = self._decision_cache
        if cached is None or cached[0] is not self.state:
            cached = self._decision_cache = (self.state, self.game.pending(self.state))
        return cached[1]

    def contributors(self) -> list[int]:
        """Seats whose beacon links make the seeds: humans not taken over by a bot. (Asked
        for every message; kept until a seat is taken over: `bots` only ever grows.)"""
        cached = self._contributors
        if cached is None or cached[0] != len(self.bots):
            cached = self._contributors = (len(self.bots), sorted(
                s for s, k in self.kinds.items() if k == "human" and s not in self.bots))
        return list(cached[1])

    def waiting_for(self) -> list[int]:
        """The seats whose input the current step still lacks (empty when over)."""
        if self.ended:
            return []
        d = self.decision()
        box = self.inbox.get(self.step, StepInbox())
        if d.kind == "chance":
            return [s for s in self.contributors() if s not in box.links]
        if d.kind == "tower":
            return [s for s in self.contributors() if s not in box.votes]
        if d.kind == "plan":
            humans = [s for s in d.seats if s not in self.bots]
            missing = [s for s in humans if s not in box.commits]
            if missing:
                return missing
            silent = [s for s in self.contributors() if s not in box.echoes]
            if silent:
                return silent
            return [s for s in self.contributors() if s not in box.links
                    or (s in humans and s not in box.reveals)]
        seat = d.seats[0]
        if seat in self.bots or box.command is not None \
                or (d.kind == "open" and box.opening is not None):
            return []
        return [seat]

    def add_chain(self, seat: int, chain_end: bytes, token_hash: bytes) -> None:
        """A commitment that arrived after the game began here (its player dropped in the
        start handshake and came back); its links are checked from now on."""
        if seat in self.verifiers or self.kinds.get(seat) != "human":
            return
        self.verifiers[seat] = ChainVerifier(chain_end, self.chain.length if self.chain
                                             else CHAIN_LENGTH)
        self.chain_ends[seat] = chain_end
        self.tokens[seat] = token_hash

    # ------------------------------------------------------------------ inputs
    def start(self) -> None:
        """Announce the initial events and run to the first step that needs input."""
        self.on_events(self._initial_events, self.state)
        self.advance()

    def submit(self, command: Any) -> None:
        """My seat's command for the current step. IllegalCommand/ValueError if not now."""
        if self.my_seat is None or self.following:
            raise ValueError("a spectator cannot submit commands")
        d = self.decision()
        seat = getattr(command, "seat", None)
        if seat != self.my_seat or self.my_seat not in d.seats \
                or d.kind in ("chance", "over", "open", "tower"):
            raise ValueError(f"seat {seat} may not act now ({d.kind} for {list(d.seats)})")
        result = self.game.apply(self.state, command)   # raises IllegalCommand; pure
        wire = self.game.to_wire(command)
        box = self._box(self.step)
        if d.kind == "plan":
            self._lock_plan(command, wire)
        else:
            box.command = (self.my_seat, command, wire)
            box.result = result
            self._send({"type": "CommandSent", "step": self.step, "seat": self.my_seat,
                        "command": wire, "hash": self.hash})
        self.advance()

    def receive(self, seat: int, msg: dict, resent: bool = False) -> None:
        """A checked game message from the player owning `seat`. Raises Offence.

        `resent`: the connection is a rejoin, whose first messages may repeat steps we
        already applied; those are ignored. Otherwise an old step is a replay.
        """
        if self.following:
            raise Offence("a spectator takes no lockstep messages")
        kind = msg["type"]
        if kind == "ChainCommitted":
            raise Offence("chain commitment after the game started")
        if msg["seat"] != seat:
            raise Offence(f"forged seat: message for seat {msg['seat']} from seat {seat}")
        if self.kinds.get(seat) != "human" or seat in self.bots:
            raise Offence(f"seat {seat} is not a human seat in play")
        step = msg["step"]
        if kind == "HashStated" and step < self.step:
            self._compare_logged_hash(seat, step, msg["hash"])
            return
        if step < self.step:
            if resent and step >= self.step - STALE_GRACE:
                log.info("ignored stale %s for step %d from seat %d (now at %d)",
                         kind, step, seat, self.step)
                return
            raise Offence(f"replayed {kind} for step {step}, long applied (now {self.step})")
        if step > self.step + AHEAD_LIMIT:
            raise Offence(f"{kind} for step {step} is too far ahead of step {self.step}")
        if kind == "SeatTakenOver":
            raise Offence("SeatTakenOver goes through take_over()")
        box = self._box(step)
        known = box.hashes.get(seat)
        if known is not None and known != msg["hash"]:
            raise Offence(f"seat {seat} sent two different hashes for step {step}")
        if step == self.step:
            self._check_kind(kind, seat)
        if kind == "HashStated":
            box.hashes[seat] = msg["hash"]
            if step == self.step:
                self._compare_hash(seat, msg["hash"])
            return
        if kind == "GameFinished":
            if step == self.step and not self.ended:
                raise Offence(f"seat {seat} says the game ended at step {step}; it has not")
            box.hashes[seat] = msg["hash"]
            if step == self.step:
                self._compare_hash(seat, msg["hash"])
            return
        if kind in PLAN_KINDS:
            if not self._receive_plan(kind, seat, msg, box, step):
                log.info("ignored repeated %s for step %d from seat %d", kind, step, seat)
                return
        elif kind == "LinkRevealed":
            if seat in box.links:
                if box.links[seat] != msg["link"]:
                    raise Offence(f"seat {seat} revealed two links for step {step}")
                return
            self._take_link(box, seat, msg["link"], step)
        elif kind == "TowerVoted":
            if seat in box.votes:
                if box.votes[seat] != msg["outcome"]:
                    raise Offence(f"seat {seat} voted two different tower outcomes for step {step}")
                return
            mine = self._my_outcome
            if mine is None or mine[0] != step or msg["outcome"] != mine[2]:
                # (a vote equal to my own outcome is well formed: nothing to decode)
                try:
                    outcome = self.game.from_wire(msg["outcome"])
                except ValueError as exc:
                    raise Offence(f"malformed tower outcome: {exc}") from None
                if type(outcome).__name__ != "TowerSettled":
                    raise Offence(f"seat {seat}'s tower vote is not a tower outcome")
            box.votes[seat] = msg["outcome"]
        elif kind == "CommandSent":
            if box.command is not None:
                if box.command[2] != msg["command"] or box.command[0] != seat:
                    self.on_cheated(seat, self._earlier(step, seat, kind), msg)
                    raise Offence(f"second, different command for step {step}")
                return
            try:
                command = self.game.from_wire(msg["command"])
            except ValueError as exc:
                raise Offence(f"malformed command: {exc}") from None
            if self.game.seat_of(command) != seat:
                raise Offence(f"forged seat inside command from seat {seat}")
            result = None
            if step == self.step:
                try:
                    result = self.game.apply(self.state, command)
                except ValueError as exc:
                    raise Offence(f"illegal command from seat {seat}: {exc}") from None
            box.command = (seat, command, msg["command"])
            box.result = result
        self.heard.setdefault(step, {}).setdefault(seat, []).append(msg)
        box.hashes[seat] = msg["hash"]          # kept only once the message was accepted
        if step == self.step:
            self._compare_hash(seat, msg.get("hash"))
        self.advance()

    def heard_from(self, seat: int, since: int) -> list[dict]:
        """`seat`'s messages I accepted for steps >= since, to relay them: only those that
        carry its signature. Most were taken from the seat's own connection unchecked
        (`net.table.play.Play._check_now`); a relayed one must prove itself to the receiver,
        who would otherwise take my relay for a forgery."""
        held = [m for step in sorted(self.heard) if step >= since
                for m in self.heard[step].get(seat, [])]
        signed = [m for m in held if self.verify(seat, m)]
        if len(signed) < len(held):
            log.warning("seat %d sent me %d badly signed message(s); not passing them on",
                        seat, len(held) - len(signed))
        return signed

    def receive_relayed(self, seat: int, msg: dict) -> None:
        """A dropped seat's message, relayed by another player (its signature was checked
        by the session, so it proves itself whoever relays it).

        Why: a peer that dropped mid-broadcast may have reached some players and not
        others; without the relay the ones that got its input would be a step ahead of a
        take-over and the table would fork.
        """
        if msg["type"] not in RELAYABLE or msg["seat"] != seat:
            raise Offence(f"relayed {msg['type']} for seat {msg.get('seat')} is not relayable")
        if seat in self.bots or msg["step"] < self.step:
            return
        if msg["type"] == "BidOpened" and seat not in self._box(msg["step"]).commits:
            return                  # nothing to check it against (yet)
        try:
            self.receive(seat, msg, resent=True)
        except Offence as exc:      # an honest relay repeats what the seat really sent
            raise Offence(f"relayed input refused: {exc}") from None

    # ------------------------------------------------------------------ echo before reveal
    def _echo_content(self, msg: dict, step: int) -> dict[int, dict]:
        """An echo's commitments, each checked against its seat's signature. A commitment
        equal, signature and all, to the one I hold for the seat (checked when it came,
        or my own) needs no second check: the same bytes verify the same way."""
        held = self._box(step).commits

        def verify(seat: int, full: dict) -> bool:
            return held.get(seat) == full or self.verify(seat, full)
        try:
            return echo.content(msg, step, verify)
        except echo.EchoError as exc:
            raise Offence(str(exc)) from None

    def _compare_echoes(self, box: StepInbox, seat: int) -> None:
        """A commitment of `seat` that differs from one another player echoed is a proof
        that `seat` committed twice (each is signed)."""
        for mine, theirs in echo.differing(box.commits.get(seat), box.echoes, seat):
            self.on_cheated(seat, mine, theirs)

    def _drop_plan_inputs(self, box: StepInbox, seat: int, opening: bool = True) -> None:
        """Forget a seat's plan inputs for a step (a take-over; a desync, where an opened
        card stays like a command: see `_forget`)."""
        for held in (box.commits, box.echoes, box.echo_locks, box.echo_msgs, box.reveals):
            held.pop(seat, None)
        if opening and box.opening is not None and box.opening["seat"] == seat:
            box.opening = None

    def _echoes_agree(self, humans: list[int]) -> bool:
        box = self._box(self.step)
        return echo.agree(box.echoes, box.commits, self.contributors(), humans)

    def _earlier(self, step: int, seat: int, kind: str) -> dict | None:
        return next((m for m in self.heard.get(step, {}).get(seat, []) if m["type"] == kind),
                    None)

    def take_over(self, seat: int, step: int) -> bool:
        """A bot plays `seat` from `step` on (after the rejoin timeout). True if applied now."""
        if seat in self.bots or self.kinds.get(seat) != "human":
            return False
        if step < self.step:
            log.warning("take-over of seat %d at past step %d ignored (now %d)", seat, step, self.step)
            return False
        self._box(step).takeovers.add(seat)
        self.advance()
        return seat in self.bots

    # ------------------------------------------------------------------ helpers
    def _box(self, step: int) -> StepInbox:
        box = self.inbox.get(step)
        if box is None:
            box = self.inbox[step] = StepInbox()
        return box

    def _i_plan(self, step: int) -> bool:
        """Must my seat commit at `step`? (A reveal before my commitment is premature.)"""
        if self.my_seat is None or self.my_seat in self.bots or step < self.step:
            return False
        if step > self.step:
            return True        # nobody can hold my commitment for a step I have not reached
        d = self.decision()
        return d.kind == "plan" and self.my_seat in d.seats

    def _check_kind(self, kind: str, seat: int) -> None:
        d = self.decision()
        if kind in ("PlanCommitted", "PlanUnlocked", "BidOpened"):
            if d.kind != "plan" or seat not in d.seats:
                raise Offence(f"{kind} from seat {seat} but the step is {d.kind} for {list(d.seats)}")
        elif kind == "CommitsEchoed":
            if d.kind != "plan":
                raise Offence(f"commitment echo but the step is {d.kind}")
        elif kind == "LinkRevealed":
            if d.kind == "plan" and seat in d.seats:
                raise Offence(f"seat {seat} must reveal its link with its bid")
            if d.kind not in ("chance", "plan"):
                raise Offence(f"LinkRevealed but the step is {d.kind}")
        elif kind == "TowerVoted":
            if d.kind != "tower":
                raise Offence(f"tower vote but the step is {d.kind}")
        elif kind == "FieldOpened":
            if d.kind != "open" or seat not in d.seats:
                raise Offence(f"seat {seat} opened a card but the step is {d.kind} for "
                              f"{list(d.seats)}")
        elif kind == "CommandSent":
            if d.kind in ("chance", "plan", "over", "tower", "open") or seat not in d.seats:
                raise Offence(f"command from seat {seat} out of turn ({d.kind} for {list(d.seats)})")

    def _take_link(self, box: StepInbox, seat: int, link: bytes, step: int) -> None:
        if step != self.step:
            box.links[seat] = link          # verified when the step comes
            return
        try:
            self.verifiers[seat].check(self.round, link)
        except (BeaconError, KeyError) as exc:
            raise Offence(f"wrong beacon link from seat {seat}: {exc}") from None
        box.links[seat] = link

    def _compare_hash(self, seat: int, theirs: str | None) -> None:
        if theirs is not None and theirs != self.hash:
            self._forget(seat)
            self.on_desync(seat, self.step, self.hash, theirs)
            self._state_hash()

    def _state_hash(self) -> None:
        """A desync seen here: tell every player my hash at this step (`HashStated`), once.

        Why: a peer alone in its history drops the seat it differs from and may then wait
        silently on that seat's next card or command (single-seat steps follow each other:
        a card turned, then its move), so the others would never see its hash and never
        drop it; dropped by all, it rejoins and catches up from their history."""
        me = self.my_seat
        if me is None or self.following or me in self.bots or self.ended:
            return
        if any(m["type"] == "HashStated" for m in self.sent.get(self.step, [])):
            return
        self._send({"type": "HashStated", "step": self.step, "seat": me, "hash": self.hash})

    def _compare_logged_hash(self, seat: int, step: int, theirs: str) -> None:
        """A stated hash for a step I have applied: compare it with my log's."""
        entry = self.log[step] if 0 <= step < len(self.log) else None
        if entry is None or entry.get("step") != step or entry.get("hash") == theirs:
            return
        self._forget(seat)
        self.on_desync(seat, step, entry["hash"], theirs)

    def _forget(self, seat: int) -> None:
        """Drop what a seat whose history differs from mine said for this step and later.

        Its commitments belong to another game; counting them would let the others
        reveal their plans on a commitment that is void, before the seat (back with the
        table's history) commits for real. Its links go too, so that the side that is
        alone in its history cannot play on with the others' links: it stops, is
        dropped by them all, and catches up from their history (see the session). A
        command stays: applying it moves me to a step where my own messages show the
        others my hash (otherwise a peer alone in its history might wait silently); so
        does an opened card."""
        for step, box in self.inbox.items():
            if step < self.step:
                continue
            box.links.pop(seat, None)
            self._drop_plan_inputs(box, seat, opening=False)
            box.votes.pop(seat, None)
            box.hashes.pop(seat, None)
        for step, by_seat in self.heard.items():
            if step >= self.step:
                by_seat.pop(seat, None)

    def _send(self, msg: dict) -> dict:
        """Keep it, then send it. A choice (plan, command) is saved first, so a restarted
        peer repeats exactly what it said; links follow from the saved chain secret."""
        msg = self.sign(msg)
        self.sent.setdefault(msg["step"], []).append(msg)
        if msg["type"] in ("PlanCommitted", "PlanUnlocked", "CommandSent", "CommitsEchoed"):
            self.on_saved()
        self.broadcast(msg)
        return msg

    def restore_outbox(self, sent: dict[int, list[dict]]) -> None:
        """After a restart: my messages from before the crash count as sent again.

        Messages of steps I already applied (caught up from a player that got them before
        I died) are kept too: players still behind need them resent."""
        for step, msgs in sorted(sent.items()):
            if step < self.step - STALE_GRACE:
                continue
            self.sent[step] = list(msgs)
            if step < self.step:
                continue
            box = self._box(step)
            for m in msgs:
                kind, me = m["type"], self.my_seat
                if kind == "PlanCommitted":
                    box.commits[me] = m
                elif kind == "PlanUnlocked":
                    box.commits.pop(me, None)
                    box.unlocked[me] = m["lock"]
                elif kind == "CommitsEchoed":
                    box.echoes[me] = {c[0]: echo.rebuilt(m, *c) for c in m["commits"]}
                    box.echo_locks[me], box.echo_msgs[me] = m["lock"], m
                elif kind == "BidOpened":
                    box.reveals[me] = (m["salt"], m["card"])
                    box.links[me] = m["link"]
                elif kind == "FieldOpened":
                    box.opening = m
                elif kind == "LinkRevealed":
                    box.links[me] = m["link"]
                elif kind == "CommandSent":
                    box.command = (me, self.game.from_wire(m["command"]), m["command"])
                elif kind == "TowerVoted":
                    box.votes[me] = m["outcome"]

    def resend_from(self, step: int) -> list[dict]:
        """My messages for `step` and later (for a peer that reconnected)."""
        return [m for s in sorted(self.sent) if s >= step for m in self.sent[s]]

    def _entered_step(self) -> None:
        """Checks for messages that arrived early for the step just reached."""
        box = self.inbox.get(self.step)
        if box is None:
            return
        d = self.decision()
        for seat, theirs in list(box.hashes.items()):
            self._compare_hash(seat, theirs)
        bad: list[tuple[int, str]] = []
        for seat in list(box.links):
            if d.kind not in ("chance", "plan"):
                bad.append((seat, "beacon link for a step that needs none"))
                del box.links[seat]
                continue
            try:
                self.verifiers[seat].check(self.round, box.links[seat])
            except (BeaconError, KeyError) as exc:
                bad.append((seat, f"wrong beacon link: {exc}"))
                del box.links[seat]
                box.reveals.pop(seat, None)
        for seat in list(box.votes):
            if d.kind != "tower":
                bad.append((seat, "tower vote for a step that is not a drop"))
                del box.votes[seat]
        for seat in list(box.echoes):
            if d.kind != "plan":
                if seat != self.my_seat:
                    bad.append((seat, "commitment echo for a step that is not a plan"))
                del box.echoes[seat]
                box.echo_locks.pop(seat, None)
        for seat in list(box.commits):
            if d.kind != "plan" or seat not in d.seats:
                if seat != self.my_seat:
                    bad.append((seat, "plan commitment for a step that is not a plan"))
                del box.commits[seat]
                box.reveals.pop(seat, None)
        if box.opening is not None:
            seat = box.opening["seat"]
            try:
                self._check_opening(seat, box.opening)
            except Offence as exc:
                if seat != self.my_seat:
                    bad.append((seat, str(exc)))
                box.opening = None
        if box.command is not None:
            seat, command, wire = box.command
            try:
                if d.kind in ("chance", "plan", "over", "tower") or seat not in d.seats:
                    raise ValueError(f"out of turn ({d.kind})")
                box.result = self.game.apply(self.state, command)
            except ValueError as exc:
                bad.append((seat, f"illegal command: {exc}"))
                box.command = None
        for seat, reason in bad:
            log.warning("rejected early message from seat %d: %s", seat, reason)
            self.on_offence(seat, reason)

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """Apply every step whose inputs are complete; emit my own inputs when due."""
        while not self.ended:
            d = self.decision()
            if d.kind == "over":
                self.ended = True
                # the last step has no later message to carry its hash: say it
                if self.my_seat is not None and not self.following \
                        and self.my_seat not in self.bots:
                    self._send({"type": "GameFinished", "step": self.step,
                                "seat": self.my_seat, "hash": self.hash})
                self.on_saved()
                self.on_ended(self.state)
                return
            box = self._box(self.step)
            for seat in sorted(box.takeovers):
                if seat not in self.bots:
                    self._apply_takeover(seat, box)
            if self.following:
                return
            if d.kind == "chance":
                if not self._chance(box):
                    return
            elif d.kind == "plan":
                if not self._plan(d, box):
                    return
            elif d.kind == "tower":
                if not self._tower(d, box):
                    return
            elif d.kind == "open":
                if not self._open(d, box):
                    return
            else:
                if not self._single(d, box):
                    return

    def _apply_takeover(self, seat: int, box: StepInbox) -> None:
        log.warning("seat %d is played by a bot from step %d on", seat, self.step)
        self.bots.add(seat)
        self._drop_plan_inputs(box, seat)
        box.links.pop(seat, None)
        box.votes.pop(seat, None)
        if box.command is not None and box.command[0] == seat:
            box.command = None
        self._pending_takeovers.append(seat)

    def _my_link(self, box: StepInbox) -> bytes | None:
        if self.chain is None or self.my_seat not in self.contributors():
            return None
        return self.chain.link(self.round)

    def _chance(self, box: StepInbox) -> bool:
        link = self._my_link(box)
        if link is not None and self.my_seat not in box.links:
            box.links[self.my_seat] = link
            self._send({"type": "LinkRevealed", "step": self.step, "seat": self.my_seat,
                        "link": link, "hash": self.hash})
        seats = self.contributors()
        if any(s not in box.links for s in seats):
            return False
        seed = combine([box.links[s] for s in seats], b"chance")
        command = self.game.chance(seed)
        state, events = self.game.apply(self.state, command)
        commands = [command]
        state = self._chance_run(seed, commands, state, events)
        self._commit_step(commands, beacon=True, result=(state, events))
        return True

    def _chance_run(self, seed: bytes, commands: list, state: Any, events: list) -> Any:
        """Draws that follow at once, with no player input between, share this round's
        links: the n-th takes `combine([seed], b"chance/n")`. Fair, because nobody decides
        anything between the draws, so knowing the later seeds early helps no one; and it
        halves the beacon rounds a game needs (a battle's drop after the event card, each
        tower drop of a province's several battles, ...). A drop's outcome is a step of
        its own (`_tower`). Appends to `commands`/`events`."""
        n = 0
        while self.game.pending(state).kind == "chance":
            n += 1
            command = self.game.chance(combine([seed], b"chance/%d" % n))
            state, more = self.game.apply(state, command)
            commands.append(command)
            events.extend(more)
        return state

    def _tower(self, d: Any, box: StepInbox) -> bool:
        """Every voter's outcome of this drop is in: apply the majority's (module doc)."""
        mine = self._my_outcome
        if mine is None or mine[0] != self.step:
            command = self.game.settle(d)
            mine = self._my_outcome = (self.step, command, self.game.to_wire(command))
        me = self.my_seat
        if me in self.contributors() and me not in box.votes:
            box.votes[me] = mine[2]
            self._send({"type": "TowerVoted", "step": self.step, "seat": me,
                        "outcome": mine[2], "hash": self.hash})
        voters = self.contributors()
        if any(s not in box.votes for s in voters):
            return False
        groups: dict[Any, list[int]] = {}
        decoded: list[tuple[dict, Any]] = []      # each distinct vote, decoded once
        for seat in voters:
            wire = box.votes[seat]
            outcome = next((o for w, o in decoded if w == wire), None)
            if outcome is None:
                outcome = mine[1] if wire == mine[2] else self.game.from_wire(wire)
                decoded.append((wire, outcome))
            groups.setdefault(outcome, []).append(seat)
        if not groups:                     # nobody votes (bots only): my own drop
            command = mine[1]
        else:
            ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), min(kv[1])))
            command, seats = ranked[0]
            if len(groups) > 1:
                record = {"step": self.step, "groups": [sorted(s) for _, s in ranked],
                          "strict_majority": 2 * len(seats) > len(voters),
                          "mine_agreed": command == mine[1]}
                self.tower_disagreements.append(record)
                log.warning("tower outcomes differ at step %d: seats %s; applying the one "
                            "held by seats %s%s", self.step, record["groups"], sorted(seats),
                            "" if record["strict_majority"] else " (no strict majority)")
                self.on_tower_disagreement(record)
        self._commit_step([command], beacon=False)
        return True

    def _single(self, d: Any, box: StepInbox) -> bool:
        seat = d.seats[0]
        if seat in self.bots:
            seed = hashlib.sha256(f"bot/{self.hash}/{self.step}".encode()).digest()
            command = self.game.choose(self.state, seat, self.bot, seed)
            self._commit_step([command], beacon=False)
            return True
        if box.command is None:
            if seat == self.my_seat and self._asked != self.step:
                self._asked = self.step
                self.on_decision(d, self.state)   # may submit at once (nested advance)
            return False
        self._commit_step([box.command[1]], beacon=False, result=box.result)
        return True

    def _commit_step(self, commands: list, beacon: bool, result: tuple | None = None,
                     commits: list[dict] | None = None) -> None:
        entry = {"step": self.step, "hash": self.hash,
                 "commands": [self.game.to_wire(c) for c in commands],
                 "takeovers": sorted(self._pending_takeovers)}
        if commits:                  # the signed plan commitments, for a rejoining peer
            entry["commits"] = commits
        self._pending_takeovers = []
        if beacon:
            box = self.inbox[self.step]
            for seat in self.contributors():
                if seat in self.verifiers:
                    self.verifiers[seat].accept(self.round, box.links[seat])
        self._apply_entry(entry, commands, beacon, result)

    def _apply_entry(self, entry: dict, commands: list, beacon: bool,
                     result: tuple | None = None) -> None:
        if result is not None:          # already applied once when it was checked
            self.state, events = result
        else:
            events = []
            for command in commands:
                self.state, more = self.game.apply(self.state, command)
                events.extend(more)
        self.log.append(entry)
        self.inbox.pop(self.step, None)
        self.sent.pop(self.step - STALE_GRACE, None)
        self.heard.pop(self.step - STALE_GRACE, None)
        self.step += 1
        self._step_bots = tuple(sorted(self.bots))
        if beacon:
            self.round += 1
        self.on_step(entry)
        self.on_events(events, self.state)
        if self.step % SAVE_EVERY == 0:
            self.on_saved()
        if not self.following:
            self._entered_step()

    # ------------------------------------------------------------------ replay
    def replay(self, entry: dict) -> None:
        """Apply a logged step (catch-up or spectating). ValueError if it does not fit."""
        if entry.get("step") != self.step:
            raise ValueError(f"log entry for step {entry.get('step')} but I am at {self.step}")
        if entry.get("hash") != self.hash:
            raise ValueError(f"log entry hash differs at step {self.step}")
        d = self.decision()
        if d.kind == "over":
            raise ValueError("the game is over")
        for seat in entry.get("takeovers", []):
            if isinstance(seat, int) and self.kinds.get(seat) == "human":
                self.bots.add(seat)
        wires = entry.get("commands")
        if not isinstance(wires, list) or not wires:
            raise ValueError("log entry has no commands")
        commands = [self.game.from_wire(w) for w in wires]
        if d.kind == "plan":
            self._restore_field_commits(entry)
        self._apply_entry(dict(entry), commands, d.kind in ("chance", "plan"))
        if self.decision().kind == "over" and not self.ended:
            self.ended = True
            self.on_ended(self.state)
