"""Which tutorial step is due (no window): steps come in the script's order at their
triggers, a decision step ends when it is answered, a step whose trigger never comes is
passed over (and named), a tower fill is no battle, the scoring step waits for the last
player's score, and Skip ends the tutorial."""

from __future__ import annotations

from client.tutorial.progress import TutorialProgress
from client.tutorial.script import STEP_KEYS
from client.tutorial.script import Step
from sim.state import DecisionKind


def key_of(st: Step | None) -> str | None:
    return st.key if st is not None else None


def _to_special(p: TutorialProgress) -> None:
    for key in ("board", "plan", "bid"):
        st = p.decision_asked(DecisionKind.PLAN)
        assert st is not None and st.key == key
        if key != "bid":
            p.next()
    p.decision_asked(None)                      # the plan went in
    assert p.current is None
    assert key_of(p.decision_asked(DecisionKind.SPECIAL)) == "special"
    p.decision_asked(None)


def test_the_planning_steps_follow_one_another_on_the_same_decision():
    p = TutorialProgress()
    st = p.decision_asked(DecisionKind.PLAN)
    assert st is not None and st.key == "board"
    assert p.decision_asked(DecisionKind.PLAN) is None      # still on show: nothing new
    p.next()
    assert key_of(p.decision_asked(DecisionKind.PLAN)) == "plan"


def test_an_answered_decision_ends_its_step_and_one_never_shown_is_passed_over():
    p = TutorialProgress()
    p.decision_asked(DecisionKind.PLAN)
    p.next()
    p.decision_asked(DecisionKind.PLAN)                     # "plan" on show
    p.decision_asked(None)                                  # locked without pressing Next
    assert p.current is None
    assert key_of(p.decision_asked(DecisionKind.SPECIAL)) == "special"
    assert p.missed == ["bid"]


def test_a_tower_fill_is_no_battle_and_a_later_trigger_passes_over_optional_steps():
    p = TutorialProgress()
    _to_special(p)
    assert key_of(p.event_played({"event": "ActionStarted", "slot": 1})) == "actions"
    p.next()
    assert p.event_played({"event": "TowerDropped", "reason": "fill"}) is None
    assert p.event_played({"event": "TowerDropped", "reason": "revolt"}) is None
    assert key_of(p.event_played({"event": "TowerDropped", "reason": "battle"})) == "battle"
    p.next()
    assert key_of(p.event_played({"event": "WinterStarted", "year": 1})) == "winter"
    assert p.missed == ["move"]


def test_the_scoring_step_waits_for_the_last_score_of_the_batch():
    p = TutorialProgress()
    _to_special(p)
    p.due = STEP_KEYS.index("scoring")
    assert p.event_played({"event": "Scored", "seat": 0}, more_of_kind=True) is None
    assert key_of(p.event_played({"event": "Scored", "seat": 3}, more_of_kind=False)) == "scoring"


def test_events_wait_while_the_player_answers_a_decision_step():
    p = TutorialProgress()
    _to_special(p)
    p.due = STEP_KEYS.index("move")
    assert key_of(p.decision_asked(DecisionKind.MOVE)) == "move"
    assert p.event_played({"event": "WinterStarted", "year": 1}) is None
    assert p.current is not None and p.current.key == "move"


def test_skip_ends_the_tutorial():
    p = TutorialProgress()
    p.decision_asked(DecisionKind.PLAN)
    p.skip()
    assert p.finished and p.current is None
    assert p.decision_asked(DecisionKind.SPECIAL) is None
    assert p.event_played({"event": "WinterStarted", "year": 1}) is None


def test_the_tower_lesson_comes_with_the_first_battle_even_when_it_is_the_players_own():
    """Issue 37, item 1: when the player's own Battle/move came before any other battle,
    "Battle or move" was shown and "A battle in the tower" passed over for good: the
    player's battle played with no word about the tower."""
    p = TutorialProgress()
    _to_special(p)
    assert key_of(p.event_played({"event": "ActionStarted", "slot": 1})) == "actions"
    p.next()
    assert key_of(p.decision_asked(DecisionKind.MOVE)) == "move"
    assert p.decision_asked(None) is None                  # my move went in: a battle
    assert key_of(p.event_played({"event": "TowerDropped", "reason": "battle"})) == "battle"
    assert p.missed == []
    p.next()
    assert p.event_played({"event": "TowerDropped", "reason": "battle"}) is None   # once
    assert key_of(p.event_played({"event": "WinterStarted", "year": 1})) == "winter"
    assert p.missed == []


def test_a_tower_lesson_whose_battle_never_comes_is_passed_over_at_the_closing_step():
    p = TutorialProgress()
    _to_special(p)
    p.event_played({"event": "ActionStarted", "slot": 1})
    p.next()
    p.decision_asked(DecisionKind.MOVE)
    p.decision_asked(None)
    assert p.event_played({"event": "YearStarted", "year": 1}) is None     # the game's first
    assert key_of(p.event_played({"event": "YearStarted", "year": 2})) == "finished"
    assert p.missed == ["winter", "revolts", "scoring", "battle"]
    p.next()
    assert p.finished


def test_the_first_years_events_do_not_close_the_tutorial_before_it_starts():
    p = TutorialProgress()
    assert p.event_played({"event": "YearStarted", "year": 1, "events": [1, 2, 3, 4]}) is None
    assert key_of(p.decision_asked(DecisionKind.PLAN)) == "board" and p.missed == []
