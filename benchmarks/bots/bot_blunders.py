"""Blunders in bot game logs (issue 29): what a human opponent would exploit. Prints counts.

Reads the results file of an incremental `bot_strength.py --out FILE` run and the gzipped
event logs it wrote (FILE.logs/), and counts per line, for the subject's seat and, apart,
for the three opponents' seats of the same games:
- outnumbered attacks: battles the seat started (battle/move A or B into a neutral or
  rival province) with fewer of its own cubes thrown than cubes counting for the defender
  (the defender's, plus the peasants when they count: R-BATTLE-2, R-BATTLE-3), as a share
  of its attacks; and how many of those it lost;
- all-pay bid rounds: rounds where every player paid a money bid of the same amount (all
  paid, and chance set the whole order: R-BID-1, R-BID-2), as the share of games with one;
  also rounds where every player paid anything;
- lapsed rice actions: the seat's rice actions that lapsed (R-EXEC-3, R-EXEC-4: the
  province lost or changed hands before its turn, a revolt lost), of its rice actions.

Usage: .venv/bin/python benchmarks/bots/bot_blunders.py results.jsonl
"""

from __future__ import annotations

import argparse
import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Counts:
    """Blunder counts over the games of one line."""
    games: int = 0
    attacks: int = 0
    outnumbered: int = 0
    outnumbered_lost: int = 0
    examples: list[str] = field(default_factory=list)
    rounds: int = 0
    all_pay_same: int = 0
    all_pay_any: int = 0
    games_all_pay_same: int = 0
    rice: int = 0
    rice_lapsed: int = 0


def _cubes(thrown: dict[str, int], who: Any) -> int:
    return int(thrown.get(str(who), 0))


def count_game(events: list[dict[str, Any]], seats: set[int], c: Counts) -> None:
    """Add one game's blunders by `seats` to `c`."""
    c.games += 1
    same_round = False
    for e in events:
        kind = e.get("event")
        if kind == "BattleResolved" and e["kind"] != "revolt" and e["attacker"] in seats:
            thrown = e["thrown"]
            mine = _cubes(thrown, e["attacker"])
            peasants = _cubes(thrown, "peasant")
            if e["kind"] == "neutral":
                theirs = peasants if not e["unrest"] else 0
            else:
                theirs = _cubes(thrown, e["defender"]) + (peasants if not e["unrest"] else 0)
            c.attacks += 1
            if mine < theirs:
                c.outnumbered += 1
                c.outnumbered_lost += e["result"] != "attacker"
                if len(c.examples) < 5:
                    c.examples.append(f"{mine} vs {theirs} into {e['province']} ({e['result']})")
        elif kind == "BidsRevealed":
            c.rounds += 1
            paid = list(e["paid"].values())
            bids = list(e["bids"].values())
            if all(p > 0 for p in paid):
                c.all_pay_any += 1
                if len(set(bids)) == 1:
                    c.all_pay_same += 1
                    same_round = True
        elif kind == "ActionDone" and e.get("action") == "rice" and e.get("seat") in seats:
            c.rice += 1
        elif kind == "ActionLapsed" and e.get("action") == "rice" and e.get("seat") in seats:
            c.rice += 1
            c.rice_lapsed += 1
    c.games_all_pay_same += same_round


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.1%})" if d else f"{n}/0"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("results", help="a bot_strength.py --out file")
    args = ap.parse_args()
    logs = Path(args.results + ".logs")
    lines: dict[str, Counts] = {}
    with open(args.results, encoding="utf-8") as f:
        rows = [json.loads(x) for x in f if x.strip().endswith("}")]
    for row in rows:
        path = logs / row["log"]
        if not path.exists():
            continue
        with gzip.open(path, "rt", encoding="utf-8") as g:
            events = [json.loads(x) for x in g]
        subject, opponent = str(row["line"]).split("@")[0].split(":")
        seat = int(row["seat"])
        count_game(events, {seat}, lines.setdefault(f"{row['line']}: {subject}", Counts()))
        count_game(events, set(range(4)) - {seat},
                   lines.setdefault(f"{row['line']}: the 3 {opponent}", Counts()))
    for line, c in sorted(lines.items()):
        print(f"{line} ({c.games} games):")
        print(f"  outnumbered attacks: {_share(c.outnumbered, c.attacks)} of attacks, "
              f"{c.outnumbered_lost} lost" + (f"; e.g. {'; '.join(c.examples)}" if c.examples else ""))
        print(f"  all-pay bid rounds (same bid, all paid): {c.all_pay_same} of {c.rounds} rounds; "
              f"games with one: {_share(c.games_all_pay_same, c.games)}; "
              f"rounds where everyone paid: {c.all_pay_any}")
        print(f"  rice actions lapsed: {_share(c.rice_lapsed, c.rice)}")


if __name__ == "__main__":
    main()
