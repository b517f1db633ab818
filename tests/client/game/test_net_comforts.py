"""A network table's comforts in the window, against a fake table object that offers the
net APIs (`takeover_countdown`, `hand_seat_to_bot`, `send_chat` + `on_chat_received`,
`unlock_plan`) — and one that offers none of them (the window must still work). Issue 14,
item 6: names everywhere, "Bot (Orange)", the lobby's join command, a countdown for
everyone, the host's hand-over, chat in the log (never in the game), network undo."""

from __future__ import annotations

from client.sessions.interface import Batch
from net.table.options import TableOptions
from dataclasses import dataclass
from typing import Any

import arcade
import pytest

from client.sessions.table_offers import TableCallbacks

from tests.client.conftest import frame, run_until, screenshot


@dataclass(frozen=True)
class ChatLine:                      # the shape of net.table.chat.ChatLine
    sender: str
    seat: int | None
    text: str


class BareTable(TableCallbacks):
    """A started table (`client.sessions.table_offers.NetTable`) that offers nothing:
    no countdowns, and its hand-overs and unlocks are refused."""

    opts = type("Options", (), {"interface": "127.0.0.1"})()
    start_info = None

    def __init__(self, role: str = "host") -> None:
        from sim import game
        from sim.local import LocalGame
        self.cfg = game.GameConfig(players=4, side="sun", setup="beginner")
        self.local = LocalGame(self.cfg, 21, {})
        for _ in self.local.run():
            pass                          # to the first plan: every seat still plans
        self.my_seat = 0
        self.role = role
        self.join_code = "k7q2"
        self.listen_port = 7531
        self.lobby = {"players": 4, "side": "sun", "setup": "beginner", "seats": [
            {"seat": 0, "kind": "human", "name": "Aiko"},
            {"seat": 1, "kind": "bot", "name": "join-heuristic-2"},
            {"seat": 2, "kind": "human", "name": "Ben"},
            {"seat": 3, "kind": "human", "name": "Cleo"}]}
        self.submitted: list = []

    @property
    def state(self):
        return self.local.state

    @property
    def decision(self):
        from sim import game
        return game.pending(self.local.state)

    def waiting_for(self):
        done = {c.seat for c in self.submitted}
        return [s for s in self.decision.seats if s not in done]

    def submit(self, cmd) -> None:
        self.submitted.append(cmd)

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None) -> None:
        raise ValueError("a stand-in table keeps its lobby")

    def start_game(self) -> None:
        raise ValueError("a stand-in table has started")

    def close(self) -> None:
        pass

    def input_countdown(self) -> dict[int, float]:
        return {}

    def takeover_countdown(self) -> dict[int, float]:
        return {}

    def overdue_seats(self) -> list[int]:
        return []

    def hand_seat_to_bot(self, seat: int) -> None:
        raise ValueError("this table hands no seat to a bot")

    def send_chat(self, text: str) -> None:
        pass

    def unlock_plan(self) -> None:
        raise ValueError("this table unlocks no plan")

    def my_plan(self):
        return None

    def set_bot_level(self, seat: int, level: str) -> None:
        raise ValueError("this table keeps its bots' levels")


class ComfyTable(BareTable):
    """The same with countdowns, hand-overs, chat and unlocks that do something."""

    def __init__(self, role: str = "host") -> None:
        super().__init__(role)
        self.countdown: dict[int, float] = {}
        self.handed: list[int] = []
        self.sent: list[str] = []
        self.unlocked = 0
        self.refuse: str | None = None
        self.overdue: list[int] = []

    def takeover_countdown(self):
        return dict(self.countdown)

    def overdue_seats(self) -> list[int]:
        return list(self.overdue)

    def hand_seat_to_bot(self, seat: int) -> None:
        if self.refuse:
            raise ValueError(self.refuse)
        self.handed.append(seat)

    def send_chat(self, text: str) -> None:
        self.sent.append(text)

    def unlock_plan(self) -> None:
        if self.refuse:
            raise ValueError(self.refuse)
        self.unlocked += 1
        self.submitted = [c for c in self.submitted if c.seat != self.my_seat]


def _table_game(app, table, role="host"):
    from client.sessions.network import NetSession
    session = NetSession(table, role)
    session.lobby_changed(table.lobby)
    session.game_started(table.cfg, table.my_seat, table.state)
    session.queue.append(Batch([], table.state))
    app.session = session
    scene = app.play(session, session.labels(), names=session.names())
    return session, scene


def _lock_a_suggested_plan(app, scene):
    """Once the planning panel is up: a suggested legal plan (B), locked (Enter). Returns
    the plan as it was locked."""
    assert run_until(app, lambda: scene.planning.visible, 10)
    app.on_key_press(arcade.key.B, 0)                 # suggest a legal plan
    frame(app)
    plan = scene.planning.plan()
    app.on_key_press(arcade.key.ENTER, 0)             # lock: sent at once on a network
    frame(app, 2)
    return plan


