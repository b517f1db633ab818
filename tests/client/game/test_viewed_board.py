"""The board a table shows while a batch plays is the engine's public view after each event
(issue 35 item 2): the session hands the scene `sim.viewed.apply_viewed`'s views and the
scene shows them, instead of re-deriving the board from the events by hand (armies moved,
survivors, buildings cleared), which left unrest and buildings from actions to the
batch's end. Checked province by province over a bot game played through a local session
in the window, against the views of the same commands applied once more here."""

from __future__ import annotations

import copy
from typing import Any

from client.sessions.local import LocalSession
from sim.game import new_game
from sim.viewed import apply_viewed
from tests.client.conftest import run_until

STEPS = 150


def test_the_board_shows_the_engines_view_after_every_event(app) -> None:
    session = LocalSession(players=3, human_seats=(), bot="random", seed=5)
    scene = app.play(session, {0: "Blue", 1: "Orange", 2: "Black"}, fast=True)
    shown: list[tuple[str, dict[str, Any]]] = []
    play_event = scene.player.play_event

    def recorded(e: Any) -> None:
        play_event(e)
        board = scene.board_view.state or {}
        shown.append((str(e.get("event")), copy.deepcopy(board.get("provinces") or {})))

    scene.player.play_event = recorded
    assert run_until(app, lambda: (len(session.commands) >= STEPS and not scene.player.behind)
                     or scene.shared.over, 240)

    state, first = new_game(session.config)
    expected: list[tuple[str, dict[str, Any]]] = []
    for command in session.commands:
        state, events, views = apply_viewed(state, command)
        expected += [(str(e["event"]), dict(v["provinces"])) for e, v in zip(events, views)]
    after_setup = shown[len(first):]       # the set-up is no engine step: it has no views
    assert len(after_setup) >= 300
    assert [kind for kind, _ in after_setup] == [kind for kind, _ in expected[:len(after_setup)]]
    differing = [(n, kind, name) for n, ((kind, board), (_, view))
                 in enumerate(zip(after_setup, expected))
                 for name in view if board.get(name) != view[name]]
    assert differing == []
