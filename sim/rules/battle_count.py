"""Counting a battle once the tower has spoken (R-BATTLE-3 ... R-BATTLE-8).

Kept apart from the tower and from the game flow: given who fought and what lies in the
tray, the result is plain arithmetic, and the worked example E-2 can be checked here alone.

Tests: tests/sim/rules/test_battle.py, tests/sim/rules/test_examples.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.progress import BattleResult
from sim.tower.contents import PEASANT


@dataclass(frozen=True)
class BattleOutcome:
    attacker_count: int
    defender_count: int
    result: BattleResult
    survivors: int              # the winner's cubes that go (back) into the province
    returned: dict[int, int]    # colour -> cubes that go back to their supply
    tray_after: tuple[int, ...]  # what stays in the tray (cubes that did not count)
    peasants_counted: int


def count_battle(kind: str, attacker: int, defender: int | None, tray: list[int] | tuple[int, ...],
                 unrest: int) -> BattleOutcome:
    """Count and settle a battle from the tray after the drop.

    kind: "attack" (player vs player), "neutral" (player vs empty province) or "revolt"
    (peasants vs the owner; `attacker` is PEASANT and `defender` the owner).
    """
    tray_after = list(tray)
    if kind == "revolt":
        assert defender is not None          # a revolt is against the province's owner
        a = tray[PEASANT]
        own = tray[defender]
        peasants = a
        tray_after[PEASANT] = 0
        tray_after[defender] = 0
        returned: dict[int, int] = {PEASANT: a}
        if own > a:  # R-BATTLE-8: the owner keeps the province, losing one army per peasant
            returned[defender] = a
            return BattleOutcome(a, own, "defender", own - a, returned, tuple(tray_after), peasants)
        returned[defender] = own  # peasants win or draw: R-BATTLE-7
        return BattleOutcome(a, own, "attacker" if a > own else "draw", 0, returned,
                             tuple(tray_after), peasants)

    a = tray[attacker]
    tray_after[attacker] = 0
    if kind == "neutral":
        own = 0
        peasants = tray[PEASANT]
    else:
        assert defender is not None          # an attack is on a seat's province
        own = tray[defender]
        tray_after[defender] = 0
        peasants = tray[PEASANT] if unrest == 0 else 0  # R-BATTLE-3
    if peasants:
        tray_after[PEASANT] = 0
    d = own + peasants
    returned = {PEASANT: peasants}  # R-BATTLE-6: counted peasants go home
    if a > d:
        returned[attacker] = d          # the winner loses as many as the loser counted
        if kind == "attack":
            assert defender is not None
            returned[defender] = own
        return BattleOutcome(a, d, "attacker", a - d, returned, tuple(tray_after), peasants)
    if d > a and not (kind == "attack" and own == 0):
        returned[attacker] = a
        if kind == "neutral":
            # peasants defended; they all go back, the province stays neutral and empty
            return BattleOutcome(a, d, "defender", 0, returned, tuple(tray_after), peasants)
        peasant_losses = min(peasants, a)      # peasants are removed first
        own_losses = a - peasant_losses
        assert defender is not None          # neutral provinces returned above
        returned[defender] = own_losses
        return BattleOutcome(a, d, "defender", own - own_losses, returned,
                             tuple(tray_after), peasants)
    # a draw, or (ruling) a defender "won" by peasants alone: R-BATTLE-5/7
    returned[attacker] = a
    if kind == "attack":
        assert defender is not None
        returned[defender] = own
    return BattleOutcome(a, d, "draw", 0, returned, tuple(tray_after), peasants)