def _log_text(scene) -> str:
    return "\n".join(line for line, _ in scene.log.lines)


def _click(app, node) -> None:
    s = app.ui_scale
    x, y = (node.left + node.width / 2) * s, (node.bottom + node.height / 2) * s
    app.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
    app.on_mouse_release(x, y, arcade.MOUSE_BUTTON_LEFT, 0)


def test_names_and_bot_seats_read_as_people_and_bots(app):
    table = ComfyTable()
    session, scene = _table_game(app, table)
    assert session.labels() == {0: "Aiko (Blue)", 1: "Bot (Orange)", 2: "Ben (Black)",
                                3: "Cleo (White)"}
    frame(app, 2)
    shown = [t.text for t in scene.players.texts.labels.values() if t.visible]
    assert "Bot (Orange)" in shown and "Ben (Black)" in shown
    assert not any("join-heuristic" in t for t in shown)
    from client.core import theme
    assert theme.seat_name(2) == "Ben (Black)"        # log lines name the player


def test_offline_seat_counts_down_for_everyone_and_the_host_hands_it_over(app, shots):
    from tests.client.conftest import screenshot
    table = ComfyTable()
    session, scene = _table_game(app, table)
    frame(app, 2)
    assert not scene.net.pause.visible
    table.countdown = {2: 42.3}
    frame(app, 2)
    assert scene.net.pause.visible
    assert scene.net.pause.lines == ["Ben (Black) has left the table. A bot takes the seat "
                                     "in 43 seconds unless they come back."]
    table.countdown = {2: 0.6}
    frame(app)
    assert "in 1 second unless" in scene.net.pause.lines[0]
    screenshot(app, shots / "pause-countdown.png")
    button = scene.net.pause.buttons[2]
    assert button.label == "Hand Black to a bot"
    _click(app, button)
    assert table.handed == [2]
    table.refuse = "Only the host can hand a seat to a bot."
    _click(app, button)
    assert table.handed == [2]
    assert "Only the host can hand a seat to a bot." in _log_text(scene)
    table.countdown = {}
    frame(app)
    assert not scene.net.pause.visible


def test_a_connected_seat_out_of_time_is_not_said_to_have_left(app):
    """Issue 26 item 4: a seat still connected whose turn timer ran out is in the take-over
    countdown too; the pause panel says it did not answer in time, not that it left."""
    table = ComfyTable()
    session, scene = _table_game(app, table)
    table.countdown = {2: 19.2}
    table.overdue = [2]
    frame(app, 2)
    assert scene.net.pause.lines == ["Ben (Black) has not answered in time. A bot takes the "
                                     "seat in 20 seconds unless they play."]
    table.overdue = []
    frame(app, 2)
    assert "has left the table" in scene.net.pause.lines[0]


def test_the_lobby_says_the_turn_timer(app, shots):
    """Issue 26 item 4: the host's --turn-time is said in the lobby before the start."""
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    table = ComfyTable()
    table.lobby["turn_time"] = 300.0
    session = NetSession(table, "host")
    app.session = session
    lobby = LobbyScene(session, "host")
    app.show(lobby)
    frame(app, 3)
    texts = [t.text for t in lobby.texts.labels.values() if t.visible]
    assert "Each decision has 5 minutes; then a bot may take the seat." in texts
    from tests.client.conftest import screenshot
    screenshot(app, shots / "lobby-turn-time.png")
    table.lobby["turn_time"] = 45.0
    session.on_lobby_changed(dict(table.lobby))
    frame(app, 3)
    texts = [t.text for t in lobby.texts.labels.values() if t.visible]
    assert "Each decision has 45 seconds; then a bot may take the seat." in texts
    app.session = None


def test_a_joiner_sees_the_countdown_but_no_hand_over_button(app):
    table = ComfyTable(role="join")
    session, scene = _table_game(app, table, role="join")
    table.countdown = {3: 90}
    frame(app, 2)
    assert scene.net.pause.visible and not scene.net.pause.buttons


def test_chat_goes_to_the_log_and_never_to_the_game(app):
    table = ComfyTable()
    session, scene = _table_game(app, table)
    frame(app, 2)
    before = (table.state, list(table.submitted))
    app.on_key_press(arcade.key.T, 0)                 # open the chat line
    app.on_text("hello, F and S are letters here")
    frame(app)
    assert not scene.fast and not scene.paused        # the typed keys did not drive the game
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    assert table.sent == ["hello, F and S are letters here"]
    assert "Aiko (Blue): hello, F and S are letters here" in _log_text(scene)
    assert scene.planning.visible                     # Enter sent the line, not my plan
    session.on_chat_received(ChatLine("Ben", 2, "good luck"))
    session.on_chat_received(ChatLine("Aiko", 0, "hello, F and S are letters here"))  # my echo
    frame(app, 2)
    log = _log_text(scene)
    assert "Ben (Black): good luck" in log
    assert log.count("hello, F and S are letters here") == 1
    assert (table.state, list(table.submitted)) == before


