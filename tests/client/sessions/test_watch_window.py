"""A spectator in the window (issue 27, item 5): before the start it shows the table's
lobby (not "Connecting…" for ever) and the host's lobby lists it; once the game runs it
names the people by their names, in the players panel and on chat lines, never "Bot
(Blue)". Real tables on loopback in this process, driven by the window's frames."""

from __future__ import annotations

from net.table.options import TableOptions
import pytest

from tests.client.conftest import frame, run_until, screenshot


@pytest.fixture
def table(app, monkeypatch):
    """Aiko hosts three seats (two bots) in the window; Chiyo watches from a second
    session in this process. Yields (host session, host lobby scene, watcher session)."""
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    host = NetSession.open(TableOptions("host", port=0, players=3, bots=2, name="Aiko"))
    app.session = host
    scene = LobbyScene(host, "host")
    app.show(scene)
    frame(app, 2)
    watcher = NetSession.open(TableOptions("watch", address=f"127.0.0.1:{host.table.listen_port}", code=host.table.join_code, name="Chiyo"))
    try:
        yield host, scene, watcher
    finally:
        watcher.close()
        app.close_session()


def test_a_watcher_sees_the_lobby_and_the_host_lists_it(app, table, shots):
    from client.scenes.lobby_scene import LobbyScene
    host, scene, watcher = table
    assert run_until(app, lambda: bool(watcher.lobby.seats), 20), watcher.status
    assert watcher.status != "Connecting…"
    assert watcher.labels()[0] == "Aiko (Blue)"
    assert run_until(app, lambda: host.watchers() == ["Chiyo"], 10)
    frame(app, 2)
    screenshot(app, shots / "lobby-host-with-watcher.png")
    assert any(t.text == "Watching: Chiyo" for t in scene.texts.labels.values())
    app.show(LobbyScene(watcher, "watch"))
    frame(app, 3)
    screenshot(app, shots / "lobby-watcher.png")


def test_a_watcher_names_the_people_in_the_game_and_on_chat_lines(app, table):
    from client.game.game_scene import GameScene
    host, scene, watcher = table
    assert run_until(app, lambda: len(host.table.spectators) == 1, 20)
    host.table.start_game()
    assert run_until(app, lambda: watcher.started and host.started, 20)
    labels = watcher.labels()
    assert labels[0] == "Aiko (Blue)" and labels[1] == "Bot (Orange)"
    game = GameScene(watcher, labels=labels, fast_forward=True)
    app.show(game)
    frame(app, 2)
    assert game.shared.labels[0] == "Aiko (Blue)"
    host.offers.send_chat("welcome")
    assert run_until(app, lambda: any("welcome" in line for line, _c in game.log.lines), 10)
    said = [line for line, _c in game.log.lines if "welcome" in line]
    assert said == ["Aiko (Blue): welcome"]


def test_a_watcher_who_comes_after_the_start_names_the_people_too(app, monkeypatch):
    """It never saw the lobby: the names come from the table's start record."""
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    from client.sessions.network import NetSession
    host = NetSession.open(TableOptions("host", port=0, players=3, bots=2, name="Aiko"))
    app.session = host
    watcher = None
    try:
        frame(app, 2)
        host.table.start_game()
        assert run_until(app, lambda: host.started, 20)
        watcher = NetSession.open(TableOptions("watch", address=f"127.0.0.1:{host.table.listen_port}", code=host.table.join_code, name="Chiyo"))
        assert run_until(app, lambda: watcher.started, 20), watcher.status
        assert watcher.labels() == {0: "Aiko (Blue)", 1: "Bot (Orange)", 2: "Bot (Black)"}
        assert watcher.names() == {0: "Aiko"}
    finally:
        if watcher is not None:
            watcher.close()
        app.close_session()


def test_a_host_without_a_chosen_name_is_named_like_any_player(app, monkeypatch):
    """Issue 27, item 13: the host was "Player" at the others' tables and "Blue" alone in
    its own log lines."""
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    from client.sessions.network import NetSession
    from lang.names import NAMES
    host = NetSession.open(TableOptions("host", port=0, players=3, bots=2, name="  "))
    app.session = host
    try:
        frame(app, 2)
        name = host.lobby.seats[0].name
        assert name in NAMES
        assert host.names() == {0: name}
        assert host.labels()[0] == f"{name} (Blue)"
    finally:
        app.close_session()
