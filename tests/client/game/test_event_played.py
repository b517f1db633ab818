"""The table signals up each event as it is shown (issue 50): `GameScene.event_played(event,
coming)`, in the order the session's batches hold them, with the rest of the event's batch
still to come (the tutorial's coach follows the game by it, instead of diffing the
scene's batch every frame). Checked over a bots' game played through a local session in
the window, against the events of the same commands applied once more here."""

from __future__ import annotations

from collections.abc import Sequence

from client.core.played import Played, kind_of
from client.sessions.local import LocalSession
from sim.game import new_game
from sim.viewed import apply_viewed
from tests.client.conftest import run_until

STEPS = 60


def test_each_event_is_signalled_once_in_order_with_the_rest_of_its_batch(app) -> None:
    session = LocalSession(players=3, human_seats=(), bot="random", seed=5)
    scene = app.play(session, {0: "Blue", 1: "Orange", 2: "Black"}, fast=True)
    played: list[tuple[Played, list[Played]]] = []

    def seen(e: Played, coming: Sequence[Played]) -> None:
        played.append((e, list(coming)))

    scene.event_played.connect(seen)
    assert run_until(app, lambda: (len(session.commands) >= STEPS and not scene.player.behind)
                     or scene.shared.over, 240)

    state, expected = new_game(session.config)
    batches = [list(expected)]
    for command in session.commands:
        state, events, _views = apply_viewed(state, command)
        batches.append(list(events))
    assert len(played) >= 100
    # every event once, in order, each with exactly what follows it in its batch
    wanted = [(kind_of(e), [kind_of(x) for x in b[i + 1:]]) for b in batches
              for i, e in enumerate(b)]
    got = [(kind_of(e), [kind_of(x) for x in coming]) for e, coming in played]
    assert got == wanted[:len(got)]
    assert len(wanted) - len(got) <= len(batches[-1])     # at most the last batch still playing
