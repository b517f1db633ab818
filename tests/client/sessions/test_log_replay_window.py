"""Replaying a JSON game log in the window (issue 37 item 8, issue 49 item 7).

Issue 37: the table is set up at once (it showed an empty map, an empty players panel and
" of year 1" for seconds). Issue 49: `./shogun replay game.jsonl` showed about 3 s of an
empty window, then the map, the tower's fill on the large stage, the map again; and the
keys that step through a save were refused ("A game log plays forward only"). Now the
window opens on the table as its first round begins (the fill's cubes resting in the
tower, the fill not played), and a log seeks both ways like a save."""

from __future__ import annotations

from pathlib import Path

import arcade
import pytest

from tests.client.conftest import frame, run_until, screenshot


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    import main
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main.main(["headless", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    return log


def _owned(scene) -> dict[str, tuple[object, object]]:
    d = scene.display or {}
    return {name: (p.get("owner"), p.get("armies")) for name, p in (d.get("provinces") or {}).items()}


def test_a_game_log_opens_on_its_table_without_the_fill_on_the_stage(app, game_log, shots):
    app.replay_log(str(game_log))
    scene = app.scene
    assert scene.name == "game", getattr(scene, "message", "")
    frame(app)
    owned = [p for p in _owned(scene).values() if p[0] is not None]
    assert len(owned) >= 20, "the map is empty on the first frame"
    assert scene.players.state and len(scene.players.state["players"]) == 4
    assert scene.topbar.info["title"].startswith("Shogun — year 1")
    assert all(not line.startswith(" of") for line in scene.info.lines), scene.info.lines
    assert scene.tower.cubes_shown > 0, "the fill's cubes are not in the tower"
    screenshot(app, shots / "log-replay-start.png")
    # the opening plays on: the round's first steps, and never the large stage (the fill
    # played after the map was shown: map, tower, map)
    big = False

    def first_action() -> bool:
        nonlocal big
        big = big or scene.tower.big
        return scene.session.step >= 8
    assert run_until(app, first_action, 60)
    assert not big, "the tower's large stage opened at the start of the replay"
    app.show_menu()


def test_a_game_log_seeks_back_and_forth_like_a_save(app, game_log):
    app.replay_log(str(game_log))
    scene = app.scene
    session = scene.session
    assert scene.replay_controls is not None, "a game log cannot be studied"
    scene.fast = True
    scene.paused = True
    key = arcade.key
    # forward, a step at a time (→): the board as each step left it, played event by event
    seen = {0: _owned(scene)}
    for _ in range(30):
        app.on_key_press(key.RIGHT, 0)
        assert run_until(app, lambda: not scene.player.behind and scene.paused, 30)
        seen[session.step] = _owned(scene)
    assert session.step == 30
    here = scene.replay_controls.shown_step()
    app.on_key_press(key.LEFT, 0)          # one step back
    frame(app)
    assert session.step == here - 1 and scene.paused
    assert _owned(scene) == seen[here - 1]
    assert "step" in scene.topbar.info["status"] and str(here - 1) in scene.topbar.info["status"]
    app.on_key_press(key.HOME, 0)          # the start: the table as the first round begins
    frame(app)
    assert session.step == 0 and _owned(scene) == seen[0]
    app.on_key_press(key.PAGEDOWN, 0)      # the next round
    frame(app)
    rounds = session.round_starts()
    assert len(rounds) > 3 and session.step == rounds[1] > 0
    app.on_key_press(key.PAGEDOWN, 0)
    frame(app)
    assert session.step == rounds[2]
    app.on_key_press(key.PAGEUP, 0)        # and back a round
    frame(app)
    assert session.step == rounds[1]
    # forward a step from there plays it (its events animate), then pauses again
    app.on_key_press(key.RIGHT, 0)
    assert run_until(app, lambda: not scene.player.behind and scene.paused, 30)
    assert session.step == rounds[1] + 1
    lines = [line for line, _ in scene.log.lines]
    assert not any("forward only" in line for line in lines), lines[-5:]
    app.show_menu()


def test_a_log_seek_lands_on_each_snapshot_and_the_next_drops_tower(game_log):
    """Headless: a seek to a step that ends with one of the log's Snapshots shows that
    Snapshot's state, and the tower's contents there are those the next drop starts from;
    going back and forth gives the same table again."""
    from client.sessions.replay import ReplaySession
    session = ReplaySession(str(game_log))
    events = session._events
    bounds = session._bounds
    checked = 0
    for k in range(1, session.steps + 1):
        end = bounds[k]
        if events[end - 1]["event"] == "Snapshot" and end < len(events):
            sought = session.seek(k)
            assert dict(sought.public) == events[end - 1]["state"], k
            drop = next((e for e in events[end:] if e["event"] == "TowerDropped"), None)
            # after the last drop: that drop re-run (its cubes are still inside)
            assert sought.tower == drop["replay"]["before"] if drop else len(sought.tower) > 5
            assert session.seek(k - 3) != sought and session.seek(k) == sought
            checked += 1
    assert checked >= 5
    assert session.seek(0).past[-1]["event"] == "Snapshot"
    assert session.seek(10 ** 6).past[-1]["event"] == "GameEnded"


def test_a_log_opens_on_a_drawn_table_within_a_second_of_cpu(game_log):
    """`main.py replay LOG` as its own process (benchmarks/bench_replay_open.py): the
    first frame the window draws shows the table set up, it comes within 2 s of the
    process's CPU time after the window opens (it was ~3 s: the network's and the table's
    imports and the map's triangles under an open, empty window; ~1 s now, BENCHMARKS.md),
    and the large stage does not open in the first 3 s (the fill played after the map)."""
    from benchmarks.bench_replay_open import opening
    seen = opening(game_log)
    assert int(seen["owned"] or 0) >= 20, seen
    cpu = float(seen["first_cpu"] or 0) - float(seen["window_cpu"] or 0)
    assert cpu < 2.0, seen
    assert not seen["big"], seen
