"""The replay viewer's "Film this battle" (issue 28 item 5): the last battle shown is
filmed into the films folder by a process of its own, and the log says when it is ready;
it is the command line's film (issue 36 item 5: an MP4 when imageio-ffmpeg is there)."""

from __future__ import annotations

import time

import arcade
import pytest

from tests.client.conftest import frame, run_until


@pytest.mark.slow
def test_the_viewer_films_the_last_battle_shown(app, tmp_path):
    import main
    save = tmp_path / "g.save"
    assert main.main(["headless", "--seed", "3", "--quiet", "--save", str(save)]) == 0
    app.replay_log(str(save))
    scene = app.scene
    ctl = scene.replay_controls
    assert ctl is not None and ctl.film_btn.visible
    app.on_key_press(arcade.key.G, 0)                  # at the start: no battle yet
    assert "No battle has been fought yet" in scene.log.lines[-1][0]
    for _ in range(3):
        app.on_key_press(arcade.key.PAGEDOWN, 0)
    n = app.session.battles_until(ctl.shown_step())
    assert n >= 1
    out = ctl.film()
    assert out is not None and f"Filming battle {n} into" in scene.log.lines[-1][0]
    t0 = time.time()
    while ctl.filming is not None and time.time() - t0 < 180:
        ctl.poll()
        frame(app)
        time.sleep(0.05)
    assert scene.log.lines[-1][0] == f"The film is ready: {out}"
    # the command line's film: an MP4 of the battle scene at 1280x720
    from tests.client.film.test_battle_film import _probe
    assert out.suffix == ".mp4"
    codec, size, seconds, _frames = _probe(out)
    assert codec == "h264" and size == (1280, 720) and seconds >= 6.0


@pytest.mark.parametrize("W,H", [(960, 640), (1920, 1080)])
def test_the_film_button_keeps_off_the_battle_towers_heading(app, tmp_path, W, H, shots):
    """Issue 37, item 12: "Film this battle [G]" covered the "Battle tower" heading; it
    sits beside the Rules button, on the map's bottom edge."""
    import main
    save = tmp_path / "g.save"
    assert main.main(["headless", "--seed", "3", "--quiet", "--save", str(save)]) == 0
    try:
        app.set_size(W, H)
        app.on_resize(W, H)
        app.replay_log(str(save))
        scene = app.scene
        app.on_key_press(arcade.key.PAGEDOWN, 0)          # past the tower's fill (the big view)
        b, t, board = scene.replay_controls.film_btn, scene.tower, scene.board_view
        assert run_until(app, lambda: b.visible, 30)
        assert b.right <= t.left or b.top <= t.bottom, "over the tower's column"
        assert board.left <= b.left and b.right <= board.right and board.bottom <= b.bottom
        h = scene.help_btn
        assert h.right <= b.left, "over the Rules button"
        frame(app, 2)
        label = b.texts.labels["l"]
        assert label.font_size * 96 / 72 >= 11 and label.right <= b.right
        from client.core.damage import damage
        from tests.client.conftest import screenshot
        damage()                                          # a whole frame, not the tower's part
        screenshot(app, shots / f"replay-{W}x{H}.png")
    finally:
        app.show_menu()
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
