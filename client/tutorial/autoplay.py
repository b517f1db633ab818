"""The script's player at the window: presses the coach's buttons and answers each
decision through the table's own controls (Show me, Enter, the decision panel, clicks on
the map) with the script's choices, one frame at a time.

Why in the package: the window test and the screenshot tool (`tools/tutorial_screenshots.py`)
walk the tutorial the same way, and the choices are the script's (`scripted_game`), so
the window reaches the same steps as the headless test.

Tests: tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from client.tutorial.scripted_game import scripted_choice
from sim.commands import ChooseMove, OrderRevolts, PickSpecial, SubmitPlan
from client.tutorial.coach import TutorialCoach

if TYPE_CHECKING:
    from client.game.game_scene import GameScene
    from client.tutorial.coach import TutorialCoach


def coach_of(scene: GameScene) -> TutorialCoach:
    found = [c for c in scene.children if isinstance(c, TutorialCoach)]
    if not found:
        raise ValueError("this table has no tutorial coach (start it with App.start_tutorial)")
    return found[0]


def answer(scene: GameScene) -> bool:
    """Answer the decision the table shows the player with the script's choice, through
    the controls a player uses; False when nothing is asked now."""
    asking = scene.asking
    state = scene.session.state
    if asking is None or state is None or scene.comforts.blocking:
        return False
    cmd = scripted_choice(state, asking[1])
    if isinstance(cmd, SubmitPlan):
        if scene.asker.held is not None:
            scene.on_key_press(arcade.key.ENTER, 0)        # open the plans now
            return True
        scene.planning.load(cmd.actions, cmd.bid)          # as Show me / Suggest do
        scene.planning.locked.emit(*scene.planning.plan())  # Lock plan
        if scene.asker.held is not None:
            scene.on_key_press(arcade.key.ENTER, 0)        # open the plans now
    elif isinstance(cmd, PickSpecial):
        scene.decision.chosen.emit(cmd.position, None)
    elif isinstance(cmd, ChooseMove):
        if cmd.target is None:
            scene.decision.chosen.emit("stay", None)
        else:
            scene.asker.province_clicked(cmd.target)         # a click on the map
            scene.decision.chosen.emit("go", cmd.count)
    elif isinstance(cmd, OrderRevolts):
        for p in cmd.provinces:
            scene.asker.province_clicked(p)
        if scene.asking is not None:
            scene.decision.chosen.emit("done", None)
    else:
        raise ValueError(f"the tutorial's player has no answer for {type(cmd).__name__}")
    return True


def step_on(scene: GameScene) -> str | None:
    """One move of the script's player at the tutorial: Next on a step card (Show me
    first on the plan step), Next move between opponents' moves, Enter on a battle's
    result card (it waits for the player since issue 36), or the answer to a
    decision. Returns the key of the step on show (None between steps)."""
    coach = coach_of(scene)
    st = coach.progress.current
    if scene.comforts.blocking:
        return st.key if st else None
    if scene.player.result_shown:
        scene.on_key_press(arcade.key.ENTER, 0)    # the battle's result card: Continue [Enter]
        return st.key if st else None
    if st is not None:
        if st.can_show:
            coach.show_me()
        if st.ends_with_next:
            coach.next()
        else:
            answer(scene)
    elif coach.waiting_move:
        coach.next()
    else:
        answer(scene)
    return st.key if st else None
