"""The tutorial's script: one fixed first game and the steps that walk a new player
through it, as data.

Why data: the steps are read by the coach in the window (`coach.py`), by the progress
tracker that decides which one is due (`progress.py`), by the tests that play the
scripted game without a window, and by the screenshot tool; one list keeps them in step.
Each step says what it waits for (a decision the game asks of the player, or an event
played on the table), its words (marked English, in the rulebook's terms: action
field, bid field, battle tower, tray, rice, revolt), what the coach outlines, and what
the player must do. The game is a 4-player beginner game on the sun side with a fixed
seed: the player is Blue (seat 0) against three easy bots, so every run of the script
meets the same cards, events and battles.

Tests: tests/client/tutorial/test_script.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.tutorial import step_tasks as tasks
from client.tutorial.step_tasks import Check, Fact
from lang.i18n import N_
from sim.state import DecisionKind

SEED = 4                    # the game every tutorial plays (checked by the tests)
PLAYERS = 4
SIDE = "sun"
SETUP = "beginner"
ME = 0                      # the player is Blue
BOT = "easy"                # the opponents
SUGGEST_SEED = b"suggest" * 4 + bytes(4)   # the planning panel's Suggest button's seed

# The plan "Show me" lays out (`first_plan_fields`) in spring (fields in `sim.commands.ACTIONS` order:
# palace, temple, theatre, rice, tax, deploy5, deploy3, deploy1, battle_a, battle_b; None
# is a money card) and the bid: a castle in Kii, a temple in Omi, a Nō theatre in Noto,
# rice from Kaga, tax from Settsu, armies into Tamba and Awa-Shikoku, Yamato's five
# armies ready for Battle/move A, and 2 chests bid for turn order.
FIRST_BID = 2


def first_plan_fields() -> tuple[str | None, ...]:
    """The first spring's action fields of "Show me" (province names are names, not words
    to translate)."""
    return ("Kii", "Omi", "Noto", "Kaga", "Settsu", "Tamba", "Awa-Shikoku", None, "Yamato", None)


@dataclass(frozen=True)
class Trigger:
    """What a step waits for: a decision the game asks of the player (`decision`), or an
    event played on the table (`event`, with `reason` for a tower drop: battle, revolt;
    `last`: the last of its kind in a batch, e.g. once every player has scored; `year`:
    only that year's event)."""

    decision: DecisionKind | None = None
    event: str = ""
    reason: str = ""
    last: bool = False
    year: int = 0


@dataclass(frozen=True)
class Step:
    """One step of the tutorial. `holds`: the table waits at it until the player presses
    Next (an event step; a decision waits for the player anyway). `optional`: a game in
    which the player chose otherwise may never ask it (the step is passed over).
    `highlight` names what the coach outlines (`coach.HIGHLIGHTS`). `any_time`: its
    trigger may come after a later step's (the first battle may be the player's own,
    after the Battle-or-move step): passed over, it still waits for its trigger.
    Next ends a step only once its task is done: `check` (step_tasks.py) says what is
    missing, which the card says until then. `fact`: the player's own figures the step
    tells (winter's rice, the year's points). What the step does at the table:
    `next_ends` (a planning step the player passes with Next, not by answering),
    `can_show` (the card's Show me lays out the tutorial's plan), `marks_own` (the map
    marks the player's provinces), `tower_lesson` (its pour is followed until watched
    whole; after it bots' battles go quickly), `scores_arrive` (the year's points fly
    into the players panel at once), `keys_as_next` (S and Enter, which would send its
    marks off the map before the card goes, act as Next), `then_moves` (after it the
    opponents are watched one move at a time). `keeps`: what else its words speak of,
    which its card leaves in sight (`coach.TutorialCoach._kept`: "players", "events",
    "log_last")."""

    key: str
    trigger: Trigger
    title: str
    text: str
    task: str
    highlight: str
    holds: bool = False
    optional: bool = False
    any_time: bool = False
    check: Check = tasks.nothing
    fact: Fact = tasks.no_fact
    next_ends: bool = False
    can_show: bool = False
    marks_own: bool = False
    tower_lesson: bool = False
    scores_arrive: bool = False
    keys_as_next: bool = False
    then_moves: bool = False
    keeps: tuple[str, ...] = ()

    @property
    def ends_with_next(self) -> bool:
        """Next ends it (an event step, or a planning step passed with Next); else the
        player's answer to its decision does."""
        return self.trigger.decision is None or self.next_ends


STEPS: tuple[Step, ...] = (
    Step("board", Trigger(decision=DecisionKind.PLAN),
         N_("Welcome, daimyo"),
         N_("This is Japan, in five regions. You are Blue: the provinces filled blue are "
            "yours, and the number on each token is how many of your armies stand there. "
            "For each province you own you hold its province card; the panel on the right "
            "shows everyone's chests, rice and points."),
         N_("Look at your provinces on the map, then press Next."),
         "provinces", next_ends=True, marks_own=True),
    Step("plan", Trigger(decision=DecisionKind.PLAN),
         N_("Plan your round"),
         N_("Every round all players plan at once and in secret. Put one card on each action "
            "field: a province card means “do this action in this province”, a money card "
            "means no action. Each card is used once. The actions are carried out in the "
            "order of the action cards above the fields."),
         N_("Drag your cards onto the fields, or press Show me for the tutorial's plan; "
            "then press Next."),
         "fields", next_ends=True, can_show=True, check=tasks.plan_can_be_locked),
    Step("bid", Trigger(decision=DecisionKind.PLAN),
         N_("The bid for turn order"),
         N_("The card on the bid field is your bid for turn order. A money card bids its "
            "value in chests, paid to the bank when the bids are revealed; a province card "
            "bids nothing and costs nothing. The highest bid chooses its place first."),
         N_("Put a money card on the bid field, then lock your plan with Enter."),
         "bid", check=tasks.plan_locked),
    Step("special", Trigger(decision=DecisionKind.SPECIAL),
         N_("Turn order and special cards"),
         N_("The bids are revealed. In the order of the bids each player takes one special "
            "card: its number is your place in turn order this round, and its advantage is "
            "yours this round (more tax, more rice, six armies, one army more in attack or "
            "in defence)."),
         N_("Choose a special card below."),
         "decision", check=tasks.answer_first(tasks.CHOOSE_SPECIAL),
         keeps=("players", "log_last")),   # the chests paid, the log's "Bids:" line
    Step("actions", Trigger(event="ActionStarted"),
         N_("The actions are carried out"),
         N_("The action cards are carried out from left to right; each action is done by "
            "every player in turn order before the next card is turned. A player's planned "
            "card is turned only when it is their turn. An action that cannot be carried "
            "out fully lapses."),
         N_("Press Next, then watch your opponents one move at a time (or let the round "
            "run)."),
         "track", holds=True, then_moves=True),
    Step("battle", Trigger(event="TowerDropped", reason="battle"),
         N_("A battle in the tower"),
         N_("The attacking armies and all of the defender's armies go into the battle tower "
            "together, with every cube lying in the tray. Some stay stuck inside; some that "
            "were stuck come out. Only the cubes that land in the tray count: the side with "
            "more wins, and the winner loses as many armies as the loser had."),
         N_("Watch the cubes fall into the tray, then press Next."),
         "tower", holds=True, any_time=True, tower_lesson=True, check=tasks.pour_watched),
    Step("move", Trigger(decision=DecisionKind.MOVE),
         N_("Battle or move"),
         N_("Your card is turned and your armies may march: from this province to one "
            "neighbouring province, leaving at least one behind. Into your own province it "
            "is a move; into a neutral or an opponent's province it is a battle through the "
            "tower."),
         N_("Click a highlighted province, choose how many armies go, then Go."),
         "decision", optional=True, check=tasks.answer_first(tasks.CHOOSE_MOVE)),
    Step("winter", Trigger(event="WinterStarted"),
         N_("Winter: rice"),
         N_("Everyone loses the rice on the event card left over, then needs one rice per "
            "province they own. Whoever is short suffers revolts in provinces drawn at "
            "random."),
         N_("Look at the rice in the players panel, then press Next."),
         "players", holds=True, marks_own=True, fact=tasks.rice_after_winter,
         keeps=("events",)),                # the event card left over
    Step("revolts", Trigger(decision=DecisionKind.REVOLT_ORDER),
         N_("Revolts"),
         N_("You are short of rice, so peasants revolt. Your armies in each revolting "
            "province are thrown into the tower with the peasants; if the peasants win, "
            "the province falls empty and neutral."),
         N_("Click the revolting provinces in the order they are fought, then Done."),
         "decision", optional=True, check=tasks.answer_first(tasks.ORDER_REVOLTS)),
    Step("scoring", Trigger(event="Scored", last=True),
         N_("The year's scoring"),
         N_("Each player scores 1 point per province and 1 per building. In each region "
            "the player with the most castles scores 3, temples 2, Nō theatres 1; tied "
            "leaders each score one less. The marks on the map show who won each region."),
         N_("Look at the marks on the map and the points in the players panel, then press "
            "Next."),
         "players", holds=True, scores_arrive=True, keys_as_next=True,
         fact=tasks.points_this_year),
    Step("finished", Trigger(event="YearStarted", year=2),
         N_("One year played"),
         N_("That was the first of the game's two years. After the first winter the rice "
            "and unrest are cleared, and four new event cards are turned up: the second "
            "year's, in the panel on the right. After the second winter the most points "
            "wins; a tie goes to the most chests."),
         N_("Play on to finish the game, or leave the tutorial."),
         "players", holds=True, keeps=("events",)),   # the second year's event cards
)

STEP_KEYS = tuple(s.key for s in STEPS)


def step(key: str) -> Step:
    """The step named `key` (a ValueError names an unknown one)."""
    for s in STEPS:
        if s.key == key:
            return s
    raise ValueError(f"the tutorial has no step {key!r}; its steps are {', '.join(STEP_KEYS)}")
