"""The battle's decision as the stage says it (issue 48): the sides' totals counted the
way the rules count them, and the climax the stage ends on (the totals, the winner lit
and the loser dimmed, a banner saying what happened, a sting, a short hold).

One arithmetic: `battle_totals` counts a tray with the engine's own count
(`sim.rules.battle_count.count_battle`), so the peasants that count for a side are in
its total on the stage exactly as on the result card and in the log ("White 4 : 3
Blue", never "W 3 + 1 peasant out" beside "White 4"); `counted_by` says, per cube
colour, which side's total a cube adds to (the tray's columns under each side's panel).
`verdict` is the climax's words from the BattleResolved event (pure: tests read it).

Tests: tests/client/tower/test_climax.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from client.core import theme
from lang.i18n import _, ngettext
from sim.rules.battle_count import count_battle
from sim import events as ev
from sim.state import COLOURS

PEASANT = 5
Side = Literal["a", "d", ""]          # the attacker, the defender, neither


@dataclass(frozen=True)
class BattleKind:
    """What the count needs of a battle: its kind, the sides' colour codes (5 =
    peasants) and the province's unrest (peasants count for no one in an attack then)."""
    kind: str                  # attack | neutral | revolt
    attacker: int
    defender: int
    unrest: int = 0


def _code(v: int | str | None) -> int:
    return PEASANT if v is None or v in ("peasant", PEASANT) else int(v)


def kind_of(battle: ev.BattleResolved) -> BattleKind:
    """A BattleResolved (or its like) as the count needs it."""
    kind = str(battle.get("kind") or "attack")
    dfn = PEASANT if kind == "neutral" else _code(battle.get("defender"))
    return BattleKind(kind, _code(battle.get("attacker")), dfn, int(battle.get("unrest", 0) or 0))


def counted_by(b: BattleKind, code: int) -> Side:
    """Which side's total a cube of this colour adds to ('': it counts for no one and
    stays in the tray)."""
    if code == b.attacker:
        return "a"
    if code == b.defender:
        return "d"
    if code == PEASANT and (b.kind == "neutral" or (b.kind == "attack" and b.unrest == 0)):
        return "d"
    return ""


def battle_totals(b: BattleKind, counts: Mapping[int, int]) -> tuple[int, int]:
    """The attacker's and the defender's totals for a tray (colour code -> cubes): the
    engine's own count, peasants included as the rules count them."""
    tray = [0] * COLOURS
    for code, n in counts.items():
        if 0 <= code < COLOURS:
            tray[code] += int(n)
    if b.kind == "revolt":
        out = count_battle("revolt", PEASANT, b.defender, tray, b.unrest)
    elif b.kind == "neutral":
        out = count_battle("neutral", b.attacker, None, tray, b.unrest)
    else:
        out = count_battle("attack", b.attacker, b.defender, tray, b.unrest)
    return out.attacker_count, out.defender_count


def side_name(code: int) -> str:
    return _("Peasants") if code == PEASANT else theme.seat_name(code)


def totals_line(b: BattleKind, a: int, d: int) -> str:
    """"White 4 : 3 Blue": the attacker's total first, as its panel is on the left."""
    return _("{attacker} {a} : {d} {defender}").format(
        attacker=side_name(b.attacker), a=a, d=d, defender=side_name(b.defender))


@dataclass(frozen=True)
class Verdict:
    """The climax of one battle: the totals, who won ('a', 'd'; '' a draw) and the
    banner's words."""
    battle: BattleKind
    a: int
    d: int
    winner: Side
    headline: str              # "White takes Suruga"
    detail: str                # "1 army survives"
    totals: str                # "White 4 : 3 Blue"


def verdict(battle: ev.BattleResolved) -> Verdict:
    """The climax's words for a BattleResolved, as the rules have them: an attack won
    or held, a neutral province taken or held by its peasants, a revolt won or put
    down, a draw (and the ruling's draw: a defender only peasants counted for)."""
    b = kind_of(battle)
    prov = str(battle.get("province"))
    a, d = int(battle.get("attacker_count", 0) or 0), int(battle.get("defender_count", 0) or 0)
    res = str(battle.get("result") or "")
    n = int(battle.get("survivors", 0) or 0)
    survive = ngettext("{n} army survives", "{n} armies survive", n).format(n=n)
    winner: Side = "a" if res == "attacker" else "d" if res == "defender" else ""
    if res == "draw":
        head = _("A draw in {province}").format(province=prov)
        if b.kind == "attack" and d > a:
            detail = _("Only peasants counted for {seat}: a draw by the rules; {province} "
                       "becomes neutral").format(seat=side_name(b.defender), province=prov)
        else:
            detail = _("Both sides lose their counted cubes; {province} becomes neutral"
                       ).format(province=prov)
    elif b.kind == "revolt":
        if winner == "a":
            head = _("The peasants win the revolt in {province}").format(province=prov)
            detail = _("{province} loses its armies and buildings and becomes neutral"
                       ).format(province=prov)
        else:
            head = _("{seat} puts down the revolt in {province}").format(
                seat=side_name(b.defender), province=prov)
            detail = survive
    elif winner == "a":
        head = _("{seat} takes {province}").format(seat=side_name(b.attacker), province=prov)
        detail = survive
    elif b.kind == "neutral":
        head = _("The peasants hold {province}").format(province=prov)
        detail = _("{seat}'s attack fails; {province} stays neutral").format(
            seat=side_name(b.attacker), province=prov)
    else:
        head = _("{seat} holds {province}").format(seat=side_name(b.defender), province=prov)
        detail = survive
    return Verdict(b, a, d, winner, head, detail, totals_line(b, a, d))
