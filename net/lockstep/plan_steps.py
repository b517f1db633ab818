"""Secret plans on the network: one commitment per plan field, opened card by card.

Why field by field: the rules turn the bids together (R-BID-1) and each action card at
its owner's turn (R-EXEC-2); a plan opened whole after the lock would show every peer a
player's later cards long before the table turns them (a program reads its memory). So:

- `plan` step: each human seat locks with `PlanCommitted`, one salted digest per field
  (`net.lockstep.commitment.field_digests`). Once a peer holds every human seat's commitment it
  echoes them (`CommitsEchoed`, `net.lockstep.echo`); when every player echoed the very same
  commitments, each planning seat opens only its bid, with its beacon link
  (`BidOpened`). The engine gets `CommitPlan` for every human seat (bots: whole plans,
  seeded by the links), the draws that follow, then the bids (`OpenField`).
- `open` step (the engine's `open` decision, an action card to turn): the owner sends
  `FieldOpened` (salt and card); every peer checks it against the signed commitment and
  applies `OpenField`. A seat a bot took over cannot open the human's cards: every peer
  applies `ForfeitField` (the field counts as a money card, docs/net.md).
- Undo: before every plan is locked a seat may take its plan back (`PlanUnlocked`,
  signed) and lock a new one with fresh salts (`lock` + 1). A seat that already echoed
  (it held every commitment) may not; a peer refuses such an unlock as an offence.

An opening that does not match its signed commitment is a proof of cheating (the pair
of signed messages, `net.lockstep.signatures.conflict`).
"""

from __future__ import annotations

import logging
from typing import Any

from net.lockstep import commitment, echo
from net.lockstep.beacon import combine
from net.transport.messages import PLAN_FIELD_NAMES as FIELDS

log = logging.getLogger("net.lockstep.core")

BID = FIELDS.index("bid")
ALL_LOCKED = "Every player has locked their plan, so yours can no longer be changed."


