"""The window against a real network table: the window hosts, two headless players join
as separate processes on 127.0.0.1 (`tests/net/processes.py`), and everything goes over
real sockets, the real handshake and the real lockstep. One of the two holds its first
plan back until someone says "go" in the chat (`tests/net/slow_planner.py`), so the
window can lock its plan, unlock it and lock it again while not every plan is in
(issue 14 items 4 and 6)."""

from __future__ import annotations

from net.table.options import TableOptions
import time

import arcade
import pytest

from tests.client.conftest import frame, heard, run_until
from tests.net import processes as P


def _log_text(scene) -> str:
    return "\n".join(line for line, _ in scene.log.lines)


def _joiner(tmp_path, port: int, code: str, name: str, script=None) -> P.Peer:
    args = ["join", f"127.0.0.1:{port}", "--code", code, "--headless",
            "--rejoin-timeout", "60", "--save", str(tmp_path / f"{name}.save")]
    if script is None:
        return P.Peer(name, args, tmp_path)
    return P.Peer(name, args, tmp_path, script=script)


@pytest.mark.network           # real processes: run with --runslow (about 5 s)
def test_the_window_chats_locks_unlocks_and_relocks_at_a_real_network_table(app, tmp_path):
    app.start_net(TableOptions("host", players=3, side="sun", setup="beginner", bots=0, port=0))
    assert app.scene.name == "lobby", getattr(app.scene, "message", "")
    table = app.session.table
    peers = [_joiner(tmp_path, table.listen_port, table.join_code, "steady"),
             _joiner(tmp_path, table.listen_port, table.join_code, "slow",
                     script=P.ROOT / "tests" / "net" / "slow_planner.py")]
    try:
        assert run_until(app, table.lobby_full, 60), \
            "\n".join(p.text() + p.errors()[-1500:] for p in peers)
        app.on_key_press(arcade.key.ENTER, 0)               # start the game
        assert run_until(app, lambda: app.scene.name == "game", 20)
        scene = app.scene
        scene.fast = True
        assert run_until(app, lambda: scene.planning.visible, 60), app.session.status
        heard(app, peers[1], "holding my plan", 30)

        # a chat line from the window: in its own log panel, and at both other players
        app.on_key_press(arcade.key.T, 0)
        app.on_text("good luck")
        frame(app)
        app.on_key_press(arcade.key.ENTER, 0)
        frame(app)
        app.on_key_press(arcade.key.ESCAPE, 0)              # leave the chat box
        frame(app)
        assert "good luck" in _log_text(scene)
        assert scene.planning.visible                       # Enter sent the line, not my plan
        for p in peers:
            heard(app, p, r"chat: .*\(seat 0\): good luck", 20)

        # lock a plan: it goes to the table at once, and the slow player still plans
        app.on_key_press(arcade.key.B, 0)                   # the suggested plan
        frame(app)
        first = scene.planning.plan()
        app.on_key_press(arcade.key.ENTER, 0)
        assert run_until(app, lambda: scene.net.unlock_btn.visible, 20), table.waiting_for()
        locked = table.my_plan()
        assert locked is not None and (tuple(locked.actions), locked.bid) == first
        assert app.session.my_plan(table.my_seat) == locked   # the scene's session interface
        step = table.lockstep.step
        assert 0 in table.lockstep.inbox[step].commits

        # unlock: back to planning with my plan on the fields; the table withdrew it
        app.on_key_press(arcade.key.U, 0)
        assert run_until(app, lambda: scene.planning.visible, 10)
        assert scene.planning.plan() == first
        assert "Plan unlocked" in _log_text(scene)
        assert table.my_plan() is None and 0 not in table.lockstep.inbox[step].commits
        assert any(m["type"] == "PlanUnlocked" for m in table.lockstep.sent[step])

        # lock it again (a fresh commitment), then let the slow player plan: the round goes on
        app.on_key_press(arcade.key.ENTER, 0)
        assert run_until(app, lambda: table.my_plan() is not None, 20)
        assert not scene.planning.visible and table.lockstep.step == step   # the slow one plans
        relock = [m for m in table.lockstep.sent[step] if m["type"] == "PlanCommitted"]
        assert [m["lock"] for m in relock] == [0, 1]
        app.on_key_press(arcade.key.T, 0)
        app.on_text("go")
        frame(app)
        app.on_key_press(arcade.key.ENTER, 0)
        heard(app, peers[1], "planning now", 20)
        assert run_until(app, lambda: table.lockstep.step > step, 30), table.waiting_for()
        assert table.lockstep.log[step]["commands"]           # the plan step was applied
        assert not table.desyncs and not table.offence_log
    finally:
        app.show_menu()                                     # leaving closes the table
        frame(app, 2)
        for p in peers:
            p.kill()
        time.sleep(0.1)