def test_a_dropped_player_and_its_return_are_said_in_the_log(app):
    """Issue 34 item 2: the status line shows a pause only while it lasts; the log keeps
    that a player dropped and says when it is back, in the player's language."""
    from lang import i18n
    table = ComfyTable()
    session, scene = _table_game(app, table)
    frame(app, 2)
    session.on_paused("seat 2 (Ben) dropped; waiting up to 120 s for it to rejoin")
    frame(app)
    assert "Paused:" in session.status
    session.on_resumed()
    session.on_notice("seat 2 (Ben) is back")
    frame(app)
    log = _log_text(scene)
    assert "seat 2 (Ben) dropped; waiting up to 120 s" in log
    assert "seat 2 (Ben) is back" in log and session.status == ""
    i18n.use("nl")
    try:
        session.on_notice("seat 3 (Cleo) is back")
        frame(app)
        assert "plaats 3 (Cleo) is terug" in _log_text(scene)
    finally:
        i18n.use("en")


class EchoingTable(ComfyTable):
    """Like net/table/chat.py: the sender's own line comes back at once, from inside
    send_chat, to the table's owner (the session, as `TableSession` tells its owner)."""

    owner: Any = None

    def send_chat(self, text: str) -> None:
        super().send_chat(text)
        self.owner.on_chat_received(ChatLine("Aiko", self.my_seat, text.strip()))


def _type_as_a_keyboard_does(app, keys: str) -> None:
    """pyglet gives a key press and then its text, for each key."""
    for ch in keys:
        app.on_key_press(getattr(arcade.key, ch.upper()) if ch.isalpha() else arcade.key.SPACE, 0)
        app.on_text(ch)


def test_the_t_that_opens_chat_is_not_typed_and_my_line_shows_once(app):
    """Issue 27, item 6: "thello table", and the host saw its own line twice."""
    table = EchoingTable()
    session, scene = _table_game(app, table)
    table.owner = session
    frame(app, 2)
    _type_as_a_keyboard_does(app, "t")                # opens the chat line
    assert scene.net.chat.focused
    _type_as_a_keyboard_does(app, "that table")
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app, 3)
    assert table.sent == ["that table"]
    assert _log_text(scene).count("that table") == 1


def test_the_t_that_opens_the_lobby_chat_is_not_typed_and_shows_once(app):
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    table = EchoingTable()
    session = NetSession(table, "host")
    table.owner = session
    app.session = session
    lobby = LobbyScene(session, "host")
    app.show(lobby)
    frame(app, 2)
    _type_as_a_keyboard_does(app, "t")
    _type_as_a_keyboard_does(app, "tea time")
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app, 3)
    assert table.sent == ["tea time"]
    texts = [t.text for t in lobby.texts.labels.values() if t.visible]
    assert sum("tea time" in t for t in texts) == 1, texts
    app.session = None


def test_unlock_plan_on_a_network_table(app):
    table = ComfyTable()
    session, scene = _table_game(app, table)
    plan = _lock_a_suggested_plan(app, scene)
    assert [c.seat for c in table.submitted] == [0]
    assert not scene.planning.visible
    assert scene.net.unlock_btn.visible               # the others still plan
    table.refuse = "Every plan is in; it is too late to change yours."
    app.on_key_press(arcade.key.U, 0)
    frame(app)
    assert "Every plan is in; it is too late to change yours." in _log_text(scene)
    assert table.unlocked == 0
    table.refuse = None
    _click(app, scene.net.unlock_btn)
    frame(app, 2)
    assert table.unlocked == 1
    assert scene.planning.visible and scene.planning.plan() == plan
    app.on_key_press(arcade.key.ENTER, 0)             # lock again (a fresh commitment)
    frame(app)
    assert [c.seat for c in table.submitted] == [0]


def test_a_table_with_nothing_to_count_down_plays_without_a_pause(app):
    table = BareTable()
    session, scene = _table_game(app, table)
    assert run_until(app, lambda: scene.planning.visible, 10)
    assert scene.net.chat is not None and not scene.net.pause.visible
    app.on_key_press(arcade.key.B, 0)
    frame(app)
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app, 2)
    assert [c.seat for c in table.submitted] == [0]
    assert scene.net.unlock_btn.visible       # offered: the table says whether it agrees


