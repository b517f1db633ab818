"""What `SHOGUN_NET_STATS` reports: a round trip for each step that needed everyone's
input and that this peer asked for, a hop for each move of another human, nothing for
bots, chance or the tower; the whole game's clocks; one JSON file."""

import json

from cli.net_stats import GameStats, WaitLog


def _entry(step: int, kind: str, seat: int | None = None) -> dict:
    command = {"type": kind} if seat is None else {"type": kind, "seat": seat}
    return {"step": step, "commands": [command]}


def test_round_trips_are_timed_from_my_first_message_of_a_step():
    stats = GameStats()
    stats.broadcast({"step": 4})
    stats.broadcast({"step": 4})              # a second message of the same step: still from the first
    stats.step_applied(_entry(4, "CommitPlan"), me=0, bots=())
    stats.step_applied(_entry(5, "SubmitPlan"), me=0, bots=())     # not asked by me: no round trip
    assert len(stats.round_trips) == 1 and stats.round_trips[0] >= 0
    assert stats.asked_at == {}


def test_hops_count_other_humans_moves_only():
    stats = GameStats()
    stats.step_applied(_entry(1, "Move", seat=2), me=0, bots=(3,))
    stats.step_applied(_entry(2, "Move", seat=0), me=0, bots=(3,))      # mine
    stats.step_applied(_entry(3, "Move", seat=3), me=0, bots=(3,))      # a bot's
    stats.step_applied(_entry(4, "TowerSettled"), me=0, bots=(3,))
    stats.step_applied({"step": 5, "commands": []}, me=0, bots=(3,))
    assert stats.hops == 1


def test_the_file_holds_the_games_figures(tmp_path):
    stats = GameStats(waits=WaitLog())
    stats.game_started()
    stats.step_applied(_entry(1, "Move", seat=1), me=0, bots=())
    stats.game_ended()
    path = tmp_path / "stats.json"
    stats.write(str(path), bytes_sent=1234, final_hash="ab" * 32, offences=0)
    figures = json.loads(path.read_text())
    assert figures["bytes_sent"] == 1234 and figures["hops"] == 1 and figures["hash"] == "ab" * 32
    assert figures["game_seconds"] >= 0 and figures["game_cpu"] >= 0
    assert set(figures["game_usage"]) == {"minflt", "waits", "preempted", "user", "system"}
    assert isinstance(figures["waited_before"], list)
