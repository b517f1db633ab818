"""The tutorial's scripted game, without a window: the fixed seed and the script's choices
for the player reach every step, in the script's order, each at its own trigger; the
game is the same every time; every step's words exist in English, Dutch and Romanian.

The rules each step teaches are the engine's: R-PLAN-1 (plan), R-BID-3 (special),
R-EXEC-1 (actions), R-BATTLE-1 (battle), R-EXEC-10 (move), R-WINTER-1..3 (winter,
revolts), R-WINTER-4 (scoring), R-ROUND-1 (finished).
"""

from __future__ import annotations

import pytest

from client.tutorial import script
from client.tutorial.progress import TutorialProgress
from client.tutorial.scripted_game import first_plan, new_session, scripted_choice
from sim.game import state_hash
from sim.legal import plan_problems
from sim.state import DecisionKind


def play_script(max_commands: int = 400):
    """Play the tutorial as the script's player does; returns (progress, what triggered
    each step: the decision kind or the event record, the final state hash)."""
    s = new_session()
    prog = TutorialProgress()
    triggered: dict[str, object] = {}
    try:
        while len(s.commands) < max_commands and "finished" not in prog.shown:
            while s.queue:
                events = s.queue.popleft().events
                for i, e in enumerate(events):
                    more = any(x.get("event") == e.get("event") for x in events[i + 1:])
                    st = prog.event_played(e, more)
                    if st is not None:
                        triggered[st.key] = dict(e)
                        prog.next()                     # the player reads it, presses Next
            if s.decision.kind == DecisionKind.OVER:
                break
            if s.waiting_for_me():
                kind = s.decision.kind
                while (st := prog.decision_asked(kind)) is not None:
                    triggered[st.key] = kind
                    if st.key in ("board", "plan"):
                        prog.next()                     # Next leads to the following step
                    else:
                        break
                s.submit(scripted_choice(s.state))
                prog.decision_asked(None)
            else:
                s.pump()
        return prog, triggered, state_hash(s.state)
    finally:
        s.close()


@pytest.fixture(scope="module")
def played():
    return play_script()


def test_the_scripted_game_reaches_every_step_in_order(played):
    prog, triggered, _ = played
    assert prog.shown == list(script.STEP_KEYS), prog.shown
    assert prog.missed == []


def test_each_step_is_shown_at_its_own_trigger(played):
    _, triggered, _ = played
    for st in script.STEPS:
        got = triggered[st.key]
        if st.trigger.decision is not None:
            assert got == st.trigger.decision, st.key
        else:
            assert isinstance(got, dict) and got["event"] == st.trigger.event, st.key
            if st.trigger.reason:
                assert got["reason"] == st.trigger.reason, st.key


def test_the_battle_step_comes_at_a_battle_and_the_winter_steps_at_the_first_winter(played):
    """R-BATTLE-1: a battle's drop, not the tower fill; R-WINTER-1: the first winter."""
    _, triggered, _ = played
    assert triggered["battle"]["reason"] == "battle"
    assert triggered["winter"]["year"] == 1
    assert triggered["finished"]["year"] == 2        # the second year's event cards are up


def test_the_scripted_game_is_the_same_every_time(played):
    _, _, digest = played
    again = play_script()
    assert again[2] == digest and again[0].shown == played[0].shown


def test_show_me_lays_out_a_legal_first_plan():
    """R-PLAN-1..4: the plan "Show me" puts on the fields is one the engine accepts."""
    s = new_session()
    try:
        while not s.waiting_for_me():
            s.pump()
        assert s.decision.kind == DecisionKind.PLAN
        assert plan_problems(s.state, first_plan()) == []
        assert s.state.players[script.ME].money >= script.FIRST_BID
    finally:
        s.close()


def test_an_unknown_step_is_named():
    with pytest.raises(ValueError, match="no step 'nope'"):
        script.step("nope")


@pytest.mark.parametrize("lang", ["nl", "ro"])
def test_every_step_and_button_of_the_tutorial_is_in_each_language(lang):
    """The words of every step (title, text, what to do) and of the card's buttons exist
    in Dutch and Romanian, whole, with the same fields to fill."""
    import re

    from lang.i18n import translations
    tr = translations(lang)
    words = [w for st in script.STEPS for w in (st.title, st.text, st.task)]
    words += ["Learn to play  [L]", "Next  [N]", "Show me", "Skip tutorial", "Leave tutorial",
              "Play on  [N]", "Next move  [N]", "Now: {task}", "Step {n} of {total}",
              "Press Next move for the next one, or Play on.", "Leave the tutorial?"]
    for w in words:
        said = tr.gettext(w)
        assert said and said != w, f"{lang}: not translated: {w!r}"
        assert set(re.findall(r"{\w+}", said)) == set(re.findall(r"{\w+}", w)), (lang, w)
    for n in (1, 2, 20):
        assert "{n}" in tr.ngettext("You scored {n} point this year.",
                                    "You scored {n} points this year.", n)


def test_each_step_carries_its_own_check_of_what_is_missing():
    """Next ends a step once its own check (step_tasks.py) finds nothing missing: the plan
    step a plan that can be locked, the bid step a locked plan, a decision answered, the
    tower lesson's pour watched whole; an event step and the welcome at once."""
    from client.tutorial.step_tasks import TaskSeen
    nothing_done, problem = TaskSeen(), TaskSeen(problems=("Kii is used twice.",))
    unwatched = TaskSeen(pour_watched=False)
    said = {st.key: (st.check(nothing_done), st.check(problem), st.check(unwatched))
            for st in script.STEPS}
    assert said["board"] == ("", "", "")
    assert said["plan"][0] == "" and said["plan"][1].startswith("Kii is used twice. Or press Show me")
    assert said["bid"][0].startswith("press Enter") and said["bid"][1] == "Kii is used twice."
    assert said["battle"][:2] == ("", "") and said["battle"][2].startswith("Watch the cubes")
    for key in ("special", "move", "revolts"):       # answered, not passed with Next
        assert all(said[key]) and not script.step(key).ends_with_next, key
    for st in script.STEPS:
        if st.trigger.decision is None:
            assert st.ends_with_next and st.key == "battle" or said[st.key] == ("", "", ""), st.key
    assert [st.key for st in script.STEPS if st.ends_with_next and st.trigger.decision] == \
        ["board", "plan"]


def test_the_winter_and_scoring_steps_tell_the_players_own_figures():
    from client.tutorial.step_tasks import Figures
    winter, scoring = script.step("winter"), script.step("scoring")
    assert winter.fact(Figures(provinces=6, rice=5, rice_loss=2)) == (
        "You hold 6 provinces and have 5 rice. After losing 2 you keep 3 rice, 3 less than "
        "your provinces: some of them will revolt.")
    assert winter.fact(Figures(provinces=1, rice=4, rice_loss=1)).endswith(
        "you keep 3 rice, enough for your provinces.")
    assert scoring.fact(Figures(scored=None)) == ""
    assert scoring.fact(Figures(scored=7)) == "You scored 7 points this year."
    assert script.step("board").fact(Figures(provinces=6, rice=5, scored=7)) == ""
