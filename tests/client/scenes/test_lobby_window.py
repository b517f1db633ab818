"""The host's lobby in the window with a real network table (loopback, no router asked):
each bot seat's level is chosen there and reaches the table, the join lines come from
every address the table can be reached at, and Start goes through the reachability
check (issue 15 item 1, issue 16 items 1 and 4)."""

from __future__ import annotations

from net.table.options import TableOptions
from contextlib import contextmanager

import pytest

from tests.client.conftest import frame, run_until


@contextmanager
def hosted_lobby(app, monkeypatch, bots):
    """Aiko hosts a three-seat table with `bots` bot seats; yields (app, session, scene) with
    the lobby shown, and closes the table after."""
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")        # no router outside this machine
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    session = NetSession.open(TableOptions("host", port=0, players=3, bots=bots, name="Aiko"))
    app.session = session
    scene = LobbyScene(session, "host")
    app.show(scene)
    frame(app, 2)
    try:
        yield app, session, scene
    finally:
        app.close_session()


@pytest.fixture
def lobby(app, monkeypatch):
    with hosted_lobby(app, monkeypatch, bots=2) as opened:
        yield opened


def _levels(session):
    return {s["seat"]: s.get("level") for s in session.table.lobby["seats"] if s["kind"] == "bot"}


def test_the_host_picks_each_bot_seats_level_in_the_lobby(lobby):
    app, session, scene = lobby
    shown = [b for b in scene.b_levels if b.visible]
    assert len(shown) == 2                                # one button per bot seat
    before = _levels(session)[2]
    scene.b_levels[2].pressed.emit()
    frame(app, 2)
    after = _levels(session)[2]
    assert after != before and after in ("easy", "normal", "hard")
    assert _levels(session)[1] == before                 # the other bot seat is untouched
    assert scene.b_levels[2].label.endswith(after)


def test_the_join_lines_name_each_address_and_where_it_works_from(lobby):
    app, session, scene = lobby
    port = session.table.listen_port
    lines = scene.join_lines()
    assert lines[0] == "Friends join with one of these:"
    assert all(f" --code {session.table.join_code}    (" in line for line in lines[1:])
    assert any(f":{port} --code" in line for line in lines[1:])


def test_start_passes_the_reachability_check_and_the_game_begins(lobby):
    app, session, scene = lobby
    scene.request_start()
    assert run_until(app, lambda: session.started, 20), scene.error


def test_a_long_chat_sentence_wraps_in_the_left_column(lobby):
    """The table's sentences in the chat (a friend connecting through magic-wormhole runs to
    130 letters) once ran under the turn timer's sentence in the right column."""
    app, session, scene = lobby
    scene.table_said("a friend who typed the code cannot dial the table directly: connecting "
                     "through magic-wormhole (direct if it can, else the relay)")
    scene.table_said("friend 1 is connected through the relay 127.0.0.1:56203")
    frame(app, 3)
    right_column = scene.width / 2 + 60
    lines = [label for key, label in scene.texts.labels.items()
             if isinstance(key, tuple) and key[0] == "said"]
    assert len(lines) == 2
    for label in lines:
        assert label.left + label.content_width < right_column, label.text
    assert scene.said[-1].startswith("Friend 1 is connected")          # a sentence's capital
    newest, older = sorted(lines, key=lambda label: label.bottom)
    assert older.bottom >= newest.bottom + newest.content_height        # stacked, not drawn over
    title = scene.texts.labels["ch"]
    assert title.y > older.bottom + older.content_height


def _closed_loopback_port() -> int:
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _said_texts(scene) -> list[str]:
    """Every text the lobby draws (its chat and status lines included)."""
    return [label.text for label in scene.texts.labels.values() if label.visible]


def test_a_host_without_internet_says_once_that_friends_outside_cannot_join_by_code(
        app, monkeypatch):
    """Issue 49 item 1: a host whose rendezvous cannot be reached (no internet) showed
    "The invitation code  no longer works: the rendezvous ws://relay... cannot be reached"
    five times. Now one line, said once, names who cannot join and why; nothing the player
    reads carries a raw URL or a doubled space."""
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    port = _closed_loopback_port()           # a mailbox nobody listens at: "no internet"
    session = NetSession.open(TableOptions("host", port=0, players=3, bots=1, name="Aiko",
                                           rendezvous=f"ws://127.0.0.1:{port}/v1"))
    app.session = session
    scene = LobbyScene(session, "host")
    app.show(scene)
    try:
        run_until(app, lambda: False, 6.0)        # the old code said it again every second
        about = [line for line in scene.said if "code" in line.lower()]
        assert len(about) == 1, scene.said
        assert "outside" in about[0] and "cannot be reached" in about[0], about
        for text in _said_texts(scene) + scene.said:
            assert "://" not in text, text
            assert "  " not in text, repr(text)
    finally:
        app.close_session()


def test_a_fact_said_again_is_updated_in_place(lobby):
    """One line per fact: a friend's link going down and back replaces its line rather
    than adding more, and the very same line twice is shown once."""
    app, session, scene = lobby
    scene.table_said("friend 1 is connected through the relay 127.0.0.1:56203")
    scene.table_said("a friend who typed the code dials the table directly")
    scene.table_said("friend 1's link is down; magic-wormhole redials it")
    scene.table_said("friend 1 is connected through the relay 127.0.0.1:56204")
    scene.table_said("a friend who typed the code dials the table directly")
    assert len(scene.said) == 2, scene.said
    assert scene.said[0] == "Friend 1 is connected through the relay 127.0.0.1:56204"
