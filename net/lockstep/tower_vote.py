"""A drop's outcome: computed where the physics is deterministic, voted only where not.

Why: a drop's seed is known, but the PyPI pymunk's floats differ between CPUs, libms and
compilers. The project's own build (`sim.tower.build`) computes every drop bit for bit
alike everywhere, so a peer on it needs nobody's vote: it applies its own drop, and it
can check anyone else's. Every contributor still sends its outcome, signed, with the
build it claims (`TowerVoted.build`):

* A vote that breaks the rules (a cube unaccounted for, a pose outside the tower, two
  kept cubes in one place) is a proof of cheating on its own: every peer checks it with
  the rules, it is never applied, the seat is expelled (`net.table.expulsion`).
* A vote claiming the deterministic build whose outcome differs from the drop as the
  deterministic build computes it is a proof too: any deterministic peer re-runs the drop.
* Two different signed votes of one seat for one drop are a proof (`signatures.conflict`).
* A deterministic peer applies its own drop (`decided_by` "physics"). A platform peer
  cannot compute it, so it applies the outcome the deterministic claims agree on; with
  no deterministic claim at all, the outcome a strict majority of the voters agrees on
  ("majority"). With no strict majority nobody's vote decides, and no seat order either:
  the drop is settled by `sim.tower.fallback` from the drop's own seed ("model").

What a platform peer cannot check: a claim of the deterministic build. Where the claims
disagree it says so, and takes a strict majority of them, else the model (docs/net.md).

Tests: tests/net/lockstep/test_tower_vote.py, tests/net/trust/test_tower_proofs.py,
tests/net/trust/test_tower_attacks.py.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Mapping, TypedDict

from net.lockstep.core_view import TowerVoteCore
from net.lockstep.engine import EngineCommand, EngineState, PendingDecision
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from net.transport.message_records import TowerVoted, as_wire
from sim.commands import TowerSettled
from sim.state import DecisionKind

log = logging.getLogger("net.lockstep.core")

DETERMINISTIC, PLATFORM = "deterministic", "platform"
RECENT_STEPS = 32   # how far back I keep a drop's state, to check a proof that comes late


class TowerDisagreement(TypedDict):
    """A drop whose voters' outcomes differed (tests/net/lockstep/test_tower_vote.py reads them)."""
    step: int
    groups: list[list[int]]      # voters by outcome, the applied group first (if voted)
    strict_majority: bool        # the applied group held more than half the voters
    mine_agreed: bool            # my own drop was the applied one
    decided_by: str              # physics | majority | model


def _key(command: TowerSettled) -> tuple[object, object]:
    """What a vote says about the drop (not how the table came to it)."""
    return command.out, command.contents


