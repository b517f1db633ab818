"""Continue and the replay viewer keep the table (issue 27, item 2): after Continue the
tower shows the cubes the state has inside and the log tells the game so far; in the
replay viewer a seek shows that season's tower and the log up to the seek point."""

from __future__ import annotations

import arcade
import pytest

from client.words.describe import describe
from tests.client.conftest import frame, screenshot
from tests.client.conftest import run_until as _run_until


@pytest.fixture
def full_save(tmp_path):
    import main
    save = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "6", "--quiet", "--save", str(save)]) == 0
    return save


def _shown(scene, state) -> int:
    """Cubes the state has at rest: inside the tower and in the tray."""
    return len(state.tower.cubes) + sum(state.tray)


def _lines(scene) -> list[str]:
    return [line for line, _colour in scene.log.lines]


def test_continue_shows_the_tower_contents_and_the_log_so_far(app, home, full_save, shots):
    from store.game_save import read_save
    saved = read_save(full_save)
    # a game left mid-way: the header and its first 90 commands (a few battles in)
    rows = full_save.read_text().splitlines()
    cut = home / "mid.save"
    cut.write_text("\n".join(rows[:91]) + "\n")
    app.load_save(str(cut))
    scene = app.scene
    assert scene.name == "game"
    seen = []     # when the resumed table is first shown
    infos = []

    def shown() -> None:
        if not seen:
            seen.append((scene.tower.cubes_shown, _shown(scene, app.session.state), _lines(scene)))
            scene.refresh_info()
            infos.extend(str(line) for line in scene.info.lines)
    scene.player.display_changed.connect(shown)
    assert _run_until(app, lambda: bool(seen), 20)
    frame(app, 2)
    screenshot(app, shots / "continue-restored.png")
    drawn, expected, lines = seen[0]
    assert infos and not [line for line in infos if "— tower" in line], infos
    assert expected > 0
    assert drawn == expected, "the tower is drawn as the state has it"
    lines = _lines(scene)
    assert lines[-1] == "The saved game continues."
    assert len(lines) > 40, "the log tells the game so far"
    assert any("tower" in line.lower() for line in lines[:-1])
    assert len(saved.commands) > 90


def test_a_replay_seek_shows_that_seasons_tower_and_the_log_up_to_there(app, home, full_save, shots):
    from sim.game import apply, new_game
    from store.game_save import read_save
    saved = read_save(full_save)
    app.replay_log(str(full_save))
    scene = app.scene
    rounds = app.session.round_starts()
    app.on_key_press(arcade.key.PAGEDOWN, 0)
    app.on_key_press(arcade.key.PAGEDOWN, 0)
    app.on_key_press(arcade.key.PAGEDOWN, 0)
    frame(app, 2)
    step = rounds[3]
    state, events = new_game(saved.config)
    past = list(events)
    for cmd in saved.commands[:step]:
        state, events = apply(state, cmd)
        past.extend(events)
    assert scene.replay_controls.shown_step() == step
    assert scene.tower.cubes_shown == _shown(scene, state) > 0
    expected = [line for line in (describe(e) for e in past) if line]
    lines = _lines(scene)
    assert lines[:-1] == expected[-(len(lines) - 1):], "the log goes up to the seek point"
    assert lines[-1].startswith("Replay: at step")
    # and back: the log is cut to the earlier point, not added to
    app.on_key_press(arcade.key.PAGEUP, 0)
    frame(app)
    assert len(_lines(scene)) < len(lines)
    screenshot(app, shots / "replay-seek-restored.png")
