"""A present player whose window is busy building the game scene is not counted as gone
(issue 34 item 2). The window hosts, two headless players join as processes on
127.0.0.1; the map's triangulation is slowed to what a loaded machine does (about 7 s in
all, over the players' 5 s silence limit), as in a LAN play-test where host and joiner
each logged the other "silent for 36 s: counted as dropped".

Before: the scene was built inside one frame, the reactor did not run, and the joiners
counted the host as dropped. Now the window keeps the network beating between the steps
of its work (`client.core.beating`)."""

from __future__ import annotations

from net.table.options import TableOptions
import time

import arcade
import pytest

from tests.client.conftest import run_until
from tests.net import processes as P

SLOW_PROVINCE = 0.15      # seconds per province (46 of them): ~7 s, over SILENT_AFTER


def _joiner(tmp_path, port: int, code: str, name: str) -> P.Peer:
    return P.Peer(name, ["join", f"127.0.0.1:{port}", "--code", code, "--headless",
                         "--rejoin-timeout", "60", "--save", str(tmp_path / f"{name}.save")],
                  tmp_path)


@pytest.mark.network           # real processes: run with --runslow (about 20 s)
def test_a_window_busy_building_the_game_is_not_counted_as_dropped(app, tmp_path,
                                                                   monkeypatch):
    from client.board import shapes
    from net.table.liveness import SILENT_AFTER
    real_earclip = shapes.earclip

    def slow_earclip(points):
        time.sleep(SLOW_PROVINCE)
        return real_earclip(points)
    assert SLOW_PROVINCE * 46 > SILENT_AFTER
    app.start_net(TableOptions("host", players=3, side="sun", setup="beginner", bots=0, port=0))
    table = app.session.table
    peers = [_joiner(tmp_path, table.listen_port, table.join_code, f"guest{i}")
             for i in range(2)]
    try:
        assert run_until(app, table.lobby_full, 60), \
            "\n".join(p.text() + p.errors()[-1500:] for p in peers)
        monkeypatch.setattr(shapes, "earclip", slow_earclip)
        shapes.load_shapes.cache_clear()         # built again, slowly, at the start
        app.on_key_press(arcade.key.ENTER, 0)    # start the game
        assert run_until(app, lambda: app.scene.name == "game", 60)
        run_until(app, lambda: False, 3)         # and a few seconds of play
        said = "".join(p.errors() for p in peers)
        assert "game started" in "".join(p.text() for p in peers)
        assert "silent for" not in said, said[-3000:]
        assert not table.offline_seats
    finally:
        shapes.load_shapes.cache_clear()
        app.show_menu()                          # leaving closes the table
        for p in peers:
            p.kill()
        time.sleep(0.1)
