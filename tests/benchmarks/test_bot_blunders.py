"""`benchmarks/bots/bot_strength.py --out` (resumable runs) and `benchmarks/bots/bot_blunders.py`
(issue 29): a stopped run continues where it stopped, and the blunder counter counts
outnumbered attacks (R-BATTLE-2, R-BATTLE-3), all-pay bid rounds (R-BID-1, R-BID-2) and
lapsed rice actions from the logs."""

from __future__ import annotations

import argparse
import json

import pytest

from benchmarks.bots import bot_strength
from benchmarks.bots.bot_blunders import Counts, count_game


def _battle(attacker, defender, thrown, result, kind="player", unrest=0):
    return {"event": "BattleResolved", "kind": kind, "province": "Kii", "attacker": attacker,
            "defender": defender, "unrest": unrest, "thrown": thrown, "result": result}


def test_counts_outnumbered_attacks_all_pay_rounds_and_lapsed_rice():
    events = [
        _battle(0, 1, {"0": 3, "1": 7}, "defender"),                     # outnumbered
        _battle(0, 1, {"0": 5, "1": 3, "peasant": 1}, "attacker"),       # 5 vs 4: fine
        _battle(0, 1, {"0": 4, "1": 3, "peasant": 2}, "draw"),           # 4 vs 5: outnumbered
        _battle(0, 1, {"0": 4, "1": 3, "peasant": 2}, "attacker", unrest=1),  # peasants don't count
        _battle(0, "peasant", {"0": 1, "peasant": 2}, "defender", kind="neutral"),  # outnumbered
        _battle(2, 0, {"2": 1, "0": 9}, "defender"),                     # another seat's
        _battle("peasant", 0, {"0": 1, "peasant": 3}, "attacker", kind="revolt"),  # not an attack
        {"event": "BidsRevealed", "bids": {"0": 1, "1": 1, "2": 1, "3": 1},
         "paid": {"0": 1, "1": 1, "2": 1, "3": 1}},
        {"event": "BidsRevealed", "bids": {"0": 1, "1": 2, "2": 1, "3": 1},
         "paid": {"0": 1, "1": 2, "2": 1, "3": 1}},
        {"event": "BidsRevealed", "bids": {"0": 1, "1": "province", "2": 1, "3": 1},
         "paid": {"0": 1, "1": 0, "2": 1, "3": 1}},
        {"event": "ActionDone", "seat": 0, "action": "rice"},
        {"event": "ActionLapsed", "seat": 0, "action": "rice"},
        {"event": "ActionLapsed", "seat": 1, "action": "rice"},
    ]
    c = Counts()
    count_game(events, {0}, c)
    assert (c.attacks, c.outnumbered, c.outnumbered_lost) == (5, 3, 3)
    assert (c.rounds, c.all_pay_same, c.all_pay_any, c.games_all_pay_same) == (3, 1, 2, 1)
    assert (c.rice, c.rice_lapsed) == (2, 1)


def test_an_incremental_run_skips_the_games_it_has(tmp_path, capsys):
    out = str(tmp_path / "runs.jsonl")

    def run(games: int) -> None:
        bot_strength.incremental(argparse.Namespace(
            out=out, lines="easy:random", games=games, offset=7, jobs=1, budget=None, set=""))

    run(2)
    run(3)
    with open(out, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    assert [r["game"] for r in rows] == [7, 8, 9]             # game 9 only was added
    assert all((tmp_path / "runs.jsonl.logs" / r["log"]).exists() for r in rows)
    assert "easy vs 3x random" in capsys.readouterr().out


def _scored(seat, score):
    return {"event": "Scored", "seat": seat, "score": score}


@pytest.mark.parametrize("year1, final, seat, edge", [
    # margins over the best rival: year 1 [-5, 5, -5, -10], the end [10, -10, -20, -30]
    ([10, 15, 10, 5], [40, 30, 20, 10], 0, (-5 - (5 - 5 - 10) / 3, 10 - (-10 - 20 - 30) / 3)),
    ([10, 15, 10, 5], [40, 30, 20, 10], 1, (5 - (-5 - 5 - 10) / 3, -10 - (10 - 20 - 30) / 3)),
    ([7, 7, 7, 7], [30, 30, 30, 30], 2, (0.0, 0.0)),          # all level: no edge
])
def test_the_margin_edge_is_my_margin_over_the_best_rival_less_the_others_average(
        year1, final, seat, edge):
    events = [_scored(i, v) for i, v in enumerate(year1)]
    events += [_scored(i, v + 3) for i, v in enumerate(year1)]   # year 2's scoring: not read
    events.append({"event": "GameEnded", "scores": {str(i): v for i, v in enumerate(final)}})
    assert bot_strength.margin_edge(events, seat) == pytest.approx(edge)


def test_a_game_without_its_end_has_no_margin_edge():
    assert bot_strength.margin_edge([_scored(0, 3)], 0) is None


def test_a_paired_difference_counts_only_the_games_both_runs_played():
    mine = {41000: 1.0, 41001: 0.0, 41003: 0.5}
    base = {41000: 0.0, 41001: 0.0, 41002: 1.0, 41003: 1.0}
    assert bot_strength.paired(mine, base) == [1.0, 0.0, -0.5]
