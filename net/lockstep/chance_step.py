"""Chance steps: the seed of a draw is the hash of every contributor's next beacon link.

Why links: no player knows the seed before every player revealed its link, and none
can choose its link (each is fixed by the chain it committed to before the game,
`net.lockstep.beacon`), so nobody can steer a draw.

Tests: tests/net/lockstep/test_core.py, tests/net/lockstep/test_beacon_commitment.py.
"""

from __future__ import annotations

from net.lockstep.beacon import combine
from net.lockstep.core_view import ChanceCore
from net.lockstep.engine import EngineCommand, EngineEvent, EngineState, PendingDecision
from net.lockstep.links import BeaconLinks
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from net.transport.message_records import LinkRevealed
from sim.state import DecisionKind


class ChanceStep:
    """Reveals my link, takes the others', and draws once they are all in."""

    def __init__(self, core: ChanceCore, links: BeaconLinks) -> None:
        self.core = core
        self.links = links

    def on_link_revealed(self, seat: int, msg: LinkRevealed, box: StepInbox, step: int) -> bool:
        if seat in box.links:
            if box.links[seat] != msg["link"]:
                raise Offence(f"seat {seat} revealed two links for step {step}")
            return False
        self.links.take(box, seat, msg["link"], step)
        return True

    def run(self, d: PendingDecision, box: StepInbox) -> bool:
        core = self.core
        link = self.links.mine()
        if link is not None and core.my_seat is not None and core.my_seat not in box.links:
            box.links[core.my_seat] = link
            core.send({"type": "LinkRevealed", "step": core.step, "seat": core.my_seat,
                       "link": link, "hash": core.hash})
        seats = core.contributors()
        if any(s not in box.links for s in seats):
            return False
        seed = combine([box.links[s] for s in seats], b"chance")
        command = core.game.chance(seed)
        state, events = core.game.apply(core.state, command)
        commands = [command]
        state = self._run_on(seed, commands, state, events)
        core.commit_step(commands, beacon=True, result=(state, events))
        return True

    def _run_on(self, seed: bytes, commands: list[EngineCommand], state: EngineState,
                events: list[EngineEvent]) -> EngineState:
        """Draws that follow at once, with no player input between, share this round's
        links: the n-th takes `combine([seed], b"chance/n")`. Fair, because nobody decides
        anything between the draws, so knowing the later seeds early helps no one; and it
        halves the beacon rounds a game needs (a battle's drop after the event card, each
        tower drop of a province's several battles, ...). A drop's outcome is a step of
        its own (`net.lockstep.tower_vote`). Appends to `commands`/`events`."""
        game = self.core.game
        n = 0
        while game.pending(state).kind == DecisionKind.CHANCE:
            n += 1
            command = game.chance(combine([seed], b"chance/%d" % n))
            state, more = game.apply(state, command)
            commands.append(command)
            events.extend(more)
        return state
