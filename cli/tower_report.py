"""`python main.py tower`: how the simulated tower behaves, in numbers and one picture.

The tower is calibrated against what players report of the real one (most cubes fall
through, a few stay, stuck cubes come loose later). This report is the quick way to see
whether a change to the geometry or physics kept it that way.
"""

from __future__ import annotations

import hashlib
import statistics
import time

from sim import tower
from sim.chance import ChanceStream

GAME_DROPS = 80          # battle drops per simulated game before a fresh tower
FILL = {0: 7, 1: 7, 2: 7, 3: 7, tower.PEASANT: 10}    # R-SETUP-6 with four players


def _seed(base: int, label: str, i: int) -> bytes:
    return hashlib.sha256(f"tower-report/{base}/{label}/{i}".encode()).digest()


def empty_tower_throws(drops: int, seed: int) -> list[int]:
    """Cubes out of each 10-cube throw into an empty tower."""
    return [sum(tower.drop(tower.EMPTY, {i % 5: 10}, _seed(seed, "empty", i)).out.values())
            for i in range(drops)]


def game_sequence(drops: int, seed: int) -> dict:
    """Game-like drops: a fill, then battles of 3-15 cubes (attacker + defender colours,
    sometimes a peasant), starting a new game every GAME_DROPS drops."""
    stream = ChanceStream(_seed(seed, "sequence", 0))
    inside: list[int] = []
    released: list[int] = []
    colour_returns = 0          # drops where a colour came out that nobody threw
    times: list[float] = []
    contents = tower.EMPTY
    for i in range(drops):
        if i % GAME_DROPS == 0:
            contents = tower.drop(tower.EMPTY, FILL, _seed(seed, "fill", i)).contents
        attacker = stream.below(5)
        defender = (attacker + 1 + stream.below(4)) % 5
        thrown = {attacker: 1 + stream.below(8), defender: 1 + stream.below(6)}
        if stream.below(3) == 0:
            thrown[tower.PEASANT] = 1
        start = time.perf_counter()
        result = tower.drop(contents, thrown, _seed(seed, "battle", i))
        times.append(time.perf_counter() - start)
        contents = result.contents
        inside.append(len(contents))
        released.append(result.released)
        colour_returns += any(c not in thrown for c in result.out)
    return {"inside": inside, "released": released, "colour_returns": colour_returns,
            "times": times, "contents": contents}


def run(args) -> int:
    drops = max(1, int(args.drops))
    seed = int(getattr(args, "seed", 1) or 0)
    outs = empty_tower_throws(drops, seed)
    seq = game_sequence(drops, seed)

    inside, released = seq["inside"], seq["released"]
    settled = inside[min(10, len(inside) - 1):]
    ms = sorted(t * 1000 for t in seq["times"])
    print(f"Tower: {drops} throws of 10 cubes into an empty tower")
    print(f"  pass-through: {statistics.mean(outs) * 10:.1f}% "
          f"(cubes out per throw: mean {statistics.mean(outs):.2f}, "
          f"min {min(outs)}, max {max(outs)})")
    print(f"Game-like sequence: {drops} battle drops (new game every {GAME_DROPS})")
    print(f"  cubes inside after a drop: mean {statistics.mean(settled):.1f}, "
          f"min {min(settled)}, max {max(settled)}")
    print(f"  held cubes released: {statistics.mean(released):.2f} per drop, "
          f"in {sum(1 for r in released if r) / len(released) * 100:.0f}% of drops; "
          f"a colour nobody threw came out in {seq['colour_returns']} drops")
    print(f"  time per drop: median {ms[len(ms) // 2]:.2f} ms, "
          f"p90 {ms[int(len(ms) * 0.9)]:.2f} ms")
    print(f"  self-test digest: {tower.self_test_digest()}")
    if args.plot:
        _plot(args.plot, outs, inside, seq["contents"])
        print(f"  plot written to {args.plot}")
    return 0


COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c8c8c")


def draw_tower(ax, contents: tower.TowerContents | None = None) -> None:
    """The tower's cross-section from GEOMETRY, with cubes drawn at their poses."""
    import math

    from matplotlib.patches import Polygon

    geometry = tower.GEOMETRY
    width = geometry["wall_radius"] * 2
    for name, segments in geometry["parts"].items():
        colour = {"baffle_1": "#8c564b", "baffle_2": "#bc6c25"}.get(name, "black")
        for (x1, y1), (x2, y2) in segments:
            ax.plot([x1, x2], [y1, y2], color=colour, linewidth=width * 1.2,
                    solid_capstyle="round")
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
    ax.set_title("Tower cross-section (mm, y up)")


def _plot(path: str, outs: list[int], inside: list[int],
          contents: tower.TowerContents) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(11, 7))
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.3))
    draw_tower(fig.add_subplot(grid[:, 0]), contents)
    hist = fig.add_subplot(grid[0, 1])
    hist.hist(outs, bins=[b - 0.5 for b in range(0, 12)], color="#1f77b4",
              edgecolor="black")
    hist.set_xticks(range(0, 11))
    hist.set_xlabel("cubes out of a 10-cube throw into an empty tower")
    hist.set_ylabel("throws")
    hist.set_title(f"Pass-through: mean {statistics.mean(outs) * 10:.1f}% "
                   f"over {len(outs)} throws")
    line = fig.add_subplot(grid[1, 1])
    line.plot(range(1, len(inside) + 1), inside, color="#2ca02c", linewidth=1)
    line.axhspan(8, 18, color="#2ca02c", alpha=0.1)
    line.set_xlabel("battle drop")
    line.set_ylabel("cubes inside")
    line.set_title("Tower contents over game-like drops (band: 8-18)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
