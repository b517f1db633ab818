"""The scene's session interface is declared (`client/sessions/interface.py`): the local,
network and replay sessions each offer every member of `GameSession`, so scenes never
probe a session for what it might have."""

from __future__ import annotations

from pathlib import Path

from client.sessions.interface import GameSession


def _members() -> set[str]:
    return {name for name in vars(GameSession) if not name.startswith("_")} | set(
        GameSession.__annotations__)


def test_a_local_game_offers_the_whole_interface() -> None:
    from client.sessions.local import LocalSession
    session: GameSession = LocalSession(players=3, seed=4)
    try:
        assert all(hasattr(session, m) for m in _members())
        assert session.runs_in_window and session.table_offers is None and session.study is None
        assert session.bot_levels == {1: "heuristic", 2: "heuristic"}
    finally:
        session.close()


def test_a_replay_of_a_save_can_be_studied(tmp_path: Path) -> None:
    import main
    from client.sessions.replay import ReplaySession
    save = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "5", "--quiet", "--save", str(save)]) == 0
    session: GameSession = ReplaySession(str(save))
    assert all(hasattr(session, m) for m in _members())
    assert session.runs_in_window and session.study is session and not session.my_seats


def test_a_network_session_offers_the_whole_interface() -> None:
    from client.sessions.network import NetSession
    from tests.client.game.test_net_comforts import ComfyTable
    table = ComfyTable()
    net = NetSession(table, "host")
    net.game_started(table.cfg, table.my_seat, table.state)
    session: GameSession = net
    assert all(hasattr(session, m) for m in _members())
    assert not session.runs_in_window and session.study is None
    assert session.table_offers is not None and session.table_offers.can_hand_over
