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
    # one draw per cube, colour by colour: the cubes inside first, then the thrown ones
    draws = rng.draws_below(1024, inside_total + sum(thrown.values()))
    at = 0
    for colour in sorted(set(before) | set(thrown)):
        there, falling = before.get(colour, 0), thrown.get(colour, 0)
        gone = sum(1 for x in draws[at:at + there] if x < loose)
        at += there
        gone += sum(1 for x in draws[at:at + falling] if x < through)
        at += falling
        stay = there + falling - gone
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
