"""Clicking a province the armies cannot reach says why, in the game window (issue 13:
"Clicking Owari to attack from Omi does nothing and says nothing")."""

from __future__ import annotations

import arcade

from tests.client.conftest import frame, until_move_decision
from tests.client.conftest import run_until as _run_until
from client.sessions.local_choice import LocalChoice


def test_a_click_outside_the_targets_is_explained_in_the_log(app):
    scene = app.start_local(LocalChoice.one_level("heuristic", seed=11), fast=True)
    # plan with the bot's suggestion until a move decision comes (answering anything else)
    assert until_move_decision(app, scene), "never asked where to move"
    from sim import game
    d = game.pending(app.session.state)
    origin, targets = d.detail["from"], d.detail["targets"]
    b = scene.board_view.board
    far = next(n for n in b.names if n != origin and n not in targets
               and n not in b.neighbours[app.session.config.side][origin])
    before = len(scene.log.lines)
    x, y = scene.board_view.province_centre(far)
    assert scene.board_view.province_at(x, y) == far
    app.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
    app.on_mouse_release(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
    frame(app)
    new = [line for line, _ in scene.log.lines[before:]]
    assert any(line.startswith(f"{far} does not border {origin}.") for line in new), new
    assert scene.asking and scene.asking[0] == "move"      # still waiting for a real target
