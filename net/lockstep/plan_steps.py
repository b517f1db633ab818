"""Secret plans on the network: one commitment per plan field, opened card by card.

Why field by field: the rules turn the bids together (R-BID-1) and each action card at
its owner's turn (R-EXEC-2); a plan opened whole after the lock would show every peer a
player's later cards long before the table turns them (a program reads its memory). So:

- `plan` step: each human seat locks with `PlanCommitted`, one salted digest per field
  (`net.lockstep.commitment.field_digests`). Once a peer holds every human seat's commitment it
  echoes them (`CommitsEchoed`, `net.lockstep.echo`); when every player echoed the very same
  commitments, each planning seat opens only its bid, with its beacon link
  (`BidOpened`). The engine gets `CommitPlan` for every seat, the draws that follow, then
  the bids (`OpenField`).
- Bot seats (issue 26 item 5): every peer computes a bot's whole plan from the links
  (`bot_plans`), but the step applies only its `CommitPlan`, and each card is opened
  (`OpenField`) when the rules turn it, like a human's. So the log, the saves, a
  spectator's `StepApplied` and the state every window reads hold no bot card before it
  turns. The step's log entry keeps the seed (`bot_seed`, not sent to spectators) so a
  peer catching up from the log can compute the same plans; a modified client of a
  player can compute them too (docs/net.md).
- `open` step (the engine's `open` decision, an action card to turn): the owner sends
  `FieldOpened` (salt and card); every peer checks it against the signed commitment and
  applies `OpenField`. A seat a bot took over cannot open the human's cards: every peer
  applies `ForfeitField` (the field counts as a money card, docs/net.md).
- Undo: before every plan is locked a seat may take its plan back (`PlanUnlocked`,
  signed) and lock a new one with fresh salts (`lock` + 1). A seat that already echoed
  (it held every commitment) may not; a peer refuses such an unlock as an offence.

An opening that does not match its signed commitment is a proof of cheating (the pair
of signed messages, `net.lockstep.signatures.conflict`); the messages are received by
`net.lockstep.plan_messages`.

Tests: tests/net/lockstep/test_field_reveal.py, tests/net/lockstep/test_echo.py,
tests/net/lockstep/test_real_engine.py.
"""

from __future__ import annotations

import logging
from net.lockstep import commitment, echo
from net.lockstep.beacon import combine
from net.lockstep.core_view import PlanCore
from net.lockstep.engine import EngineCommand, EngineEvent, EngineState, PendingDecision
from net.lockstep.links import BeaconLinks
from net.lockstep.step_inbox import StepInbox, Wire
from net.transport.messages import PLAN_FIELD_NAMES as FIELDS
from net.transport.messages import PlanCard
from sim.state import DecisionKind

log = logging.getLogger("net.lockstep.core")

BID = FIELDS.index("bid")
ALL_LOCKED = "Every player has locked their plan, so yours can no longer be changed."


def for_spectators(entry: Wire) -> Wire:
    """A log entry as a spectator is sent it: without the seed of the bots' plans, which
    only the players (who hold every link anyway) need to catch up."""
    return {k: v for k, v in entry.items() if k != "bot_seed"} if "bot_seed" in entry \
        else entry



