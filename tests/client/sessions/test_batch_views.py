"""Every session hands the scene the engine's public view after each event of an engine
step (`Batch.views`, issue 35 item 2): a local game, a save being replayed and a network
table (which plays the step's commands from its log entry once more, its own apply and
consensus untouched). Where the events did not come from the step the views would be
computed from, there are none (the scene then patches its copy), never wrong ones."""

from __future__ import annotations

from pathlib import Path

from client.sessions.interface import Batch
from sim.commands import to_wire
from sim.game import GameConfig, new_game
from sim.local import LocalGame
from sim.viewed import apply_viewed


def _views(state, command) -> list:
    return apply_viewed(state, command)[2]


def test_a_local_game_queues_the_views_of_each_step() -> None:
    from client.sessions.local import LocalSession
    session = LocalSession(players=3, human_seats=(), bot="random", seed=2)
    try:
        setup = session.queue.popleft()
        assert setup.views is None                 # the set-up is no engine step
        state = setup.state
        for _ in range(40):
            assert session.pump()
            batch = session.queue.popleft()
            assert batch.views == _views(state, session.commands[-1])
            assert len(batch.views) == len(batch.events)
            state = batch.state
    finally:
        session.close()


def test_a_replayed_save_queues_the_views_of_each_step(tmp_path: Path) -> None:
    import main
    from client.sessions.replay import ReplaySession
    save = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "5", "--quiet", "--save", str(save)]) == 0
    from store.game_save import read_save
    commands = read_save(save).commands
    session = ReplaySession(str(save))
    state = session.queue.popleft().state
    for command in commands[:30]:
        assert session.pump()
        batch = session.queue.popleft()
        assert batch.views == _views(state, command)
        state = batch.state


def test_a_network_table_plays_the_step_again_for_its_views() -> None:
    from client.sessions.network import NetSession
    from tests.client.game.test_net_comforts import ComfyTable
    table = ComfyTable()
    net = NetSession(table, "host")
    config = GameConfig(3, "sun", "beginner")
    game = LocalGame(config, 3, dict.fromkeys(range(3), "random"))
    start, first = new_game(config)
    net.game_started(config, 0, start)
    net.on_events(list(first), start)
    assert net.queue.popleft() == Batch(list(first), start)
    for _ in range(30):
        command = game.automatic_command()
        assert command is not None
        before = game.state
        events = game.submit(command)
        net.on_step_applied({"step": len(game.commands), "commands": [to_wire(command)]})
        net.on_events(list(events), game.state)
        batch = net.queue.popleft()
        assert batch.views == _views(before, command)
    # events the step's commands do not make (a table that recovered elsewhere): no views
    command = game.automatic_command()
    assert command is not None
    events = game.submit(command)
    net.on_step_applied({"step": len(game.commands), "commands": []})
    net.on_events(list(events), game.state)
    assert net.queue.popleft().views is None


def test_a_real_table_on_loopback_gives_its_window_and_a_watcher_the_views(app, monkeypatch) -> None:
    """The same through real tables in this process: the host's steps (chance and the bots'
    answers until the host must plan) and a watcher's, each batch's views as its events."""
    from net.table.options import TableOptions
    from client.sessions.network import NetSession
    from tests.client.conftest import frame, run_until
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    host = NetSession.open(TableOptions("host", port=0, players=3, bots=2, name="Aiko"))
    app.session = host
    watcher = None
    try:
        frame(app, 2)
        watcher = NetSession.open(TableOptions("watch", address=f"127.0.0.1:{host.table.listen_port}",
                                               code=host.table.join_code, name="Chiyo"))
        host.table.start_game()
        assert run_until(app, lambda: host.decision is not None and 0 in host.decision.seats
                         and watcher.batches >= host.batches, 30), host.status
        for session in (host, watcher):
            batches = list(session.queue)
            steps = [b for b in batches[1:] if b.events]
            assert len(steps) >= 2, [len(b.events) for b in batches]
            assert all(b.views is not None and len(b.views) == len(b.events) for b in steps)
    finally:
        if watcher is not None:
            watcher.close()
        app.close_session()
