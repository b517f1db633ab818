"""Beacon links: each contributor's next link of the hash chain it committed to.

Why checked on arrival and again when their step comes: a link for the current step is
verified against the seat's chain at once (a wrong one is an offence), one for a later
step only when that step is reached, since the round it belongs to is known only then.
The seeds of draws and bot plans combine the links (`net.lockstep.beacon.combine`).

Tests: tests/net/lockstep/test_beacon_commitment.py, tests/net/lockstep/test_core.py.
"""

from __future__ import annotations

from net.lockstep.beacon import CHAIN_LENGTH, BeaconError, ChainVerifier
from net.lockstep.core_view import LinksCore
from net.lockstep.engine import PendingDecision
from net.lockstep.step_inbox import Offence, StepInbox
from sim.state import DecisionKind


class BeaconLinks:
    """Every seat's chain verifier; my own link of each round."""

    def __init__(self, core: LinksCore, chain_ends: dict[int, bytes],
                 tokens: dict[int, bytes]) -> None:
        self.core = core
        length = core.chain.length if core.chain else CHAIN_LENGTH
        self.verifiers = {s: ChainVerifier(e, length) for s, e in chain_ends.items()}
        self.tokens = dict(tokens)

    def add_chain(self, seat: int, chain_end: bytes, token_hash: bytes) -> None:
        """A commitment that arrived after the game began here (its player dropped in the
        start handshake and came back); its links are checked from now on."""
        if seat in self.verifiers or self.core.kinds.get(seat) != "human":
            return
        chain = self.core.chain
        self.verifiers[seat] = ChainVerifier(chain_end, chain.length if chain
                                             else CHAIN_LENGTH)
        self.tokens[seat] = token_hash

    def mine(self) -> bytes | None:
        """My link of this round, if my seat contributes to the seeds."""
        core = self.core
        if core.chain is None or core.my_seat not in core.contributors():
            return None
        return core.chain.link(core.round)

    def take(self, box: StepInbox, seat: int, link: bytes, step: int) -> None:
        """File a seat's link; one for the current step is checked at once."""
        core = self.core
        if step != core.step:
            box.links[seat] = link          # verified when the step comes
            return
        try:
            self.verifiers[seat].check(core.round, link)
        except (BeaconError, KeyError) as exc:
            raise Offence(f"wrong beacon link from seat {seat}: {exc}") from None
        box.links[seat] = link

    def accept(self, box: StepInbox) -> None:
        """The step's seed is made: each contributor's chain moves on by this link."""
        core = self.core
        for seat in core.contributors():
            if seat in self.verifiers:
                self.verifiers[seat].accept(core.round, box.links[seat])

    def check_early(self, d: PendingDecision, box: StepInbox) -> list[tuple[int, str]]:
        """Links that arrived before their step: checked now it has come."""
        core, bad = self.core, []
        for seat in list(box.links):
            if d.kind not in (DecisionKind.CHANCE, DecisionKind.PLAN):
                bad.append((seat, "beacon link for a step that needs none"))
                del box.links[seat]
                continue
            try:
                self.verifiers[seat].check(core.round, box.links[seat])
            except (BeaconError, KeyError) as exc:
                bad.append((seat, f"wrong beacon link: {exc}"))
                del box.links[seat]
                box.reveals.pop(seat, None)
        return bad