class PlanSteps:
    """My plans and the plan and card-opening steps; what the table committed to."""

    def __init__(self, core: PlanCore, links: BeaconLinks) -> None:
        self.core = core
        self.links = links
        self.my_plans: dict[int, tuple[bytes, Wire]] = {}   # step -> (nonce, plan wire)
        self.field_commits: dict[int, Wire] = {}   # seat -> its signed plan of this round
        self.bot_plans: dict[int, EngineCommand] = {}   # bot seat -> its plan, face down
        # after a replayed plan step: (state, seats, humans, seed) to compute `bot_plans`
        # from when a card is first needed (catching up replays many rounds; only the
        # last one's plans can still be needed)
        self._bot_source: tuple[EngineState, tuple[int, ...], frozenset[int], bytes] | None \
            = None

    # ------------------------------------------------------------------ my side
    def lock_plan(self, command: EngineCommand, wire: Wire) -> None:
        """Lock my plan: fresh secret nonce (so fresh salts), one digest per field."""
        core = self.core
        me, box = core.my_seat, core.box(core.step)
        assert me is not None                   # `Lockstep.submit` checked it
        if me in box.commits:
            raise ValueError("your plan is already locked; unlock it first to change it")
        nonce = commitment.new_nonce()
        lock = box.unlocked.get(me, -1) + 1
        self.my_plans[core.step] = (nonce, wire)
        fields = commitment.field_digests(nonce, me, core.step, FIELDS,
                                          core.game.plan_cards(command))
        box.commits[me] = core.send({"type": "PlanCommitted", "step": core.step, "seat": me,
                                     "lock": lock, "fields": fields, "hash": core.hash})

    def unlock(self) -> None:
        """Take my locked plan back to change it (issue 14 item 4). ValueError with a
        sentence for the player when it is too late or there is nothing to unlock."""
        core = self.core
        d, me = core.decision(), core.my_seat
        if me is None or core.following or me in core.bots or d.kind != DecisionKind.PLAN \
                or me not in d.seats:
            raise ValueError("There is no plan of yours to unlock now.")
        box = core.box(core.step)
        held = box.commits.get(me)
        if held is None:
            raise ValueError("Your plan is not locked.")
        humans = [s for s in d.seats if s not in core.bots]
        if me in box.echo_locks or all(s in box.commits for s in humans):
            raise ValueError(ALL_LOCKED)
        core.send({"type": "PlanUnlocked", "step": core.step, "seat": me,
                   "lock": held["lock"], "hash": core.hash})
        del box.commits[me]
        box.unlocked[me] = held["lock"]
        self.my_plans.pop(core.step, None)
        core.ask_again()
        core.advance()

    def plans_the_table_holds(self, plans: dict[int, tuple[bytes, Wire]]
                              ) -> dict[int, tuple[bytes, Wire]]:
        """Of my plans (step -> (nonce, plan wire)), the one whose commitment the table
        holds for this round (`field_commits`, from the log I caught up from).

        Why: a peer that recovers from a desync voids what it said in its own diverged
        history, but a plan it committed before the histories parted is the table's plan
        too, and only this peer can open its cards; without it a bot would take the seat
        and the cards would count as money (R-FORFEIT-1)."""
        me = self.core.my_seat
        held = self.field_commits.get(me) if me is not None else None
        if me is None or held is None or held["step"] not in plans:
            return {}
        nonce, wire = plans[held["step"]]
        cards = self.core.game.plan_cards(self.core.game.from_wire(wire))
        digests = commitment.field_digests(nonce, me, held["step"], FIELDS, cards)
        return {held["step"]: (nonce, wire)} if digests == held["fields"] else {}

    def my_plan(self) -> EngineCommand | None:
        """My locked plan of this round (a `SubmitPlan`), or None: the engine's state holds
        only the cards turned so far, so a window shows my own plan from here. While I
        plan, only a plan locked at this step counts (not yet locked, or unlocked: None;
        the last round's plan is over)."""
        core = self.core
        d = core.decision()
        if not core.ended and d.kind == DecisionKind.PLAN and core.my_seat in d.seats:
            held = self.my_plans.get(core.step)
        else:
            held = self._my_held_plan()
        return core.game.from_wire(held[1]) if held else None

    def _my_held_plan(self) -> tuple[bytes, Wire] | None:
        """(nonce, plan wire) of my plan whose commitment the table holds this round."""
        me = self.core.my_seat
        mine = self.field_commits.get(me) if me is not None else None
        return self.my_plans.get(mine["step"]) if mine is not None else None

    def _my_card(self, field: str) -> tuple[bytes, PlanCard, Wire] | None:
        """(salt, card, my commitment) of one field of my plan of this round."""
        me = self.core.my_seat
        mine = self.field_commits.get(me) if me is not None else None
        held = self.my_plans.get(mine["step"]) if mine is not None else None
        if mine is None or held is None:
            return None
        nonce, wire = held
        cards = self.core.game.plan_cards(self.core.game.from_wire(wire))
        return commitment.field_salt(nonce, field), cards[field], mine

    # ------------------------------------------------------------------ the plan step
    def _echo_mine(self, box: StepInbox, humans: list[int]) -> None:
        """Echo what I hold, again whenever it changed (a seat relocked)."""
        core = self.core
        me = core.my_seat
        if me is None or me not in core.contributors():
            return
        mine = box.echoes.get(me)
        if mine is not None and all(s in mine and mine[s]["lock"] == box.commits[s]["lock"]
                                    and mine[s]["fields"] == box.commits[s]["fields"]
                                    for s in humans):
            return
        items = echo.compact([box.commits[s] for s in humans], core.hash)
        msg = core.send({"type": "CommitsEchoed", "step": core.step, "seat": me,
                         "lock": echo.lock_sum(items), "commits": items, "hash": core.hash})
        box.echoes[me] = {c[0]: echo.rebuilt(msg, *c) for c in items}
        box.echo_locks[me], box.echo_msgs[me] = msg["lock"], msg

    def _echoes_agree(self, box: StepInbox, humans: list[int]) -> bool:
        return echo.agree(box.echoes, box.commits, self.core.contributors(), humans)

    def run_plan(self, d: PendingDecision, box: StepInbox) -> bool:
        core = self.core
        humans = [s for s in d.seats if s not in core.bots]
        me = core.my_seat
        if me in humans and me not in box.commits:
            core.ask(d)                       # may submit at once (nested advance)
            return False
        if any(s not in box.commits for s in humans):
            return False
        # every human committed: echo what I hold, and open nothing until every player
        # echoed the very same (a decoy commitment sent to one peer only shows here)
        self._echo_mine(box, humans)
        if not self._echoes_agree(box, humans):
            return False
        link = self.links.mine()
        if link is not None and me is not None and me not in box.links:
            box.links[me] = link
            if me in humans:
                nonce, wire = self.my_plans[core.step]
                card = core.game.plan_cards(core.game.from_wire(wire))["bid"]
                salt = commitment.field_salt(nonce, "bid")
                box.reveals[me] = (salt, card)
                core.send({"type": "BidOpened", "step": core.step, "seat": me,
                           "lock": box.commits[me]["lock"], "salt": salt, "card": card,
                           "link": link, "hash": core.hash})
            else:
                core.send({"type": "LinkRevealed", "step": core.step, "seat": me,
                           "link": link, "hash": core.hash})
        if any(s not in box.reveals for s in humans):
            return False
        seats = core.contributors()
        if any(s not in box.links for s in seats):
            return False
        seed = combine([box.links[s] for s in seats], b"plan")
        self.bot_plans = self._choose_bot_plans(core.state, d.seats, frozenset(humans), seed)
        self._bot_source = None
        commands: list[EngineCommand] = []
        state, events = core.state, []
        for seat in sorted(d.seats):            # bots too: only a commitment, face down
            command = core.game.commit_plan(seat)
            state, more = core.game.apply(state, command)
            events.extend(more)
            commands.append(command)
        state = self._after_plans(seed, box, commands, state, events)
        for seat in humans:
            self.field_commits[seat] = box.commits[seat]
        for old in [s for s in self.my_plans if s < core.step]:
            del self.my_plans[old]               # a new round: the old plan is all turned
        core.commit_step(commands, beacon=True, result=(state, events),
                         commits=[box.commits[s] for s in humans],
                         bot_seed=seed if self.bot_plans else None)
        return True

    # ------------------------------------------------------------------ bots' plans
    def _choose_bot_plans(self, state: EngineState, seats: tuple[int, ...],
                          humans: frozenset[int], seed: bytes) -> dict[int, EngineCommand]:
        """Each bot seat's whole plan, in seat order, each bot seeing the commitments of
        the seats before it (the same state on every peer and in a catch-up). The rules
        check each whole plan here (`IllegalCommand`), on a state that is then dropped."""
        game, plans = self.core.game, {}
        for seat in sorted(seats):
            if seat not in humans:
                plan = game.choose(state, seat, self.core.bot, combine([seed], b"bot/%d" % seat))
                game.apply(state, plan)
                plans[seat] = plan
            state, _ = game.apply(state, game.commit_plan(seat))
        return plans

    def bot_plan(self, seat: int) -> EngineCommand | None:
        """The face-down plan of a seat a bot planned this round, or None (a human's, or a
        seat a bot took over after its player had locked: that plan is lost)."""
        if self._bot_source is not None:
            state, seats, humans, seed = self._bot_source
            self._bot_source = None
            self.bot_plans = self._choose_bot_plans(state, seats, humans, seed)
        return self.bot_plans.get(seat)

    def restore_bot_plans(self, entry: Wire, state: EngineState, d: PendingDecision) -> None:
        """A replayed plan step: where to compute its bots' plans from, if a card of
        theirs is ever needed (`bot_plan`)."""
        self.bot_plans = {}
        seed = entry.get("bot_seed")
        self._bot_source = None
        if isinstance(seed, (bytes, str)):
            raw = bytes.fromhex(seed) if isinstance(seed, str) else seed
            humans = frozenset(s for s in d.seats if s not in self.core.bots)
            self._bot_source = (state, tuple(d.seats), humans, raw)

    def _after_plans(self, seed: bytes, box: StepInbox, commands: list[EngineCommand],
                     state: EngineState, events: list[EngineEvent]) -> EngineState:
        """What follows the plans at once: draws (the n-th from `combine([seed],
        "chance/n")`, as `net.lockstep.chance_step`) and the bids, opened together
        (R-BID-1)."""
        game = self.core.game
        n = 0
        while True:
            pending = game.pending(state)
            if pending.kind == DecisionKind.CHANCE:
                n += 1
                command = game.chance(combine([seed], b"chance/%d" % n))
                state, more = game.apply(state, command)
                commands.append(command)
                events.extend(more)
            elif pending.kind == DecisionKind.OPEN and pending.purpose == "bid":
                for seat in sorted(pending.seats):
                    opened = box.reveals.get(seat)
                    bot = self.bot_plans.get(seat)
                    if bot is not None:
                        opened = (b"", game.plan_cards(bot)["bid"])
                    state = self._apply_opening(state, seat, "bid", opened, commands, events)
            else:
                return state

    def _apply_opening(self, state: EngineState, seat: int, field: str,
                       opened: tuple[bytes, PlanCard] | None, commands: list[EngineCommand],
                       events: list[EngineEvent]) -> EngineState:
        """Turn one card: its opening, or a money card where there is none (a seat a bot
        took over) or the rules refuse the opened card (an offence; every peer saw the
        same signed opening, so every peer forfeits it alike)."""
        game = self.core.game
        command = None
        if opened is not None:
            command = game.open_field(seat, field, opened[1])
            try:
                state, more = game.apply(state, command)
            except ValueError as exc:
                log.warning("seat %d opened a card the rules refuse (%s); it counts as a "
                            "money card", seat, exc)
                self.core.host.offended(seat, f"opened card refused: {exc}")
                command = None
        if command is None:
            command = game.forfeit_field(seat, field)
            state, more = game.apply(state, command)
        commands.append(command)
        events.extend(more)
        return state

    # ------------------------------------------------------------------ the open step
    def run_open(self, d: PendingDecision, box: StepInbox) -> bool:
        """An action card to turn (the engine's `open` decision for one seat)."""
        core = self.core
        seat, field = d.seats[0], d.purpose
        if seat not in core.bots and box.opening is None and seat == core.my_seat:
            mine = self._my_card(field)
            if mine is None:
                log.error("my plan of this round is lost: I cannot open my %s field", field)
                return False
            salt, card, held = mine
            box.opening = core.send({"type": "FieldOpened", "step": core.step, "seat": seat,
                                     "plan": held["step"], "lock": held["lock"],
                                     "field": field, "salt": salt, "card": card,
                                     "hash": core.hash})
        if seat not in core.bots and box.opening is None:
            return False
        opened = None if seat in core.bots or box.opening is None \
            else (box.opening["salt"], box.opening["card"])
        bot = self.bot_plan(seat) if seat in core.bots else None
        if bot is not None:                      # a bot's card, turned now like a human's
            opened = (b"", core.game.plan_cards(bot)[field])
        commands: list[EngineCommand] = []
        events: list[EngineEvent] = []
        state = self._apply_opening(core.state, seat, field, opened, commands, events)
        core.commit_step(commands, beacon=False, result=(state, events))
        return True

    def restore_field_commits(self, entry: Wire) -> None:
        """A replayed plan step: the signed commitments it logged, to check the openings
        still to come (a rejoining peer catching up)."""
        for msg in entry.get("commits") or []:
            if isinstance(msg, dict) and msg.get("type") == "PlanCommitted" \
                    and isinstance(msg.get("seat"), int) and self.core.host.verify(msg["seat"], msg):
                self.field_commits[msg["seat"]] = msg
