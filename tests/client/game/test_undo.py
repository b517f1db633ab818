"""Undo where the rules allow it (issue 27, item 17b; Board Game Arena's rule: never across
another player's action, hidden information or chance): what I put on the planning fields,
a move's target and count, a revolt order's provinces can be taken back with Ctrl+Z or the
Undo button until they are sent to the table; nothing reaches the engine meanwhile."""

from __future__ import annotations

import arcade
import pytest

from client.core import theme
from client.sessions.interface import Batch
from sim.game import state_hash
from tests.client.conftest import frame, until_move_decision, screenshot, to_my_plan
from tests.client.conftest import run_until as _run_until
from client.sessions.local_choice import LocalChoice

CTRL_Z = (arcade.key.Z, arcade.key.MOD_CTRL)


def test_the_plans_fields_step_back_one_change_at_a_time(app, shots):
    scene = to_my_plan(app)
    panel = scene.planning
    before = state_hash(app.session.state)
    assert not panel.undo_btn.active                    # nothing to take back yet
    cards = [c for c, _ in panel.card_rects() if isinstance(c, str)]
    empty = dict(panel.fields)
    panel.assign("tax", cards[0])
    panel.assign("rice", cards[1])
    panel.assign("rice", cards[2])                      # cards[1] goes back to the hand
    assert panel.undo_btn.active
    frame(app, 2)
    screenshot(app, shots / "planning-undo.png")
    app.on_key_press(*CTRL_Z)
    assert panel.fields["rice"] == cards[1] and panel.fields["tax"] == cards[0]
    panel.undo_btn.pressed.emit()                       # the visible button does the same
    assert panel.fields["rice"] is None and panel.fields["tax"] == cards[0]
    app.on_key_press(*CTRL_Z)
    assert panel.fields == empty and not panel.undo_btn.active
    app.on_key_press(*CTRL_Z)                           # nothing left: nothing happens
    assert panel.fields == empty
    # a whole suggestion, and Clear, are one change each
    app.on_key_press(arcade.key.B, 0)
    suggested = dict(panel.fields)
    assert suggested != empty
    app.on_key_press(arcade.key.C, 0)
    assert panel.fields == empty
    app.on_key_press(*CTRL_Z)
    assert panel.fields == suggested
    app.on_key_press(*CTRL_Z)
    assert panel.fields == empty
    assert state_hash(app.session.state) == before      # nothing went to the table
    assert scene.asking and scene.asking[0] == "plan"


def test_a_moves_count_and_target_are_taken_back_before_go(app, shots):
    scene = app.start_local(LocalChoice.one_level("heuristic", seed=11), fast=True)
    assert until_move_decision(app, scene), "never asked where to move"
    from sim import game
    before = state_hash(app.session.state)
    d = game.pending(app.session.state)
    target, most = max(d.detail["targets"].items(), key=lambda kv: kv[1])
    first_prompt = [o[0] for o in scene.decision.options]
    scene.asker.province_clicked(target)                # the pick
    assert scene.asker.move_target == target
    assert any(o[1] == "undo" for o in scene.decision.options), "a visible Undo button"
    counter = scene.decision.counter
    assert counter is not None and counter[3] == most
    if most > 1:
        app.on_key_press(arcade.key.DOWN, 0)            # the count
        assert scene.decision.counter[3] == most - 1
        app.on_key_press(*CTRL_Z)
        assert scene.decision.counter[3] == most
        assert scene.asker.move_target == target, "one Ctrl+Z took back the count and the pick"
    frame(app, 2)
    screenshot(app, shots / "move-undo.png")
    app.on_key_press(*CTRL_Z)                           # the pick: back to the first question
    assert scene.asker.move_target is None
    assert [o[0] for o in scene.decision.options] == first_prompt
    assert scene.asking and scene.asking[0] == "move"
    assert state_hash(app.session.state) == before      # nothing went to the table
    scene.asker.province_clicked(target)                # and the move can still be made
    scene.decision.chosen.emit("go", 1)
    assert state_hash(app.session.state) != before


