"""A bot that thinks long does not freeze the window (issue 15, item 4): its decision is
computed in a worker thread, frames keep being drawn, and a badge names the seat."""

from __future__ import annotations

import time

import arcade

from tests.client.conftest import frame, run_until
from client.sessions.local_choice import LocalChoice


def test_a_slow_bot_keeps_the_window_drawing_and_shows_the_badge(app, monkeypatch):
    from sim import bots
    real = bots.choose
    slow = {"calls": 0}

    def thinking_long(state, seat, level, seed):
        slow["calls"] += 1
        time.sleep(0.6)                     # like the hard bot's search
        return real(state, seat, level, seed)

    scene = app.start_local(LocalChoice.one_level("easy", seed=8), fast=False)
    assert run_until(app, lambda: scene.planning.visible, 60)
    app.on_key_press(arcade.key.B, 0)                # suggest: a legal plan
    frame(app)
    assert not scene.planning.problems
    monkeypatch.setattr(bots, "choose", thinking_long)
    seen = []
    app.on_key_press(arcade.key.ENTER, 0)            # lock; held 4 s, bots plan meanwhile
    frames, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < 1.5:
        frame(app)
        frames += 1
        if scene.thinking.visible:
            seen.append(scene.thinking.seat)
    assert slow["calls"] >= 1
    assert seen and seen[0] in (1, 2, 3), "no thinking badge while the bot thought"
    # a blocking call would give about 2 frames in 1.5 s (0.6 s each); off the frame, dozens
    assert frames >= 20, f"only {frames} frames in 1.5 s: the window froze"
