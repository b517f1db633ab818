"""What a finished draft is worth to a seat, read off the board (issue 40): the hard bot's
draft futures can stop when the draft ends instead of playing spring.

Why: a draft choice's worth measured by futures played on through spring drowns in the
year's luck (the paired difference of two candidates spreads about 14 points a future),
and those futures are played by normal bots while the rivals are hard bots. The rest of
the draft, by contrast, is known exactly: every rival drafts by the fixed rule. So a
future that stops when the last group is placed carries no luck but the deck's order, and
costs a hundredth of a spring. What it needs is a judge of the finished draft.

The judge is a linear fit of the final score (minus the table's mean) on four features
of the finished draft, over the 289 four-player games of issue 40's strength runs
(`benchmarks/bots/fit_draft_value.py` reproduces it from their logs). Only four of the
nine features tried carried weight in a ten-fold cross-validation (R² 0.15 either way);
the cards' tax, rice and building slots carried none (each below its standard error):
- `borders`: my provinces' borders with a rival's province, counted once per pair:
  about a point lost each (−0.95 ± 0.10). A border is where battles happen, and a battle
  between two players is won by the other two.
- `outgunned`: over my provinces, the most armies a bordering rival province holds beyond
  mine (−0.49 ± 0.13 a point per army);
- `leads`: regions where I hold the most provinces alone (+1.9 ± 0.5 points), and
  `ties`: regions where I share the most (+1.0 ± 0.6).
A seat's worth is its predicted score against the best rival's, as `search.evaluate` takes
it, in the same units (12 = 1 point), integers only (the weights rounded to units).
The games were four-player games on the sun side; 3- and 5-player drafts and the moon
side's regions use the same weights, unmeasured (the features mean the same there).

Tests: tests/sim/bots/test_draft_value.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.board import board
from sim.state import State


@dataclass(frozen=True)
class Weights:
    """Evaluation units (12 = a point of final score) per unit of each feature."""
    borders: int
    outgunned: int
    leads: int
    ties: int


WEIGHTS = Weights(borders=-11, outgunned=-6, leads=23, ties=12)


@dataclass(frozen=True)
class DraftFeatures:
    """One seat's finished draft, as the fit reads it."""
    borders: int
    outgunned: int
    leads: int
    ties: int


def features(s: State) -> list[DraftFeatures]:
    """Every seat's features of the provinces as they stand."""
    b = board()
    side = s.config.side
    neighbours = b.neighbours[side]
    seats = len(s.players)
    owner = {name: p.owner for name, p in s.provinces.items()}
    borders = [0] * seats
    outgunned = [0] * seats
    counts: dict[str, list[int]] = {}
    for name, prov in s.provinces.items():
        me = prov.owner
        if me is None:
            continue
        counts.setdefault(b.provinces[name].region[side], [0] * seats)[me] += 1
        worst = 0
        for other in neighbours[name]:
            them = owner.get(other)
            if them is None or them == me:
                continue
            borders[me] += 1
            worst = max(worst, s.provinces[other].armies - prov.armies)
        outgunned[me] += worst
    leads = [0] * seats
    ties = [0] * seats
    for per_seat in counts.values():
        top = max(per_seat)
        holders = [i for i, c in enumerate(per_seat) if c == top]
        for i in holders:
            if len(holders) == 1:
                leads[i] += 1
            else:
                ties[i] += 1
    return [DraftFeatures(borders[i], outgunned[i], leads[i], ties[i]) for i in range(seats)]


def worth(f: DraftFeatures, w: Weights = WEIGHTS) -> int:
    """A seat's predicted final score (up to a constant) in evaluation units."""
    return (w.borders * f.borders + w.outgunned * f.outgunned + w.leads * f.leads
            + w.ties * f.ties)


def evaluate(s: State, seat: int, w: Weights = WEIGHTS) -> int:
    """My predicted final score minus the best rival's, in units (12 = 1 point)."""
    values = [worth(f, w) for f in features(s)]
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


__all__ = ["DraftFeatures", "WEIGHTS", "Weights", "evaluate", "features", "worth"]