class TowerVote:
    """My vote, the others' (checked), the applied outcome, and where the votes differed."""

    def __init__(self, core: TowerVoteCore) -> None:
        self.core = core
        self.disagreements: list[TowerDisagreement] = []   # steps where voters' drops differed
        self._mine: tuple[int, EngineCommand, Wire] | None = None   # (step, TowerSettled, wire)
        # step -> seat -> why its vote is void (None: checked, good); each vote judged once
        self._judged: dict[int, dict[int, str | None]] = {}
        self._recent: dict[int, tuple[str, EngineState, EngineCommand]] = {}  # step -> hash, state, mine

    @property
    def deterministic(self) -> bool:
        """My physics is the verified deterministic build (the engine says so)."""
        return bool(getattr(self.core.game, "deterministic", False))

    # ------------------------------------------------------------------ receiving
    def on_voted(self, seat: int, msg: TowerVoted, box: StepInbox, step: int) -> bool:
        held = box.votes.get(seat)
        if held is not None or self._judged.get(step, {}).get(seat) is not None:
            if held is not None and held != msg:
                if not self.core.host.cheated(seat, held, msg):
                    raise Offence(f"seat {seat} voted two different tower outcomes for step {step}")
            return False
        box.votes[seat] = as_wire(msg)
        return True

    def check_early(self, d: PendingDecision, box: StepInbox) -> list[tuple[int, str]]:
        """Votes that arrived before their step: only a drop takes them."""
        bad = []
        for seat in list(box.votes):
            if d.kind != DecisionKind.TOWER:
                bad.append((seat, "tower vote for a step that is not a drop"))
                del box.votes[seat]
        return bad

    # ------------------------------------------------------------------ checking
    def judge(self, seat: int, msg: Wire, state: EngineState, mine: EngineCommand | None
              ) -> str | None:
        """Why `seat`'s signed vote `msg` is a proof of cheating by itself, or None.
        `mine`: the drop as the deterministic build computes it (None: I cannot tell)."""
        game = self.core.game
        try:
            outcome = game.from_wire(msg["outcome"])
            if isinstance(outcome, TowerSettled):
                game.apply(state, replace(outcome, decided_by="physics"))
        except ValueError as exc:               # MalformedCommand, IllegalCommand
            return f"seat {seat} signed a tower outcome that breaks the rules: {exc}"
        if not isinstance(outcome, TowerSettled):
            return f"seat {seat} signed a tower vote that holds no tower outcome"
        if mine is not None and msg.get("build") == DETERMINISTIC and _key(outcome) != _key(mine):
            return (f"seat {seat} signed a tower outcome for the deterministic build that "
                    f"differs from the drop that build computes")
        return None

    def proves(self, msg: Wire) -> str | None:
        """A `TowerVoted` sent as a proof by another peer: the reason if it is one by
        itself, "" if I cannot check it here (not my step, or a deterministic claim on my
        platform build), None if it proves nothing."""
        if msg.get("type") != "TowerVoted":
            return None
        step = msg["step"]
        core = self.core
        if step == core.step and not core.ended and core.decision().kind == DecisionKind.TOWER:
            mine = self._my_drop(core.decision())
            at: tuple[str, EngineState, EngineCommand] | None = (core.hash, core.state, mine)
        else:
            at = self._recent.get(step)
        if at is None or at[0] != msg.get("hash"):
            return ""
        reason = self.judge(msg["seat"], msg, at[1], at[2] if self.deterministic else None)
        if reason is None and msg.get("build") == DETERMINISTIC and not self.deterministic:
            return ""
        if reason:
            self.void(msg["seat"], step, reason)
        return reason

    def void(self, seat: int, step: int, reason: str) -> None:
        """A proof against `seat`'s vote at the drop of `step`: the drop no longer waits for
        it, whether I heard the vote or not (a vote that reached another peer only, or a
        proof that outran the votes, would otherwise hold me at this step for good), and
        a vote of that seat arriving later is ignored. Every peer holding the proof
        decides the drop from the same voters."""
        if step < self.core.step:
            return
        self._judged.setdefault(step, {})[seat] = reason
        self.core.box(step).votes.pop(seat, None)

    # ------------------------------------------------------------------ the step
    def _my_drop(self, d: PendingDecision) -> EngineCommand:
        core = self.core
        mine = self._mine
        if mine is None or mine[0] != core.step:
            command = core.game.settle(d)
            mine = self._mine = (core.step, command, core.game.to_wire(command))
        return mine[1]

    def run(self, d: PendingDecision, box: StepInbox) -> bool:
        """Every voter's outcome of this drop is in (or void): apply it (module doc)."""
        core = self.core
        mine = self._my_drop(d)
        assert self._mine is not None
        me = core.my_seat
        if me is not None and me in core.contributors() and me not in box.votes:
            box.votes[me] = core.send({
                "type": "TowerVoted", "step": core.step, "seat": me, "outcome": self._mine[2],
                "build": DETERMINISTIC if self.deterministic else PLATFORM, "hash": core.hash})
        judged = self._judged.setdefault(core.step, {})
        for seat in sorted(box.votes):
            if seat == me or seat in judged:
                continue
            msg = box.votes[seat]
            reason = None if msg["outcome"] == self._mine[2] else \
                self.judge(seat, msg, core.state, mine if self.deterministic else None)
            judged[seat] = reason
            if reason is not None:
                del box.votes[seat]
                log.error("tower vote of seat %d refused at step %d: %s", seat, core.step,
                          reason)
                core.host.cheated(seat, msg, msg)
        voters = [s for s in core.contributors() if judged.get(s) is None]
        if any(s not in box.votes for s in voters):
            return False
        command = self._decide(d, box, voters, mine)
        self._recent[core.step] = (core.hash, core.state, mine)
        for old in [s for s in self._recent if s < core.step - RECENT_STEPS]:
            del self._recent[old]
        for old in [s for s in self._judged if s <= core.step]:
            del self._judged[old]
        core.commit_step([command], beacon=False)
        return True

    def _decide(self, d: PendingDecision, box: StepInbox, voters: list[int],
                mine: EngineCommand) -> EngineCommand:
        """The outcome to apply, from my own drop or the checked votes (module doc)."""
        core = self.core
        outcomes: dict[int, EngineCommand] = {}
        for seat in voters:
            msg = box.votes[seat]
            outcomes[seat] = mine if msg["outcome"] == self._mine_wire() \
                else core.game.from_wire(msg["outcome"])
        groups: dict[Any, list[int]] = {}
        for seat, outcome in outcomes.items():
            groups.setdefault(_key(outcome), []).append(seat)
        claims = [s for s in voters if box.votes[s].get("build") == DETERMINISTIC]
        if self.deterministic or not voters:
            command, decided_by, pool = mine, "physics", voters
        else:
            pool = claims or voters
            counted: dict[Any, list[int]] = {}
            for seat in pool:
                counted.setdefault(_key(outcomes[seat]), []).append(seat)
            best = max(counted.values(), key=len)
            if 2 * len(best) > len(pool):
                command = outcomes[best[0]]
                decided_by = "physics" if claims else "majority"
            else:
                from sim.tower.fallback import settle_detail
                out, contents = settle_detail(d.detail)    # type: ignore[attr-defined]
                command = TowerSettled(tuple((c, n) for c, n in out.items() if n), contents)
                decided_by = "model"
            if claims and len(counted) > 1:
                log.error("the deterministic claims differ at step %d: seats %s; at least one "
                          "of them lies, and this platform build cannot tell which", core.step,
                          sorted(sorted(s) for s in counted.values()))
        command = replace(command, decided_by=decided_by)
        if len(groups) > 1 or decided_by == "model":
            applied = [s for s, o in outcomes.items() if _key(o) == _key(command)]
            ranked = sorted(groups.values(), key=lambda seats: (seats != applied, -len(seats)))
            record: TowerDisagreement = {
                "step": core.step, "groups": [sorted(s) for s in ranked],
                "strict_majority": 2 * len(applied) > len(voters),
                "mine_agreed": _key(command) == _key(mine), "decided_by": decided_by}
            self.disagreements.append(record)
            log.warning("tower outcomes differ at step %d: seats %s; applying %s%s", core.step,
                        record["groups"],
                        {"physics": "the deterministic drop", "majority": "the majority's",
                         "model": "the drop settled from its seed (no strict majority)"}
                        [decided_by],
                        "" if record["mine_agreed"] else "; my own drop differs")
        return command

    def _mine_wire(self) -> Wire | None:
        return self._mine[2] if self._mine is not None else None
