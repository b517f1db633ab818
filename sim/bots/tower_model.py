"""A statistical stand-in for the physics tower, for the hard bot's look-ahead only.

Why: a physics drop costs milliseconds to tens of milliseconds; a search runs thousands of
drops per decision. The game itself always uses the physics (`sim.tower.drop.settle`); this
model only has to make the bot's imagined futures look like the real ones on average.
Each thrown cube falls through with a probability, and each cube already inside comes
loose with another, both by how full the tower is. The rates (`sim.tower.odds`, shared with
the network's fallback) are per 1024 and drawn with integer arithmetic from the bot's own
`ChanceStream`, so the model gives the same answer on every machine. They were fitted to
1,200 game-like drops of the tower v2 (`tools/fit_tower_model.py`);
`tests/sim/bots/test_tower_model.py` compares the two.

Tests: tests/sim/bots/test_tower_model.py.
"""

from __future__ import annotations

from sim.chance import ChanceStream
from sim.commands import TowerSettled
from sim.state import Decision
from sim.tower.contents import Cube, TowerContents
from sim.tower.odds import rates


def model_drop(before: dict[int, int], thrown: dict[int, int],
               rng: ChanceStream) -> tuple[dict[int, int], dict[int, int]]:
    """(out per colour, inside per colour) after throwing `thrown` onto `before`."""
    inside_total = sum(before.values())
    through, loose = rates(inside_total)
    out: dict[int, int] = {}
    inside: dict[int, int] = {}
    for colour in sorted(set(before) | set(thrown)):
        stay = 0
        gone = 0
        for _ in range(before.get(colour, 0)):
            if rng.below(1024) < loose:
                gone += 1
            else:
                stay += 1
        for _ in range(thrown.get(colour, 0)):
            if rng.below(1024) < through:
                gone += 1
            else:
                stay += 1
        if gone:
            out[colour] = gone
        if stay:
            inside[colour] = stay
    return out, inside


def settle(decision: Decision, rng: ChanceStream) -> TowerSettled:
    """A `TowerSettled` for a `tower` decision from the model (look-ahead only)."""
    detail = decision.detail
    before: dict[int, int] = {}
    for colour, *_pose in detail["before"]:
        before[colour] = before.get(colour, 0) + 1
    thrown = {c: n for c, n in enumerate(detail["thrown"]) if n}
    out, inside = model_drop(before, thrown, rng)
    cubes = tuple(Cube(c, 0, 0, 0) for c in sorted(inside) for _ in range(inside[c]))
    return TowerSettled(tuple(sorted(out.items())), TowerContents(cubes))
