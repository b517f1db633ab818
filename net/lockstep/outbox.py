"""My own lockstep messages: signed, kept per step, saved before a choice leaves.

Why keep them: a peer that reconnects gets my messages again (`resend_from`), and a
peer restarted from its save must repeat exactly what it said before the crash
(`restore`), or it would contradict its own signed messages.

Tests: tests/net/lockstep/test_field_reveal.py (saved before sending),
tests/net/table/test_session.py (resume from a save).
"""

from __future__ import annotations

from typing import Callable

from net.lockstep import echo
from net.lockstep.core_view import OutboxCore
from net.lockstep.step_inbox import STALE_GRACE, StepInbox, Wire

SAVED_FIRST = frozenset({"PlanCommitted", "PlanUnlocked", "CommandSent", "CommitsEchoed"})

# a kind of my own message -> how it fills my inbox again after a restart
Restorer = Callable[[OutboxCore, StepInbox, int, Wire], None]


def _commit(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.commits[me] = m


def _unlock(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.commits.pop(me, None)
    box.unlocked[me] = m["lock"]


def _echo(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.echoes[me] = {c[0]: echo.rebuilt(m, *c) for c in m["commits"]}
    box.echo_locks[me], box.echo_msgs[me] = m["lock"], m


def _bid(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.reveals[me] = (m["salt"], m["card"])
    box.links[me] = m["link"]


def _opening(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.opening = m


def _link(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.links[me] = m["link"]


def _command(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.command = (me, core.game.from_wire(m["command"]), m["command"])


def _vote(core: OutboxCore, box: StepInbox, me: int, m: Wire) -> None:
    box.votes[me] = m


RESTORERS: dict[str, Restorer] = {
    "PlanCommitted": _commit, "PlanUnlocked": _unlock, "CommitsEchoed": _echo,
    "BidOpened": _bid, "FieldOpened": _opening, "LinkRevealed": _link,
    "CommandSent": _command, "TowerVoted": _vote,
}


class Outbox:
    """My messages per step, and how they leave."""

    def __init__(self, core: OutboxCore) -> None:
        self.core = core
        self.sent: dict[int, list[Wire]] = {}

    def send(self, msg: Wire) -> Wire:
        """Keep it, then send it. A choice (plan, command) is saved first, so a restarted
        peer repeats exactly what it said; links follow from the saved chain secret."""
        msg = self.core.host.sign(msg)
        self.sent.setdefault(msg["step"], []).append(msg)
        if msg["type"] in SAVED_FIRST:
            self.core.host.save_due()
        self.core.host.broadcast(msg)
        return msg

    def said(self, step: int, kind: str) -> bool:
        """Did I send a `kind` message for `step`?"""
        return any(m["type"] == kind for m in self.sent.get(step, []))

    def restore(self, sent: dict[int, list[Wire]]) -> None:
        """After a restart: my messages from before the crash count as sent again.

        Messages of steps I already applied (caught up from a player that got them before
        I died) are kept too: players still behind need them resent."""
        core = self.core
        for step, msgs in sorted(sent.items()):
            if step < core.step - STALE_GRACE:
                continue
            self.sent[step] = list(msgs)
            if step < core.step:
                continue
            box, me = core.box(step), core.my_seat
            if me is None:                  # a spectator said nothing
                continue
            for m in msgs:
                restorer = RESTORERS.get(m["type"])
                if restorer is not None:
                    restorer(core, box, me, m)

    def resend_from(self, step: int) -> list[Wire]:
        """My messages for `step` and later (for a peer that reconnected)."""
        return [m for s in sorted(self.sent) if s >= step for m in self.sent[s]]
