"""How the simulated tower behaves over many drops: the calibration figures of issue 11.

Why it is in `sim`: the figures are pure functions of seeds (no clock, no I/O), shared by
the calibration test (tests/sim/tower/test_stats.py), `./shogun tower` (cli/tower_report)
and the benchmarks, so all three measure the same thing.

A *game-like sequence* is a standard opening fill (7 cubes of each of four players and
10 peasants, R-SETUP-6) followed by battles: 2 to 14 army cubes split between an
attacker and a defender colour, plus 1 to 3 peasants in a third of the battles. Cubes are
followed one by one through `DropResult.origin`, so we know when each cube entered and
how many battles it stayed.

Tests: tests/sim/tower/test_stats.py.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass, field

from sim.tower import drop as tower
from sim.chance import ChanceStream

FILL = {0: 7, 1: 7, 2: 7, 3: 7, tower.PEASANT: 10}    # R-SETUP-6 with four players
BATTLES = 40                                           # battles per game-like sequence


def seed(*labels: object) -> bytes:
    return hashlib.sha256("tower-stats/".join(str(x) for x in labels).encode()).digest()


def battle_throw(stream: ChanceStream) -> dict[int, int]:
    """One game-like battle: 2-14 army cubes of two colours, sometimes peasants."""
    armies = 2 + stream.below(13)
    attacker = stream.below(4)
    defender = (attacker + 1 + stream.below(3)) % 4
    first = 1 + stream.below(armies - 1)
    thrown = {attacker: first, defender: armies - first}
    if stream.below(3) == 0:
        thrown[tower.PEASANT] = 1 + stream.below(3)
    return thrown


@dataclass
class Game:
    """One game-like sequence, battle by battle (index 0 is the first battle)."""
    inside: list[int] = field(default_factory=list)      # cubes inside after each battle
    thrown: list[int] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    ages_out: list[int] = field(default_factory=list)    # battles each cube out had stayed
    fill_left_at: int | None = None            # battle after which no fill cube was inside
    oldest: list[int] = field(default_factory=list)      # age of the oldest cube inside
    shakes: int = 0
    towers: list[tower.TowerContents] = field(default_factory=list)   # after each battle


def play_game(game: int, battles: int = BATTLES, base: str = "game") -> Game:
    """Fill an empty tower, then `battles` game-like battles; follow every cube."""
    stream = ChanceStream(seed(base, game, "throws"))
    first = tower.drop(tower.EMPTY, FILL, seed(base, game, "fill"))
    contents = first.contents
    born = [0] * len(contents)                 # battle each cube entered (fill: 0)
    g = Game()
    if not contents:
        g.fill_left_at = 0
    for b in range(1, battles + 1):
        thrown = battle_throw(stream)
        result = tower.drop(contents, thrown, seed(base, game, "battle", b))
        kept = {i for i in result.origin if i is not None}
        g.ages_out += [b - born[i] for i in range(len(contents)) if i not in kept]
        new_out = sum(result.out.values()) - (len(contents) - len(kept))
        g.ages_out += [0] * new_out            # thrown in this battle, straight through
        born = [born[i] if i is not None else b for i in result.origin]
        contents = result.contents
        g.inside.append(len(contents))
        g.thrown.append(sum(thrown.values()))
        g.out.append(sum(result.out.values()))
        g.shakes += result.shakes
        g.towers.append(contents)
        g.oldest.append(b - min(born) if born else 0)
        if g.fill_left_at is None and not any(n == 0 for n in born):
            g.fill_left_at = b
    return g


def empty_tower_throws(drops: int, base: int = 1) -> list[int]:
    """Cubes out of each 10-cube throw (two colours) into an empty tower."""
    return [sum(tower.drop(tower.EMPTY, {i % 4: 6, (i + 1) % 4: 4},
                           seed("empty", base, i)).out.values())
            for i in range(drops)]


def towers_holding(n: int, count: int, base: str = "holding") -> list[tower.TowerContents]:
    """Stored towers with exactly `n` cubes inside, found by throwing handfuls of 20-60
    cubes into towers until one keeps `n` (as after a run of big battles)."""
    found: list[tower.TowerContents] = []
    stream = ChanceStream(seed(base, n, "throws"))
    contents = tower.EMPTY
    k = 0
    while len(found) < count:
        if k > 200 * (count + 1):
            raise ValueError(f"no tower holding {n} cubes found in {k} throws")
        size = 20 + stream.below(41)
        colours = [stream.below(4), stream.below(4), tower.PEASANT]
        thrown: dict[int, int] = {}
        for j in range(size):
            c = colours[j % 3]
            thrown[c] = thrown.get(c, 0) + 1
        contents = tower.drop(contents if len(contents) < n else tower.EMPTY, thrown,
                              seed(base, n, k)).contents
        if len(contents) == n:
            found.append(contents)
            contents = tower.EMPTY
        k += 1
    return found


@dataclass(frozen=True)
class Summary:
    """The calibration figures over a set of game-like sequences."""
    games: int
    battles: int
    mean_inside: float
    max_inside: int
    out_equals_thrown: float                   # share of battles
    spread: dict[int, int]                     # out - thrown -> battles
    fill_out_within: float                     # share of games whose fill all left in time
    fill_left_at: list[int | None]
    shakes: int


def summarise(games: list[Game]) -> Summary:
    inside = [n for g in games for n in g.inside]
    diffs = [o - t for g in games for o, t in zip(g.out, g.thrown)]
    spread: dict[int, int] = {}
    for d in diffs:
        spread[d] = spread.get(d, 0) + 1
    return Summary(
        games=len(games), battles=len(diffs), mean_inside=statistics.mean(inside),
        max_inside=max(inside),
        out_equals_thrown=sum(1 for d in diffs if d == 0) / len(diffs),
        spread=dict(sorted(spread.items())),
        fill_out_within=sum(1 for g in games if g.fill_left_at is not None) / len(games),
        fill_left_at=[g.fill_left_at for g in games],
        shakes=sum(g.shakes for g in games))
