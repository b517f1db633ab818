"""Where each thrown cube of a battle is gathered from before the pour (issue 36): the
cubes that were lying in the tray from their places in the tray, a side's own from the
cubes its panel shows (in their order), any others from a scatter over the panel of
their side (the attacker's left, the defender's and the peasants' right).

Tests: tests/client/tower/test_stage_frames.py, tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from client.tower.drop_play import DropPlay, code_of, tray_places
from client.tower.stage_layout import Box

if TYPE_CHECKING:
    from sim.tower.geometry import GeometryData

Icon = tuple[int, float, float, float]          # a panel's cube: code, x, y (pixels), size


def place_origins(drop: DropPlay, geo: GeometryData, xf: tuple[float, float, float],
                  panels: tuple[Box, Box], icons: dict[str, list[Icon]],
                  from_tray: dict[int, int]) -> None:
    """Set `drop.origins` (tower units) for the thrown cubes; `xf`: the tower's scale
    and origin, `icons`: the cubes each panel shows ('a', 'd'), `from_tray`: how many
    thrown cubes of each colour code were in the tray."""
    s, ox, oy = xf
    rec = drop.rec
    left, right = panels
    tray_left = dict(from_tray)
    tray_codes: list[int] = []
    for c, n in sorted(tray_left.items()):
        tray_codes += [c] * n
    places = tray_places(geo, tray_codes)
    tray_next: dict[int, int] = {}
    att = drop.sides[0] if drop.sides else -1
    mine_of = {side: [p for p in icons.get(side, []) if p[0] == code]
               for side, code in zip(("a", "d"), drop.sides or ())}
    used = {"a": 0, "d": 0}
    for i in range(len(rec.colours) - 1, rec.inside_before - 1, -1):   # the last thrown: the tray's
        c = code_of(rec.colours[i])
        if tray_left.get(c, 0) > 0:
            tray_left[c] -= 1
            k = tray_next.get(c, 0)
            tray_next[c] = k + 1
            j = [n for n, code in enumerate(tray_codes) if code == c][k]
            drop.origins[i] = places[j][:2]
            continue
        side = "a" if c == att else "d"
        mine = mine_of.get(side, [])
        if used[side] < len(mine) and mine[used[side]][0] == c:
            _c, px, py, _size = mine[used[side]]
            used[side] += 1
            drop.origins[i] = ((px - ox) / s, (py - oy) / s)
            continue
        lx, lb, lw, lh = left if c == att else right
        rank = drop.hand.get(i, 0)
        px = lx + lw * (0.2 + 0.6 * ((rank * 37) % 11) / 10)
        py = lb + lh * (0.25 + 0.1 * ((rank * 17) % 7) / 6)
        drop.origins[i] = ((px - ox) / s, (py - oy) / s)