def test_lobby_shows_the_join_command_names_and_chat(app, shots):
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    from client.words.table_names import join_command, table_addresses
    from tests.client.conftest import screenshot
    table = ComfyTable()
    session = NetSession(table, "host")
    app.session = session
    lobby = LobbyScene(session, "host")
    app.show(lobby)
    session.on_chat_received(ChatLine("Ben", 2, "ready when you are"))
    frame(app, 3)
    texts = [t.text for t in lobby.texts.labels.values() if t.visible]
    first = table_addresses(7531)[0]
    assert join_command(first.dial, "k7q2") == f"./shogun join {first.dial} --code k7q2"
    assert f"./shogun join {first.dial} --code k7q2" in texts
    assert "Bot (Orange)" in texts and "Aiko (Blue) — you" in texts
    assert "Ben (Black): ready when you are" in texts
    app.on_key_press(arcade.key.T, 0)
    app.on_text("hi")
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app, 2)
    assert table.sent == ["hi"]
    screenshot(app, shots / "lobby-join-command.png")
    app.session = None


def test_the_player_name_comes_from_the_settings(monkeypatch):
    from client.sessions import network as net_session
    seen = {}

    class FakeTableSession:
        @classmethod
        def host(cls, so, **kw):
            seen["name"] = so.name
            raise RuntimeError("stop here")

    monkeypatch.setattr(net_session, "TableSession", FakeTableSession)
    monkeypatch.setattr(net_session, "window_reactor", lambda: None)
    monkeypatch.setattr("getpass.getuser", lambda: "os-user")
    with pytest.raises(RuntimeError):
        net_session.NetSession.open(TableOptions("host", name="Aiko", port=0))
    assert seen["name"] == "Aiko"
    with pytest.raises(RuntimeError):
        net_session.NetSession.open(TableOptions("host", port=0))
    from lang.names import NAMES
    assert seen["name"] in NAMES                 # a readable name, never the OS user's


@pytest.mark.parametrize("W,H", [(960, 640), (1920, 1080)])
def test_a_network_table_with_chat_fits_the_window(app, W, H):
    from tests.client.game.test_table_layout import scene_layout_problems
    table = ComfyTable()
    session, scene = _table_game(app, table)
    try:
        app.set_size(W, H)
        app.on_resize(W, H)
        assert run_until(app, lambda: scene.planning.visible, 10)
        for k in range(30):
            session.on_chat_received(ChatLine("Ben", 2, f"line {k}: a rather long chat line that wraps"))
        table.countdown = {2: 30}
        frame(app, 2)
        problems = scene_layout_problems(scene, scene.width, scene.height)
        assert not problems, f"{W}x{H}: " + "; ".join(problems[:12])
        assert scene.net.pause.visible
        p = scene.net.pause
        assert p.left >= scene.board_view.left and p.right <= scene.board_view.right
        assert p.top <= scene.board_view.top and p.bottom >= scene.board_view.bottom
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (2560, 1440)])
@pytest.mark.parametrize("role", ["host", "watch"])
def test_the_chat_line_keeps_off_the_battle_tower(app, W, H, role, shots):
    """Issue 37, item 5: in a network game the chat line was drawn over the battle view's
    tower, and its Send button over the tray (also for a spectator at 960)."""
    table = ComfyTable()
    session, scene = _table_game(app, table, role=role)
    try:
        app.set_size(W, H)
        app.on_resize(W, H)
        frame(app, 2)
        chat = scene.net.chat
        assert chat.visible
        scene.battle.active = True               # the battle view: the tower's big column
        scene.on_layout()
        frame(app, 2)
        t = scene.tower
        for node in (chat, chat.send_btn, chat.field):
            shown = node.visible and (node.parent is None or node.parent.visible)
            meets = shown and node.left < t.right and t.left < node.right \
                and node.bottom < t.top and t.bottom < node.top
            assert not meets, f"{W}x{H}: {node.name} over the tower"
        screenshot(app, shots / f"net-battle-view-chat-{role}-{W}x{H}.png")
        scene.battle.active = False
        scene.on_layout()
        frame(app)
        assert chat.visible
    finally:
        scene.battle.active = False
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def test_a_seated_joiner_is_told_so_in_the_lobby(app, shots):
    """Issue 37, item 12: the joiner's lobby still said "Joining a table" once seated."""
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    from tests.client.conftest import screenshot
    table = ComfyTable(role="join")
    table.my_seat = None                         # still knocking at the door
    session = NetSession(table, "join")
    app.session = session
    lobby = LobbyScene(session, "join")
    app.show(lobby)
    frame(app, 2)
    assert lobby.texts.labels["t"].text == "Joining a table"
    table.my_seat = 2                            # the host gave me a seat
    lobby.mark_dirty()
    frame(app, 2)
    assert lobby.texts.labels["t"].text == "At the table: you are Black", lobby.texts.labels["t"].text
    screenshot(app, shots / "lobby-seated-joiner.png")
    app.session = None
