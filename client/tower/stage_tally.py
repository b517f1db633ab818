"""The running count of a drop's cubes in the tray, as the players read it: per side in
a battle ("Blue 4 — 3 Orange"), by colour otherwise ("Out: 7 Blue, 1 Peasant"), and on
the stage in large type in each side's panel. Functions of the counts (colour code ->
cubes landed), which the tower view keeps as the cubes land.

Tests: tests/client/tower/test_cubes.py, tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

from typing import Callable

import arcade

from client.core.text_cache import TextCache
from client.core.theme import SEAT_NAMES, seat_name
from client.tower.cube_textures import cube_face, cube_mark
from client.tower.stage_layout import Box
from client.tower.stage_sides import SideFacts, count_rect
from lang.i18n import _, ngettext


def cubes_of(n: int, colour: int, named: Callable[[int], str]) -> str:
    """"3 Blue", "1 Peasant" (the peasants' name counts: one peasant is singular)."""
    if colour == 5:
        return ngettext("{n} Peasant", "{n} Peasants", n).format(n=n)
    return f"{n} {named(colour)}"


def count_forms(counts: dict[int, int], sides: tuple[int, int] | None) -> list[str]:
    """The tray's count, longest first: in full; without the cubes of neither side;
    with the sides' colours for the players' names (a narrow battle view)."""
    if not counts:
        return []
    if sides is not None:
        att, dfn = sides
        a, b = counts.get(att, 0), counts.get(dfn, 0)
        rest = sum(counts.values()) - a - b
        out = []
        for named in (seat_name, lambda c: SEAT_NAMES[c] if 0 <= c < len(SEAT_NAMES)
                      else seat_name(c)):
            names = {"attacker": seat_name("peasant") if att == 5 else named(att), "a": a,
                     "defended": cubes_of(b, dfn, named), "n": rest}
            if rest:
                out.append(ngettext("{attacker} {a} — {defended} (and {n} other cube)",
                                    "{attacker} {a} — {defended} (and {n} other cubes)",
                                    rest).format(**names))
            out.append(_("{attacker} {a} — {defended}").format(**names))
        return list(dict.fromkeys(out))
    parts = [cubes_of(n, c, seat_name) for c, n in sorted(counts.items())]
    return [_("Out: {cubes}").format(cubes=", ".join(parts))]


def side_counts(counts: dict[int, int], sides: tuple[int, int]) -> tuple[int, int, int]:
    """The attacker's cubes out, the defender's, and the peasants' when they are
    neither side."""
    att, dfn = sides
    p = counts.get(5, 0) if 5 not in sides else 0
    return counts.get(att, 0), counts.get(dfn, 0), p


def draw_panel_counts(words: TextCache, facts: tuple[SideFacts, SideFacts],
                      counts: tuple[int, int, int], panels: tuple[Box, Box], k: float) -> None:
    """Each side's count in its panel's lower part, a cube and a large number (`k`: the
    stage's type scale); the peasants out beside the defender's."""
    for key, side, n, rect in zip(("a", "d"), facts, counts[:2], panels):
        x, y, w, h = count_rect(rect, k)
        size = 44 * k
        for tex in (cube_face(side.code), cube_mark(side.code)):
            arcade.draw_texture_rect(tex, arcade.XYWH(x + 14 * k + size / 2, y + h / 2, size, size))
        words.put((key, "n"), str(n), x + 28 * k + size, y + h / 2, size=40 * k,
                  bold=True, color=(255, 244, 222), anchor_y="center")
        words.put((key, "out"), _("out of the tower"), x + 14 * k, y + h - 4,
                  size=11 * k, color=(226, 210, 186), anchor_y="top")
    if counts[2]:
        x, y, w, h = count_rect(panels[1], k)
        words.put("p", ngettext("+ {n} peasant out", "+ {n} peasants out", counts[2])
                  .format(n=counts[2]), x + w - 10 * k, y + h / 2, size=14 * k,
                  bold=True, color=(200, 230, 190), anchor_x="right", anchor_y="center")
