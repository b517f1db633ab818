"""What each tutorial step asks of the player before Next ends it, and what it says of the
player's own figures: functions a `script.Step` carries (its `check` and its `fact`), over
two small records the coach reads off the table, so no code keys a step by its name.

Why records and not the scene: a step's check is a rule of the tutorial ("the plan step
wants a plan that can be locked"), decided the same in the window and in a test without
one; the coach (coach.py) fills `TaskSeen` and `Figures` from what the table shows.

Tests: tests/client/tutorial/test_script.py, tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lang.i18n import N_, _, ngettext


@dataclass(frozen=True)
class TaskSeen:
    """What a step's check reads: the planning panel's problems with the plan laid out
    (the first first; none: it can be locked), and whether the tower lesson's pour has been
    watched whole (True when no pour is followed)."""

    problems: tuple[str, ...] = ()
    pour_watched: bool = True


@dataclass(frozen=True)
class Figures:
    """The player's own figures a step may tell: the provinces they hold and their rice on
    the table, the rice this winter's event card takes (0: not a winter's step), and the
    points they gained this year (None: not scored yet)."""

    provinces: int = 0
    rice: int = 0
    rice_loss: int = 0
    scored: int | None = None


# a step's check: what the player must still do before Next ends it ("" when done)
Check = Callable[[TaskSeen], str]
# a step's fact: the player's own figures where the step is about them ("" when none)
Fact = Callable[[Figures], str]


def nothing(_seen: TaskSeen) -> str:
    """A step Next ends at once (an event step; the welcome on the first plan)."""
    return ""


def no_fact(_figures: Figures) -> str:
    return ""


def answer_first(missing: str) -> Check:
    """A step that waits for a decision ends when the player has answered it: Next alone
    would leave the card gone with nothing asked answered. `missing` is marked English."""
    def check(_seen: TaskSeen) -> str:
        return _(missing)
    return check


def plan_can_be_locked(seen: TaskSeen) -> str:
    """The plan step: the cards laid out make a plan that can be locked."""
    if not seen.problems:
        return ""
    return seen.problems[0] + " " + _("Or press Show me for the tutorial's plan.")


def plan_locked(seen: TaskSeen) -> str:
    """The bid step ends when the plan is locked (after "Not yet:", card.py: no second
    "yet")."""
    if seen.problems:
        return seen.problems[0]
    return _("press Enter (Lock plan) to lock your plan and go on.")


def pour_watched(seen: TaskSeen) -> str:
    """The tower lesson ends once its pour has been watched whole (coach.py follows it)."""
    if not seen.pour_watched:
        return _("Watch the cubes fall into the tray first: only those decide the battle.")
    return ""


def rice_after_winter(f: Figures) -> str:
    """The winter step: the player's provinces and rice, and whether the rice left after
    the event card's loss feeds them."""
    n, left = f.provinces, max(0, f.rice - f.rice_loss)
    held = ngettext("You hold {n} province and have {rice} rice.",
                    "You hold {n} provinces and have {rice} rice.", n).format(n=n, rice=f.rice)
    after = (_("After losing {loss} you keep {left} rice, {short} less than your "
               "provinces: some of them will revolt.") if left < n else
             _("After losing {loss} you keep {left} rice, enough for your provinces."))
    return held + " " + after.format(loss=f.rice_loss, left=left, short=n - left)


def points_this_year(f: Figures) -> str:
    """The scoring step: the points the player gained this year, once scored."""
    if f.scored is None:
        return ""
    return ngettext("You scored {n} point this year.", "You scored {n} points this year.",
                    f.scored).format(n=f.scored)


# the decision steps' missing lines (marked here, said in the player's language by `_`)
CHOOSE_SPECIAL = N_("Choose your special card first: click one below.")
CHOOSE_MOVE = N_("Choose where your armies go first, or Don't move.")
ORDER_REVOLTS = N_("Choose the order of the revolts first, then Done.")
