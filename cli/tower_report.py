"""`./shogun tower`: how the simulated tower behaves, in numbers and one picture.

The tower is calibrated against what players report of the real one (it retains about
five cubes, lets four to nine fall out each go, old cubes come out later; issue 11).
This report prints every calibration figure next to its band, so a change to the
geometry or the physics can be checked at a glance; `--plot FILE` draws them.
The figures come from `sim.tower.stats`, the same code the calibration test uses.

Tests: tests/cli/test_tower_report.py.
"""

from __future__ import annotations

import argparse
from typing import Any
import math
import statistics
import time

from sim.tower import drop as tower, stats as tower_stats
from sim.tower.stats import BATTLES, Game, Summary
from sim.tower.build import selftest, selftest_line, selftest_verdict

BIG_DROPS = 40           # 60-cube throws into a tower holding 15 (the test runs 500)


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def run(args: argparse.Namespace) -> int:
    if getattr(args, "selftest", False):
        test = selftest()
        print(selftest_line(test))
        print(selftest_verdict(test))
        return 0
    drops = max(BATTLES, int(args.drops))
    base = int(getattr(args, "seed", 1) or 0)
    games_n = max(1, round(drops / BATTLES))
    start = time.perf_counter()
    games = [tower_stats.play_game(g, base=f"report {base}") for g in range(games_n)]
    elapsed = time.perf_counter() - start
    summary = tower_stats.summarise(games)
    outs = tower_stats.empty_tower_throws(200, base=base)
    quiet = sum(1 for k, t in enumerate(t for g in games for t in g.towers)
                if tower.drop(t, {}, tower_stats.seed("quiet", base, k)).out)
    big = [tower.drop(t, {0: 15, 1: 15, 2: 15, tower.PEASANT: 15},
                      tower_stats.seed("big", base, k))
           for k, t in enumerate(tower_stats.towers_holding(15, 4, base=f"report {base}")
                                 * (BIG_DROPS // 4))]
    _print(summary, games, outs, quiet, big, elapsed)
    if args.plot:
        _plot(args.plot, summary, games, outs)
        print(f"Plot written to {args.plot}")
    return 0


def _print(s: Summary, games: list[Game], outs: list[int], quiet: int,
           big: list[tower.DropResult], elapsed: float) -> None:
    ages = [a for g in games for a in g.ages_out]
    through = sum(1 for a in ages if a == 0) / len(ages)
    later = sorted(a for a in ages if a > 0)
    done = sorted(x for x in s.fill_left_at if x is not None)
    diffs = [d for d, n in s.spread.items() if n]
    print(f"Tower: {_plural(s.games, 'game-like sequence')} of {BATTLES} battles after a "
          f"standard fill (7 cubes of 4 players, 10 peasants)")
    print(f"  cubes inside after a battle: mean {s.mean_inside:.1f} (band 4-8), "
          f"max {s.max_inside}")
    print(f"  cubes out equal to cubes thrown: {_pct(s.out_equals_thrown)} of battles "
          f"(band: at most 40%); out minus thrown ranged {min(diffs):+d} to {max(diffs):+d}")
    print(f"  10 cubes into an empty tower: {statistics.mean(outs) * 10:.1f}% come out "
          f"(band 60-85%), {min(outs)} to {max(outs)} per throw over {len(outs)} throws")
    print(f"  every cube of the opening fill out within {BATTLES} battles: "
          f"{len(done)} of {s.games} games (band: at least 90%)"
          + (f", the last one left after {statistics.median(done):.0f} battles (median)"
             if done else ""))
    print(f"  cubes leaving: {_pct(through)} straight through, {_pct(1 - through)} after "
          f"staying in the tower" + (f" (median {statistics.median(later):.0f}, longest "
                                     f"{later[-1]} battles)" if later else ""))
    print(f"  oldest cube inside at any time: {max(x for g in games for x in g.oldest)} "
          f"battles (no permanent column)")
    print(f"  nothing thrown into the {sum(len(g.towers) for g in games)} towers after each "
          f"battle: {quiet} released cubes (band: none)")
    worst = max(len(r.contents) for r in big)
    print(f"  60 cubes into a tower holding 15: at most {worst} inside after "
          f"{len(big)} drops (band: under 30); {sum(r.shakes for r in big)} shakes; "
          f"{sum(r.spilled for r in big)} cubes counted out without leaving")
    print(f"  {s.battles} battle drops took {elapsed:.1f} s "
          f"({elapsed / s.battles * 1000:.1f} ms per drop, including the cube tracking)")
    print(f"  self-test digest: {tower.self_test_digest()}")
    print(f"  canary digest:    {tower.canary_digest()}")


COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c8c8c")


def draw_tower(ax: Any, contents: tower.TowerContents | None = None) -> None:
    """The tower's cross-section from GEOMETRY, with cubes drawn at their poses."""

    from matplotlib.patches import Polygon  # matplotlib: only for --plot

    geometry = tower.GEOMETRY
    width = geometry["wall_radius"] * 2
    part_colour = {"ribs": "#bc6c25", "floor_1": "#8c564b", "floor_2": "#8c564b"}
    for name, segments in geometry["parts"].items():
        for (x1, y1), (x2, y2) in segments:
            ax.plot([x1, x2], [y1, y2], color=part_colour.get(name, "black"),
                    linewidth=width * 0.9, solid_capstyle="round")
    half = geometry["cube"] / 2
    for cube in (contents.cubes if contents else ()):
        x, y = cube.x / tower.POS_SCALE, cube.y / tower.POS_SCALE
        a = cube.angle * 2 * math.pi / tower.ANGLE_SCALE
        corners = [(x + half * (math.cos(a) * dx - math.sin(a) * dy),
                    y + half * (math.sin(a) * dx + math.cos(a) * dy))
                   for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        ax.add_patch(Polygon(corners, closed=True, facecolor=COLOURS[cube.colour],
                             edgecolor="black", linewidth=0.5))
    ax.set_aspect("equal")
    ax.set_xlim(-10, geometry["tray_end"] + 10)
    ax.set_ylim(-15, geometry["top"] + 10)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"After the last battle:\n{_plural(len(contents or ()), 'cube')} inside",
                 fontsize=10)


def _plot(path: str, s: Summary, games: list[Game], outs: list[int]) -> None:
    import matplotlib  # matplotlib: only for --plot
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # (after choosing the Agg backend)

    fig = plt.figure(figsize=(14, 8))
    grid = fig.add_gridspec(2, 3, width_ratios=(0.8, 1.3, 1.3))
    draw_tower(fig.add_subplot(grid[:, 0]), games[-1].towers[-1])

    line = fig.add_subplot(grid[0, 1])
    line.axhspan(4, 8, color="#2ca02c", alpha=0.12, label="band: 4 to 8")
    for g in games:
        line.plot(range(1, len(g.inside) + 1), g.inside, color="#1f77b4", alpha=0.25,
                  linewidth=0.8)
    mean = [statistics.mean(g.inside[b] for g in games) for b in range(BATTLES)]
    line.plot(range(1, BATTLES + 1), mean, color="#1f77b4", linewidth=2.5,
              label=f"mean of {s.games} games ({s.mean_inside:.1f})")
    line.set_xlabel("battle")
    line.set_ylabel("cubes inside the tower")
    line.set_title("How many cubes the tower holds, battle by battle", fontsize=10)
    line.legend(fontsize=8, loc="upper right")

    scatter = fig.add_subplot(grid[0, 2])
    pairs: dict[tuple[int, int], int] = {}
    for g in games:
        for t, o in zip(g.thrown, g.out):
            pairs[(t, o)] = pairs.get((t, o), 0) + 1
    xs, ys, sizes = zip(*((t, o, n) for (t, o), n in sorted(pairs.items())))
    scatter.scatter(xs, ys, s=[12 * n for n in sizes], color="#ff7f0e", alpha=0.6,
                    edgecolor="black", linewidth=0.3)
    top = max(max(xs), max(ys)) + 1
    scatter.plot([0, top], [0, top], color="black", linewidth=1, linestyle="--",
                 label=f"out = thrown ({_pct(s.out_equals_thrown)} of battles)")
    scatter.set_xlabel("cubes thrown in (bigger dot: more battles)")
    scatter.set_ylabel("cubes that came out")
    scatter.set_title("Cubes out against cubes thrown, per battle", fontsize=10)
    scatter.legend(fontsize=8, loc="upper left")

    hist = fig.add_subplot(grid[1, 1])
    ages = [a for g in games for a in g.ages_out]
    longest = max(ages)
    hist.hist(ages, bins=[b - 0.5 for b in range(0, longest + 2)], color="#9467bd",
              edgecolor="black", linewidth=0.3)
    hist.set_yscale("log")
    hist.set_xlabel("battles the cube had stayed inside (0: straight through)")
    hist.set_ylabel("cubes out (log scale)")
    hist.set_title("How long cubes stay before they come out", fontsize=10)

    empty = fig.add_subplot(grid[1, 2])
    empty.hist(outs, bins=[b - 0.5 for b in range(0, 12)], color="#2ca02c",
               edgecolor="black")
    empty.axvspan(6.0, 8.5, color="#2ca02c", alpha=0.12,
                  label="band for the average: 6 to 8.5 of 10")
    empty.axvline(statistics.mean(outs), color="black", linewidth=1.5,
                  label=f"average: {statistics.mean(outs):.1f}")
    empty.set_xticks(range(0, 11))
    empty.set_xlabel("cubes out of 10 thrown into an empty tower")
    empty.set_ylabel("throws")
    empty.set_title(f"10 cubes into an empty tower: {statistics.mean(outs) * 10:.0f}% "
                    f"come out ({len(outs)} throws)", fontsize=10)
    empty.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