def test_a_revolt_orders_last_province_is_taken_back(app):
    """Winter: Orange orders its revolts; Ctrl+Z (or Undo) takes the last province back
    out of the order, and only Done sends it."""
    from client.sessions.local import LocalSession
    from sim.game import apply, pending
    from tests.sim.scenario import at_plan, begin_winter, chance
    s2, _ = begin_winter(at_plan(), 7, rice={0: 20, 1: 5, 2: 20, 3: 20})
    state, _ = apply(s2, chance("rv"))
    assert pending(state).kind == "revolt_order" and pending(state).seats == (1,)
    session = LocalSession(4, "sun", "beginner", (1,), {s: "heuristic" for s in (0, 2, 3)}, 1)
    session.game.state = state
    session.queue.clear()
    session.queue.append(Batch([], state))
    scene = app.play(session, {s: f"seat {s}" for s in range(4)})
    assert _run_until(app, lambda: scene.asking is not None and scene.asking[0] == "revolt_order", 20)
    provinces = list(pending(state).detail["provinces"])
    assert len(provinces) == 2 and not any(o[1] == "undo" for o in scene.decision.options)
    scene.asker.province_clicked(provinces[1])
    assert scene.asker.revolt_order == [provinces[1]]
    assert any(o[1] == "undo" for o in scene.decision.options), "a visible Undo button"
    app.on_key_press(*CTRL_Z)
    assert scene.asker.revolt_order == [] and scene.asking[0] == "revolt_order"
    scene.asker.province_clicked(provinces[0])
    scene.asker.province_clicked(provinces[1])
    assert pending(app.session.state).kind == "revolt_order"    # not sent before Done
    app.on_key_press(*CTRL_Z)
    assert scene.asker.revolt_order == [provinces[0]]
    scene.asker.province_clicked(provinces[1])
    app.on_key_press(arcade.key.ENTER, 0)               # Done: the order goes to the table
    assert pending(app.session.state).kind != "revolt_order"
    assert any(getattr(c, "provinces", None) == (provinces[0], provinces[1]) for c in app.session.commands)


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_go_before_a_target_says_what_is_missing_and_that_a_battle_has_no_pass(app, shots,
                                                                                lang):
    """Issue 37, item 10: Enter (Go) on Battle/move A or B before a province was clicked
    did nothing, silently, and nothing said there is no pass (R-EXEC-3: an action is
    carried out when it can be; R-EXEC-10: at least 1 army moves). Deploy 1's move may
    stay (R-EXEC-9): there Enter says so and names the Don't move button. At 960x640 the
    sentence is read whole, above the buttons (its third line hid behind them)."""
    from lang.i18n import _, use
    use(lang)
    app.set_size(960, 640)
    app.on_resize(960, 640)
    try:
        _go_before_a_target(app, shots, lang, _)
    finally:
        use("en")
        app.show_menu()
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def _go_before_a_target(app, shots, lang, _):
    from client.sessions.local import LocalSession
    from sim.commands import ACTIONS
    from sim.game import pending
    from tests.sim.scenario import at_plan, begin_exec, place, plan
    s = at_plan()
    place(s, "Shinano", 0, 5)
    place(s, "Mikawa", 0, 3)
    state, _events = begin_exec(s, {0: plan(0, deploy1="Shinano", battle_a="Mikawa")},
                          actions=["deploy1", "battle_a"] + [a for a in ACTIONS if a not in
                                                             ("deploy1", "battle_a")])
    assert pending(state).kind == "move" and pending(state).detail["optional"]
    session = LocalSession(4, "sun", "beginner", (0,), {s: "heuristic" for s in (1, 2, 3)}, 1)
    session.game.state = state
    session.queue.clear()
    session.queue.append(Batch([], state))
    scene = app.play(session, {s: f"seat {s}" for s in range(4)})
    said = {}
    for optional in (True, False):          # Deploy 1's move, then Battle/move A's
        assert _run_until(app, lambda: scene.asking is not None and scene.asking[0] == "move"
                          and pending(app.session.state).detail["optional"] is optional, 30)
        stay = [k + 1 for k, o in enumerate(scene.decision.options) if o[1] == "stay"]
        before = state_hash(app.session.state)
        prompt = scene.decision.prompt
        app.on_key_press(arcade.key.ENTER, 0)
        frame(app, 2)
        said[optional] = scene.decision.prompt
        p = scene.decision.texts.labels["p"]           # whole, 11 px or more, above the buttons
        assert p.text == said[optional] and p.font_size >= theme.SMALLEST_TYPE, p.text
        assert p.bottom >= max(b.top for b in scene.decision._buttons), (p.bottom, p.text)
        assert said[optional] != prompt
        assert _("First click a highlighted province: where your armies go.") in said[optional]
        assert scene.asking and scene.asking[0] == "move"
        assert state_hash(app.session.state) == before
        if optional:
            assert stay == [2] and _("Don't move") + " [2]" in said[True], said[True]
            app.on_key_press(arcade.key.KEY_2, 0)       # and Don't move does that
            frame(app, 2)
        else:
            assert not stay, "a Battle/move has no Don't move"
            screenshot(app, shots / f"move-go-before-a-target-{lang}.png")
            scene.asker.province_clicked(min(pending(app.session.state).detail["targets"]))
            frame(app)                     # a target picked: the move's question again
            assert scene.decision.prompt == prompt, scene.decision.prompt
    no_pass = _("A Battle/move action is carried out whenever it can be: there is no pass.")
    assert no_pass in said[False] and no_pass not in said[True], said


