"""Progress inside a stage, as frozen records: a seat's plan, the draft, a round, a battle,
winter.

Why frozen: `State.copy` shares them between the copy and the original, so a change is a
new record (`evolve`, a quicker `dataclasses.replace`) set on the copy; the caller's state
never sees it. The state's wire form packs each as `["@Name", fields...]` (`sim.state`).

Tests: tests/sim/test_codec.py (their wire form), tests/sim/rules/ (their use).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, TypeVar

from sim.commands import ACTIONS

COLOURS = 6  # tray slots: seats 0-4, then PEASANT (5)
NO_CUBES = (0,) * COLOURS
BID = len(ACTIONS)  # index of the bid among PLAN_FIELDS
R = TypeVar("R")


def evolve(record: R, **changes: Any) -> R:
    """`dataclasses.replace(record, **changes)` for the records here, in a quarter of the
    time: a new record with the old one's fields, `changes` over them.

    Why: the rules replace a round's or a battle's record at nearly every step, and the
    hard bot's rollouts take tens of thousands of steps per decision (issue 40);
    `replace` (field list, checks, `__init__` through `object.__setattr__`) was a sixth
    of a rollout's time. The records have no `__post_init__` and no init-less fields, so
    copying the fields gives the very record `replace` builds. A field name the record
    lacks is a TypeError, as with `replace` (mypy no longer checks the names)."""
    names = _FIELD_NAMES[type(record)]
    if not names.issuperset(changes):
        raise TypeError(f"{type(record).__name__} has no field {sorted(set(changes) - names)}")
    new: R = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class Plan:
    """A seat's plan for one round: a card per action field and the bid (R-PLAN-1).

    `known[i]` says whether this state holds field i (`PLAN_FIELDS` order): a network peer
    holds another seat's field only once its owner opened it. `turned[i]` says whether the
    card is face up on the table (bids at BidsRevealed, an action's card at its owner's
    turn): what `sim.view` shows to the other seats. `hand` and `money` are what the seat
    held when it locked the plan, against which opened fields are checked.
    """
    actions: tuple[str | None, ...]
    bid: int | str | None
    known: tuple[bool, ...]
    turned: tuple[bool, ...]
    hand: tuple[str, ...]
    money: int

    def card(self, index: int) -> int | str | None:
        return self.bid if index == BID else self.actions[index]

    def opened(self, index: int, card: int | str | None) -> "Plan":
        known = self.known[:index] + (True,) + self.known[index + 1:]
        if index == BID:
            return evolve(self, bid=card, known=known)
        assert not isinstance(card, int)     # money on an action field opens as None (legal)
        actions = self.actions[:index] + (card,) + self.actions[index + 1:]
        return evolve(self, actions=actions, known=known)

    def turned_up(self, index: int) -> "Plan":
        return evolve(self, turned=self.turned[:index] + (True,) + self.turned[index + 1:])

    def hidden(self, index: int) -> "Plan":
        """This plan with field `index` unknown (what another seat holds of it)."""
        plan = self.opened(index, None)
        return evolve(plan, known=plan.known[:index] + (False,) + plan.known[index + 1:])

    def action_map(self) -> dict[str, str | None]:
        return dict(zip(ACTIONS, self.actions))


@dataclass(frozen=True)
class DraftProgress:
    """R-SETUP-5. `unknown`: deck cards never seen (drawn by chance); `bottom`: cards put
    under the deck (known order); `faced[seat]`: the face-up pair at that seat's last pick."""
    unknown: tuple[str, ...]
    bottom: tuple[str, ...]
    up: tuple[str | None, str | None]
    pick: int
    faced: tuple[tuple[str | None, ...] | None, ...]
    taken: str | None
    need: str            # up | take | deck | place


@dataclass(frozen=True)
class RoundProgress:
    """A round from the bids to its last action (R-BID, R-EXEC)."""
    changed: tuple[str, ...] = ()                  # provinces that changed hands (R-EXEC-4)
    rank_groups: tuple[tuple[int, ...], ...] = ()  # seats by bid rank, ties together
    pick: int = 0                                  # next seat in ranking to take a special
    pick_order: tuple[int, ...] = ()               # seats in the order they took specials
    slot: int = 0                                  # action slot 0-9 being executed
    turn: int = 0                                  # index into turn order within the slot
    step: str = "start"    # start | act | move | battle | open | done (slot finished)


# what kind of battle (a player on a player, on an empty province, peasants on the owner)
# and who won it: kept in `Battle` and written in the log's `BattleResolved`
BattleKind = Literal["attack", "neutral", "revolt"]
BattleResult = Literal["attacker", "defender", "draw"]

# cubes added to a throw beyond the fighters' own: the log names them (BattleResolved)
BattleExtra = Literal["attack_card", "defence_card", "palace_event", "peasants"]


@dataclass(frozen=True)
class Battle:
    """Cubes on their way into the tower and who fights (R-BATTLE-1...4, R-SETUP-6).

    `held`: cubes in hand for the next drop (per colour); `seed` is set once chance has
    given the drop's seed, and the game then awaits `TowerSettled`; `settled` once it came.
    """
    kind: BattleKind | Literal["fill"]   # "fill": the set-up's drop, no battle
    province: str | None = None
    attacker: int | None = None  # a seat, or PEASANT for a revolt
    defender: int | None = None  # a seat, or None for a neutral province
    origin: str | None = None
    action: str | None = None    # the action that caused it (a revolt: rice or tax, or "")
    unrest: int = 0
    held: tuple[int, ...] = NO_CUBES
    thrown: tuple[int, ...] = NO_CUBES
    extras: tuple[tuple[BattleExtra, int], ...] = ()
    seed: bytes | None = None
    settled: bool = False        # the tower has spoken: what came out lies in the tray


@dataclass(frozen=True)
class WinterProgress:
    """R-WINTER-1...3: players in autumn turn order, each one's drawn revolts in order."""
    idx: int = 0
    revolts: tuple[str, ...] = ()
    extra: int = 0
    shortage: int = 0
    count: int = 0
    drawn: bool = False
    ordered: bool = False


_FIELD_NAMES: dict[type, frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls))
    for cls in (Plan, DraftProgress, RoundProgress, Battle, WinterProgress)}


__all__ = ["BID", "COLOURS", "NO_CUBES", "Battle", "BattleExtra", "BattleKind", "BattleResult", "DraftProgress", "Plan",
           "RoundProgress", "WinterProgress", "evolve"]
