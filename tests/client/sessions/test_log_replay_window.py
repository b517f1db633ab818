"""Replaying a JSON game log in the window (issue 37, item 8): the table is set up at
once (it showed an empty map, an empty players panel and " of year 1" for seconds), and
the keys that step through a save say that a log plays forward only (they did nothing)."""

from __future__ import annotations

import arcade

from tests.client.conftest import frame, screenshot


def test_a_game_log_shows_the_table_at_once_and_says_it_plays_forward_only(app, tmp_path,
                                                                           shots):
    import main
    log = tmp_path / "g.json"
    assert main.main(["headless", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    app.replay_log(str(log))
    scene = app.scene
    assert scene.name == "game", getattr(scene, "message", "")
    frame(app, 3)
    d = scene.display or {}
    owned = [p for p in (d.get("provinces") or {}).values() if p.get("owner") is not None]
    assert len(owned) >= 20, "the map is empty"
    assert scene.players.state and len(scene.players.state["players"]) == 4
    assert scene.topbar.info["title"].startswith("Shogun — year 1")
    assert all(not line.startswith(" of") for line in scene.info.lines), scene.info.lines
    screenshot(app, shots / "log-replay-start.png")
    for key in (arcade.key.LEFT, arcade.key.PAGEUP, arcade.key.PAGEDOWN, arcade.key.HOME):
        before = len(scene.log.lines)
        app.on_key_press(key, 0)
        frame(app)
        said = [line for line, _ in scene.log.lines[before:]]
        assert any("forward only" in line for line in said), (key, said)
    app.show_menu()
