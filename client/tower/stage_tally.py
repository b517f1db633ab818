"""The running count of a drop's cubes in the tray, as the players read it: per side in
a battle ("Blue 4 — 3 Orange"), by colour otherwise ("Out: 7 Blue, 1 Peasant"), and on
the stage in large type in each side's tray (`stage_trays`, counted by `stage_climax`). Functions of the counts (colour code ->
cubes landed), which the tower view keeps as the cubes land.

Tests: tests/client/tower/test_cubes.py, tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

from typing import Callable

from client.core.theme import SEAT_NAMES, seat_name
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
