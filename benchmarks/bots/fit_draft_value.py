"""Fit the judge of a finished draft (`sim/bots/draft_value.py`, issue 40) from the logs of
four-player draft games. Prints figures, asserts nothing.

Each game's finished draft is rebuilt from its `ProvinceClaimed` events; every seat is one
sample: its features (draft_value's four, and five more tried: the cards' tax, rice and
building slots, borders between my own provinces, neutral provinces beside mine), each
minus the table's mean, against its final score minus the table's mean. Printed: how
the subject seat of each file drafted (its features minus the other seats' average), each
feature's correlation with that, the ten-fold cross-validated R² (folds by game) of the
four and of all nine, and the four's least-squares weights with their standard errors,
in points and in evaluation units (12 a point) beside `draft_value.WEIGHTS`.

The logs `draft_value.WEIGHTS` was fitted on: the 289 games of issue 40's strength runs
(`bot_strength.py --lines hard:hard_2026 --out ...`, 178 with the first draft search and
111 with the second; one seat a searching hard bot, three `hard_2026`).

Usage: .venv/bin/python benchmarks/bots/fit_draft_value.py RESULTS.jsonl [RESULTS.jsonl ...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.board import board  # noqa: E402
from sim.bots import draft_value  # noqa: E402
from sim.game import GameConfig, new_game  # noqa: E402
from sim.state import State  # noqa: E402

NAMES = ("borders", "outgunned", "leads", "ties", "tax", "rice", "slots", "own borders",
         "neutral beside")
JUDGED = 4   # the first four are draft_value's


def finished_draft(log: Path) -> tuple[State, list[int]]:
    """The state as the draft left it (owners and armies) and the final scores."""
    s, _ = new_game(GameConfig(4, "sun", "draft"))
    scores: list[int] = []
    with gzip.open(log, "rt") as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "ProvinceClaimed":
                prov = s.provinces[e["province"]]
                prov.owner, prov.armies = e["seat"], e["armies"]
            elif e["event"] == "GameEnded":
                scores = [e["scores"][str(i)] for i in range(4)]
    return s, scores


def seat_features(s: State) -> np.ndarray:
    """One row a seat: draft_value's features, then the ones the fit left out."""
    b = board()
    nb = b.neighbours["sun"]
    rows = []
    for seat, f in enumerate(draft_value.features(s)):
        mine = [n for n, p in s.provinces.items() if p.owner == seat]
        info = [b.provinces[n] for n in mine]
        own = sum(1 for n in mine for m in nb[n] if s.provinces[m].owner == seat) // 2
        neutral = len({m for n in mine for m in nb[n] if s.provinces[m].owner is None})
        rows.append([f.borders, f.outgunned, f.leads, f.ties, sum(p.tax for p in info),
                     sum(p.rice for p in info), sum(p.slots for p in info), own, neutral])
    return np.array(rows, float)


def cross_validated_r2(x: np.ndarray, y: np.ndarray, folds: int = 10) -> float:
    games = len(y) // 4
    order = np.random.default_rng(1).permutation(games)
    sse = sst = 0.0
    for part in np.array_split(order, folds):
        test = np.concatenate([np.arange(4 * g, 4 * g + 4) for g in part])
        train = np.setdiff1d(np.arange(len(y)), test)
        w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
        sse += float(np.sum((y[test] - x[test] @ w) ** 2))
        sst += float(np.sum(y[test] ** 2))
    return 1 - sse / sst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+", type=Path)
    args = ap.parse_args()
    xs, ys = [], []
    for results in args.results:
        subject = []
        for line in results.read_text().splitlines():
            row = json.loads(line)
            s, scores = finished_draft(results.parent / f"{results.name}.logs" / row["log"])
            f = seat_features(s)
            xs.append(f - f.mean(axis=0))
            ys.append(np.array(scores, float) - np.mean(scores))
            seat = int(row["seat"])
            subject.append(f[seat] - np.delete(f, seat, axis=0).mean(axis=0))
        drafted = np.mean(subject, axis=0)
        print(f"{results.name}: the subject's draft minus the other seats' average over "
              f"{len(subject)} games: "
              + ", ".join(f"{name} {v:+.2f}" for name, v in zip(NAMES, drafted)))
    x, y = np.concatenate(xs), np.concatenate(ys)
    print(f"{len(xs)} games, {len(y)} seats; final score minus the table's mean: "
          f"spread {y.std():.1f} points")
    for j, name in enumerate(NAMES):
        print(f"  {name:15s} correlation {np.corrcoef(x[:, j], y)[0, 1]:+.2f}")
    print(f"cross-validated R²: the four {cross_validated_r2(x[:, :JUDGED], y):.3f}, "
          f"all nine {cross_validated_r2(x, y):.3f}")
    four = x[:, :JUDGED]
    w, *_ = np.linalg.lstsq(four, y, rcond=None)
    noise = float(np.sum((y - four @ w) ** 2)) / (len(y) - JUDGED)
    se = np.sqrt(np.diag(np.linalg.inv(four.T @ four)) * noise)
    used = draft_value.WEIGHTS
    for j, name in enumerate(NAMES[:JUDGED]):
        print(f"  {name:10s} {w[j]:+.2f} ± {se[j]:.2f} points = {12 * w[j]:+.1f} units "
              f"(draft_value.WEIGHTS: {getattr(used, name)})")


if __name__ == "__main__":
    main()
