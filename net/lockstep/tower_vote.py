"""The tower vote: every contributor computes a drop and votes its outcome.

Why a vote: a drop's seed is known, but float results differ between CPUs, libms and
compilers, so peers may disagree. The outcome held by a strict majority of the voters
is applied by everyone (no strict majority: the largest group, ties to the group with
the lowest seat), and the disagreement is logged (`disagreements`). A peer whose CPU
rounds differently plays on.

Tests: tests/net/lockstep/test_tower_vote.py.
"""

from __future__ import annotations

import logging
from typing import TypedDict

from net.lockstep.core_view import CoreView
from net.lockstep.engine import EngineCommand, PendingDecision
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from sim.state import DecisionKind

log = logging.getLogger("net.lockstep.core")


class TowerDisagreement(TypedDict):
    """A drop whose voters' outcomes differed (tests/net/lockstep/test_tower_vote.py reads them)."""
    step: int
    groups: list[list[int]]      # voters by outcome, the applied group first
    strict_majority: bool        # the applied group held more than half the voters
    mine_agreed: bool            # my own drop was the applied one


class TowerVote:
    """My vote, the others', and the record of the steps where they differed."""

    def __init__(self, core: CoreView) -> None:
        self.core = core
        self.disagreements: list[TowerDisagreement] = []   # steps where voters' drops differed
        self._mine: tuple[int, EngineCommand, Wire] | None = None   # (step, TowerSettled, wire)

    def on_voted(self, seat: int, msg: Wire, box: StepInbox, step: int) -> bool:
        if seat in box.votes:
            if box.votes[seat] != msg["outcome"]:
                raise Offence(f"seat {seat} voted two different tower outcomes for step {step}")
            return False
        mine = self._mine
        if mine is None or mine[0] != step or msg["outcome"] != mine[2]:
            # (a vote equal to my own outcome is well formed: nothing to decode)
            try:
                outcome = self.core.game.from_wire(msg["outcome"])
            except ValueError as exc:
                raise Offence(f"malformed tower outcome: {exc}") from None
            if type(outcome).__name__ != "TowerSettled":
                raise Offence(f"seat {seat}'s tower vote is not a tower outcome")
        box.votes[seat] = msg["outcome"]
        return True

    def run(self, d: PendingDecision, box: StepInbox) -> bool:
        """Every voter's outcome of this drop is in: apply the majority's (module doc)."""
        core = self.core
        mine = self._mine
        if mine is None or mine[0] != core.step:
            command = core.game.settle(d)
            mine = self._mine = (core.step, command, core.game.to_wire(command))
        me = core.my_seat
        if me is not None and me in core.contributors() and me not in box.votes:
            box.votes[me] = mine[2]
            core.send({"type": "TowerVoted", "step": core.step, "seat": me,
                       "outcome": mine[2], "hash": core.hash})
        voters = core.contributors()
        if any(s not in box.votes for s in voters):
            return False
        groups: dict[EngineCommand, list[int]] = {}
        decoded: list[tuple[Wire, EngineCommand]] = []      # each distinct vote, decoded once
        for seat in voters:
            wire = box.votes[seat]
            outcome = next((o for w, o in decoded if w == wire), None)
            if outcome is None:
                outcome = mine[1] if wire == mine[2] else core.game.from_wire(wire)
                decoded.append((wire, outcome))
            groups.setdefault(outcome, []).append(seat)
        if not groups:                     # nobody votes (bots only): my own drop
            command = mine[1]
        else:
            ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), min(kv[1])))
            command, seats = ranked[0]
            if len(groups) > 1:
                record: TowerDisagreement = {
                    "step": core.step, "groups": [sorted(s) for _, s in ranked],
                    "strict_majority": 2 * len(seats) > len(voters),
                    "mine_agreed": command == mine[1]}
                self.disagreements.append(record)
                log.warning("tower outcomes differ at step %d: seats %s; applying the one "
                            "held by seats %s%s", core.step, record["groups"], sorted(seats),
                            "" if record["strict_majority"] else " (no strict majority)")
        core.commit_step([command], beacon=False)
        return True

    def check_early(self, d: PendingDecision, box: StepInbox) -> list[tuple[int, str]]:
        """Votes that arrived before their step: only a drop takes them."""
        bad = []
        for seat in list(box.votes):
            if d.kind != DecisionKind.TOWER:
                bad.append((seat, "tower vote for a step that is not a drop"))
                del box.votes[seat]
        return bad
