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
    table.on_events(list(first), start)
    assert net.queue.popleft() == Batch(list(first), start)
    for _ in range(30):
        command = game.automatic_command()
        assert command is not None
        before = game.state
        events = game.submit(command)
        table.on_step_applied({"step": len(game.commands), "commands": [to_wire(command)]})
        table.on_events(list(events), game.state)
        batch = net.queue.popleft()
        assert batch.views == _views(before, command)
    # events the step's commands do not make (a table that recovered elsewhere): no views
    command = game.automatic_command()
    assert command is not None
    events = game.submit(command)
    table.on_step_applied({"step": len(game.commands), "commands": []})
    table.on_events(list(events), game.state)
    assert net.queue.popleft().views is None
