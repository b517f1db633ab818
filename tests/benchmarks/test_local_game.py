"""`benchmarks/local_game.py`: the local game a peer's CPU is compared against. Played
"as the window plays it", it must really run the window's autosave: a save holding every
command with its state hash, which `replay --verify` would accept."""

from __future__ import annotations

from store.game_save import read_save
from benchmarks.local_game import paced_like, replay_locally
from sim.game import GameConfig, state_hash
from sim.local import LocalGame


def a_finished_bot_game() -> LocalGame:
    game = LocalGame(GameConfig(players=3), 5, {seat: "heuristic" for seat in range(3)})
    while not game.over:
        command = game.automatic_command()
        assert command is not None   # every seat is a bot
        game.submit(command)
    return game


def test_as_the_window_plays_it_the_game_is_autosaved_command_by_command(tmp_path):
    game = a_finished_bot_game()
    final = state_hash(game.state)
    save = tmp_path / "autosave.save"
    result = replay_locally(game.config, game.commands, final, "test", autosave=save)
    saved = read_save(save)
    assert result["commands"] == len(game.commands)
    assert saved.commands == game.commands
    assert saved.hashes[-1] == final and len(saved.hashes) == len(game.commands)


def test_simulation_only_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = a_finished_bot_game()
    replay_locally(game.config, game.commands, state_hash(game.state), "test")
    assert list(tmp_path.iterdir()) == []


def test_paced_like_a_peer_it_sleeps_where_the_peer_waited_and_plays_the_same_game():
    game = a_finished_bot_game()
    peer_stats = {"waited_before": [[3, 0.02], [10, 0.03], [len(game.commands) - 1, 0.01]]}
    pauses = paced_like(peer_stats)
    assert pauses == {3: 0.02, 10: 0.03, len(game.commands) - 1: 0.01}
    result = replay_locally(game.config, game.commands, state_hash(game.state), "test",
                            pauses=pauses)
    assert result["game"] >= 0.06                       # slept, as the peer idled
    assert result["usage"]["waits"] >= 3
    assert result["cpu"] < result["game"]


def test_the_replay_imports_nothing_while_it_plays():
    """The instruction benchmarks count only the replay: an import inside it would be
    counted as the local game's work (one was: 22 million instructions, 2.5%)."""
    import subprocess
    import sys
    from pathlib import Path
    code = """
import sys
from benchmarks.local_game import replay_locally
from sim.game import GameConfig, state_hash
from sim.local import LocalGame
game = LocalGame(GameConfig(players=3), 5, dict.fromkeys(range(3), "heuristic"))
while not game.over:
    command = game.automatic_command()
    assert command is not None   # every seat is a bot
    game.submit(command)
before = set(sys.modules)
replay_locally(game.config, game.commands, state_hash(game.state), "test")
print(sorted(set(sys.modules) - before))
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", out.stdout