def test_one_ctrl_z_takes_back_one_thing_in_a_move(app, shots):
    """Issue 37, item 12: one Ctrl+Z in a move cleared both the count and the target. Each
    Ctrl+Z takes back the last change only: a count step, or a change of target (back to
    the target before, with the count it had); a click on the chosen target again changes
    nothing (it set the count back to the most, and the count's steps were lost)."""
    from sim import game
    scene = app.start_local(LocalChoice.one_level("heuristic", seed=11), fast=True)
    for _ in range(12):
        assert until_move_decision(app, scene), "never asked where to move"
        targets = game.pending(app.session.state).detail["targets"]
        if max(targets.values()) > 2 and len(targets) > 1:
            break
        scene.asker.province_clicked(min(targets))       # a move of one army: on
        scene.decision.chosen.emit("go", 1)
        frame(app)
    target, most = max(targets.items(), key=lambda kv: kv[1])
    other = next(t for t in sorted(targets) if t != target)
    assert most > 2, "no move of three armies or more came"
    before = state_hash(app.session.state)

    def shown():
        frame(app, 3)
        return scene.asker.move_target, scene.decision.counter[3]
    scene.asker.province_clicked(target)
    assert shown() == (target, most)
    app.on_key_press(arcade.key.DOWN, 0)
    app.on_key_press(arcade.key.DOWN, 0)
    assert shown() == (target, most - 2)
    scene.asker.province_clicked(target)                # the same target again: no change
    assert shown() == (target, most - 2), "a click on the chosen target reset its count"
    app.on_key_press(*CTRL_Z)
    assert shown() == (target, most - 1), "one Ctrl+Z took back more than the last count"
    scene.asker.province_clicked(other)                 # another target: one change
    assert shown() == (other, targets[other])
    app.on_key_press(*CTRL_Z)
    assert shown() == (target, most - 1), "one Ctrl+Z took back the new target and the count"
    screenshot(app, shots / "move-undo-one-step.png")
    app.on_key_press(*CTRL_Z)
    assert shown() == (target, most)
    app.on_key_press(*CTRL_Z)                           # now the target
    frame(app, 3)
    assert scene.asker.move_target is None and scene.asking[0] == "move"
    assert state_hash(app.session.state) == before
