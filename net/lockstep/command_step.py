"""One seat's decision: its owner sends the command, or every peer computes the bot's.

Why a command is applied on arrival: a legal command is checked by applying it (the
sim is pure), and the result is kept to be the step's, so an illegal one is an offence
at once and a legal one is applied only once.

Tests: tests/net/lockstep/test_core.py, tests/net/trust/test_hostile.py.
"""

from __future__ import annotations

import hashlib
from net.lockstep.core_view import CommandCore
from net.lockstep.engine import Applied, EngineCommand, PendingDecision
from net.lockstep.step_inbox import Offence, StepInbox, Wire
from net.transport.message_records import CommandSent
from sim.state import DecisionKind


class CommandStep:
    """The single-seat step (the default runner: any decision kind without its own)."""

    def __init__(self, core: CommandCore) -> None:
        self.core = core

    def submit(self, command: EngineCommand, wire: Wire, result: Applied) -> None:
        """My own command for the current step, already checked by applying it."""
        core = self.core
        box = core.box(core.step)
        assert core.my_seat is not None            # `Lockstep.submit` checked it
        box.command = (core.my_seat, command, wire)
        box.result = result
        core.send({"type": "CommandSent", "step": core.step, "seat": core.my_seat,
                   "command": wire, "hash": core.hash})

    def on_command_sent(self, seat: int, msg: CommandSent, box: StepInbox, step: int) -> bool:
        core = self.core
        if box.command is not None:
            if box.command[2] != msg["command"] or box.command[0] != seat:
                core.host.cheated(seat, core.earlier(step, seat, "CommandSent"), msg)
                raise Offence(f"second, different command for step {step}")
            return False
        try:
            command = core.game.from_wire(msg["command"])
        except ValueError as exc:
            raise Offence(f"malformed command: {exc}") from None
        if core.game.seat_of(command) != seat:
            raise Offence(f"forged seat inside command from seat {seat}")
        result = None
        if step == core.step:
            try:
                result = core.game.apply(core.state, command)
            except ValueError as exc:
                raise Offence(f"illegal command from seat {seat}: {exc}") from None
        box.command = (seat, command, msg["command"])
        box.result = result
        return True

    def run(self, d: PendingDecision, box: StepInbox) -> bool:
        core = self.core
        seat = d.seats[0]
        if seat in core.bots:
            seed = hashlib.sha256(f"bot/{core.hash}/{core.step}".encode()).digest()
            command = core.game.choose(core.state, seat, core.bot, seed)
            core.commit_step([command], beacon=False)
            return True
        if box.command is None:
            if seat == core.my_seat:
                core.ask(d)
            return False
        core.commit_step([box.command[1]], beacon=False, result=box.result)
        return True

    def check_early(self, d: PendingDecision, box: StepInbox) -> list[tuple[int, str]]:
        """A command that arrived before its step: legal now it has come?"""
        if box.command is None:
            return []
        seat, command, _ = box.command
        if d.kind in (DecisionKind.CHANCE, DecisionKind.PLAN, DecisionKind.OVER, DecisionKind.TOWER) or seat not in d.seats:
            reason = f"out of turn ({d.kind})"
        else:
            try:
                box.result = self.core.game.apply(self.core.state, command)
                return []
            except ValueError as exc:
                reason = str(exc)
        box.command = None
        return [(seat, f"illegal command: {reason}")]