class PlanSteps:
    """The plan and card-opening parts of `net.lockstep.core.Lockstep` (a mixin: it uses the
    lockstep's state, inboxes, `_send`, `advance` and callbacks)."""

    # ------------------------------------------------------------------ my side
    def _lock_plan(self, command: Any, wire: dict) -> None:
        """Lock my plan: fresh secret nonce (so fresh salts), one digest per field."""
        me, box = self.my_seat, self._box(self.step)
        if me in box.commits:
            raise ValueError("your plan is already locked; unlock it first to change it")
        nonce = commitment.new_nonce()
        lock = box.unlocked.get(me, -1) + 1
        self.my_plans[self.step] = (nonce, wire)
        fields = commitment.field_digests(nonce, me, self.step, FIELDS,
                                          self.game.plan_cards(command))
        box.commits[me] = self._send({"type": "PlanCommitted", "step": self.step, "seat": me,
                                      "lock": lock, "fields": fields, "hash": self.hash})

    def unlock(self) -> None:
        """Take my locked plan back to change it (issue 14 item 4). ValueError with a
        sentence for the player when it is too late or there is nothing to unlock."""
        d, me = self.decision(), self.my_seat
        if me is None or self.following or me in self.bots or d.kind != "plan" \
                or me not in d.seats:
            raise ValueError("There is no plan of yours to unlock now.")
        box = self._box(self.step)
        held = box.commits.get(me)
        if held is None:
            raise ValueError("Your plan is not locked.")
        humans = [s for s in d.seats if s not in self.bots]
        if me in box.echo_locks or all(s in box.commits for s in humans):
            raise ValueError(ALL_LOCKED)
        self._send({"type": "PlanUnlocked", "step": self.step, "seat": me,
                    "lock": held["lock"], "hash": self.hash})
        del box.commits[me]
        box.unlocked[me] = held["lock"]
        self.my_plans.pop(self.step, None)
        self._asked = None                      # ask for a plan again
        self.advance()

    def plans_the_table_holds(self, plans: dict[int, tuple[bytes, dict]]
                              ) -> dict[int, tuple[bytes, dict]]:
        """Of my plans (step -> (nonce, plan wire)), the one whose commitment the table
        holds for this round (`field_commits`, from the log I caught up from).

        Why: a peer that recovers from a desync voids what it said in its own diverged
        history, but a plan it committed before the histories parted is the table's plan
        too, and only this peer can open its cards; without it a bot would take the seat
        and the cards would count as money (R-FORFEIT-1)."""
        held = self.field_commits.get(self.my_seat)
        if held is None or held["step"] not in plans:
            return {}
        nonce, wire = plans[held["step"]]
        cards = self.game.plan_cards(self.game.from_wire(wire))
        digests = commitment.field_digests(nonce, self.my_seat, held["step"], FIELDS, cards)
        return {held["step"]: (nonce, wire)} if digests == held["fields"] else {}

    def my_plan(self) -> Any:
        """My locked plan of this round (a `SubmitPlan`), or None: the engine's state holds
        only the cards turned so far, so a window shows my own plan from here. While I
        plan, only a plan locked at this step counts (not yet locked, or unlocked: None;
        the last round's plan is over)."""
        d = self.decision()
        if not self.ended and d.kind == "plan" and self.my_seat in d.seats:
            held = self.my_plans.get(self.step)
        else:
            mine = self.field_commits.get(self.my_seat)
            held = self.my_plans.get(mine["step"]) if mine is not None else None
        return self.game.from_wire(held[1]) if held else None

    def _my_card(self, field: str) -> tuple[bytes, Any, dict] | None:
        """(salt, card, my commitment) of one field of my plan of this round."""
        mine = self.field_commits.get(self.my_seat)
        held = self.my_plans.get(mine["step"]) if mine is not None else None
        if held is None:
            return None
        nonce, wire = held
        cards = self.game.plan_cards(self.game.from_wire(wire))
        return commitment.field_salt(nonce, field), cards[field], mine

    # ------------------------------------------------------------------ receiving
    def _take_commit(self, box: Any, seat: int, msg: dict, step: int) -> bool:
        """A signed commitment of `seat` (sent by it, or carried by an echo)."""
        if msg["lock"] <= box.unlocked.get(seat, -1):
            return False                        # withdrawn already
        old = box.commits.get(seat)
        if old is not None:
            if old["lock"] == msg["lock"]:
                if old["fields"] != msg["fields"]:
                    self.on_cheated(seat, old, msg)
                    raise self.Offence(f"seat {seat} committed twice with different digests")
                return False
            if old["lock"] > msg["lock"]:
                return False
        own = box.echoes.get(seat, {}).get(seat)      # the seat's own lock in its echo
        if own is not None and msg["lock"] > own["lock"]:
            raise self.Offence(f"seat {seat} locked a new plan after every plan was locked")
        box.commits[seat] = msg
        self._compare_echoes(box, seat)
        return True

    def _receive_plan(self, kind: str, seat: int, msg: dict, box: Any, step: int) -> bool:
        """Plan messages; False when the message was a harmless repeat."""
        if kind == "PlanCommitted":
            return self._take_commit(box, seat, msg, step)
        if kind == "PlanUnlocked":
            own = box.echoes.get(seat, {}).get(seat)  # it echoed this lock: it held them all
            if own is not None and own["lock"] >= msg["lock"]:
                self.on_cheated(seat, box.echo_msgs.get(seat), msg)
                raise self.Offence(f"seat {seat} unlocked its plan after every plan was locked")
            held = box.commits.get(seat)
            if held is not None and held["lock"] > msg["lock"]:
                return False
            if held is not None and held["lock"] == msg["lock"]:
                del box.commits[seat]
            box.unlocked[seat] = max(box.unlocked.get(seat, -1), msg["lock"])
            return True
        if kind == "CommitsEchoed":
            content = self._echo_content(msg, step)
            before = box.echo_locks.get(seat)
            if before is not None and msg["lock"] <= before:
                if msg["lock"] == before and box.echoes.get(seat) != content:
                    self.on_cheated(seat, box.echo_msgs.get(seat), msg)
                    raise self.Offence(f"seat {seat} echoed two different sets of commitments")
                return False
            box.echoes[seat], box.echo_locks[seat], box.echo_msgs[seat] = content, msg["lock"], msg
            d = self.decision() if step == self.step else None
            for other, held in content.items():
                if other != self.my_seat and d is not None and d.kind == "plan" \
                        and other in d.seats and other not in self.bots:
                    mine = box.commits.get(other)
                    if mine is None or mine["lock"] < held["lock"]:
                        try:        # a newer lock the echo carries, signed by its seat
                            self._take_commit(box, other, held, step)
                        except self.Offence as exc:
                            log.warning("echoed commitment of seat %d refused: %s", other, exc)
                self._compare_echoes(box, other)
            return True
        if kind == "BidOpened":
            if seat in box.reveals:
                if box.reveals[seat] != (msg["salt"], msg["card"]):
                    self.on_cheated(seat, self._earlier(step, seat, kind), msg)
                    raise self.Offence(f"seat {seat} opened its bid twice differently")
                return False
            held = box.commits.get(seat)
            if held is None or held["lock"] != msg["lock"]:
                raise self.Offence(f"seat {seat} opened a bid it has not committed (step {step})")
            if self._i_plan(step) and self.my_seat not in box.commits:
                raise self.Offence(f"seat {seat} opened its bid before every seat committed")
            if not commitment.field_matches(held["fields"][BID], msg["salt"], seat, step,
                                            "bid", msg["card"]):
                self.on_cheated(seat, held, msg)
                raise self.Offence(f"seat {seat}'s opened bid does not match its commitment")
            self._take_link(box, seat, msg["link"], step)
            box.reveals[seat] = (msg["salt"], msg["card"])
            return True
        if kind == "FieldOpened":
            if box.opening is not None:
                if box.opening != msg:
                    self.on_cheated(seat, box.opening, msg)
                    raise self.Offence(f"seat {seat} opened two different cards for step {step}")
                return False
            if step == self.step:
                self._check_opening(seat, msg)
            box.opening = msg
            return True
        raise self.Offence(f"unexpected {kind}")

    def _check_opening(self, seat: int, msg: dict) -> None:
        """A `FieldOpened` for the current step: the card the engine asks for, matching
        the seat's signed commitment of this round. Raises Offence."""
        d = self.decision()
        field = msg["field"]
        if d.kind != "open" or seat not in d.seats or d.purpose != field:
            raise self.Offence(f"seat {seat} opened its {field} field, but the card to turn "
                               f"now is {d.purpose or d.kind}")
        held = self.field_commits.get(seat)
        if held is None or held["step"] != msg["plan"] or held["lock"] != msg["lock"]:
            raise self.Offence(f"seat {seat} opened its {field} field of a plan it did not "
                               f"commit (step {msg['plan']}, lock {msg['lock']})")
        if not commitment.field_matches(held["fields"][FIELDS.index(field)], msg["salt"],
                                        seat, held["step"], field, msg["card"]):
            self.on_cheated(seat, held, msg)
            raise self.Offence(f"seat {seat}'s opened {field} field does not match its "
                               "commitment")

    # ------------------------------------------------------------------ the plan step
    def _echo_mine(self, box: Any, humans: list[int]) -> None:
        """Echo what I hold, again whenever it changed (a seat relocked)."""
        me = self.my_seat
        if me not in self.contributors():
            return
        mine = box.echoes.get(me)
        if mine is not None and all(s in mine and mine[s]["lock"] == box.commits[s]["lock"]
                                    and mine[s]["fields"] == box.commits[s]["fields"]
                                    for s in humans):
            return
        items = echo.compact([box.commits[s] for s in humans], self.hash)
        msg = self._send({"type": "CommitsEchoed", "step": self.step, "seat": me,
                          "lock": echo.lock_sum(items), "commits": items, "hash": self.hash})
        box.echoes[me] = {c[0]: echo.rebuilt(msg, *c) for c in items}
        box.echo_locks[me], box.echo_msgs[me] = msg["lock"], msg

    def _plan(self, d: Any, box: Any) -> bool:
        humans = [s for s in d.seats if s not in self.bots]
        me = self.my_seat
        if me in humans and me not in box.commits:
            if self._asked != self.step:
                self._asked = self.step
                self.on_decision(d, self.state)   # may submit at once (nested advance)
            return False
        if any(s not in box.commits for s in humans):
            return False
        # every human committed: echo what I hold, and open nothing until every player
        # echoed the very same (a decoy commitment sent to one peer only shows here)
        self._echo_mine(box, humans)
        if not self._echoes_agree(humans):
            return False
        link = self._my_link(box)
        if link is not None and me not in box.links:
            box.links[me] = link
            if me in humans:
                nonce, wire = self.my_plans[self.step]
                card = self.game.plan_cards(self.game.from_wire(wire))["bid"]
                salt = commitment.field_salt(nonce, "bid")
                box.reveals[me] = (salt, card)
                self._send({"type": "BidOpened", "step": self.step, "seat": me,
                            "lock": box.commits[me]["lock"], "salt": salt, "card": card,
                            "link": link, "hash": self.hash})
            else:
                self._send({"type": "LinkRevealed", "step": self.step, "seat": me,
                            "link": link, "hash": self.hash})
        if any(s not in box.reveals for s in humans):
            return False
        seats = self.contributors()
        if any(s not in box.links for s in seats):
            return False
        seed = combine([box.links[s] for s in seats], b"plan")
        commands: list = []
        state, events = self.state, []
        for seat in sorted(d.seats):
            if seat in humans:
                command = self.game.commit_plan(seat)
            else:
                command = self.game.choose(state, seat, self.bot, combine([seed], b"bot/%d" % seat))
            state, more = self.game.apply(state, command)
            events.extend(more)
            commands.append(command)
        state = self._after_plans(seed, box, commands, state, events)
        for seat in humans:
            self.field_commits[seat] = box.commits[seat]
        for old in [s for s in self.my_plans if s < self.step]:
            del self.my_plans[old]               # a new round: the old plan is all turned
        self._commit_step(commands, beacon=True, result=(state, events),
                          commits=[box.commits[s] for s in humans])
        return True

    def _after_plans(self, seed: bytes, box: Any, commands: list, state: Any,
                     events: list) -> Any:
        """What follows the plans at once: draws (the n-th from `combine([seed],
        "chance/n")`, as `_chance_run`) and the bids, opened together (R-BID-1)."""
        n = 0
        while True:
            pending = self.game.pending(state)
            if pending.kind == "chance":
                n += 1
                command = self.game.chance(combine([seed], b"chance/%d" % n))
                state, more = self.game.apply(state, command)
                commands.append(command)
                events.extend(more)
            elif pending.kind == "open" and pending.purpose == "bid":
                for seat in sorted(pending.seats):
                    state = self._apply_opening(state, seat, "bid", box.reveals.get(seat),
                                                commands, events)
            else:
                return state

    def _apply_opening(self, state: Any, seat: int, field: str, opened: tuple | None,
                       commands: list, events: list) -> Any:
        """Turn one card: its opening, or a money card where there is none (a seat a bot
        took over) or the rules refuse the opened card (an offence; every peer saw the
        same signed opening, so every peer forfeits it alike)."""
        command = None
        if opened is not None:
            command = self.game.open_field(seat, field, opened[1])
            try:
                state, more = self.game.apply(state, command)
            except ValueError as exc:
                log.warning("seat %d opened a card the rules refuse (%s); it counts as a "
                            "money card", seat, exc)
                self.on_offence(seat, f"opened card refused: {exc}")
                command = None
        if command is None:
            command = self.game.forfeit_field(seat, field)
            state, more = self.game.apply(state, command)
        commands.append(command)
        events.extend(more)
        return state

    def _open(self, d: Any, box: Any) -> bool:
        """An action card to turn (the engine's `open` decision for one seat)."""
        seat, field = d.seats[0], d.purpose
        if seat not in self.bots and box.opening is None and seat == self.my_seat:
            mine = self._my_card(field)
            if mine is None:
                log.error("my plan of this round is lost: I cannot open my %s field", field)
                return False
            salt, card, held = mine
            box.opening = self._send({"type": "FieldOpened", "step": self.step, "seat": seat,
                                      "plan": held["step"], "lock": held["lock"],
                                      "field": field, "salt": salt, "card": card,
                                      "hash": self.hash})
        if seat not in self.bots and box.opening is None:
            return False
        opened = None if seat in self.bots else (box.opening["salt"], box.opening["card"])
        commands: list = []
        events: list = []
        state = self._apply_opening(self.state, seat, field, opened, commands, events)
        self._commit_step(commands, beacon=False, result=(state, events))
        return True

    def _restore_field_commits(self, entry: dict) -> None:
        """A replayed plan step: the signed commitments it logged, to check the openings
        still to come (a rejoining peer catching up)."""
        for msg in entry.get("commits") or []:
            if isinstance(msg, dict) and msg.get("type") == "PlanCommitted" \
                    and isinstance(msg.get("seat"), int) and self.verify(msg["seat"], msg):
                self.field_commits[msg["seat"]] = msg
