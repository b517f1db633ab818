"""What a battle leaves, said and counted from its `sim.events` records: the result
card's sentences, the tray after a drop and after the count (the engine's own count),
and what the log says when this computer's re-run of a drop is not the table's. Pure
functions, so the table, a film's cards and tests share them.

Tests: tests/client/words/test_whole_sentences.py, tests/client/tower/test_battle_view.py,
tests/client/game/test_fast_forward_stops.py.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from client.core import theme
from lang.i18n import _, ngettext
from sim import events as ev
from sim.rules.battle_count import count_battle
from client.tower.battle_show import battle_context
from sim.state import COLOURS, PEASANT, colour_map
from sim.tower import drop as tower
from sim.tower.contents import TowerContents

if TYPE_CHECKING:
    from client.sessions.interface import Played
    from sim.tower.drop import DropResult


def tray_dropped(before: dict[str, int] | None, e: ev.TowerDropped) -> dict[str, int]:
    """The tray after a drop: what came out of a battle (which threw the tray's cubes in
    first); after the tower's fill it is empty (R-SETUP-6: what came out goes back)."""
    if e["reason"] == "fill":
        return {}
    return {c: n for c, n in e["out"].items() if n}


def tray_counted(e: ev.BattleResolved) -> dict[str, int]:
    """The tray after a battle: its sides' cubes counted off, what did not count stays
    (the engine's own count, `sim.rules.battle_count`, on the event's tray)."""

    def code(side: int | str) -> int:
        return PEASANT if side == "peasant" else int(side)
    out = [0] * COLOURS
    for c, n in e["out"].items():
        out[PEASANT if c == "peasant" else int(c)] += n
    kind = e["kind"]
    defender = None if kind == "neutral" else code(e["defender"])
    after = count_battle(kind, code(e["attacker"]), defender, out, e["unrest"])
    return {str(c): n for c, n in colour_map(after.tray_after).items()}


def battle_result_lines(e: ev.BattleResolved) -> list[str]:
    """A battle's result in sentences: where, what came out of the tower, who won, the
    survivors and who holds the province now (the banner over the map, a film's card)."""
    prov = e["province"]
    kind = e["kind"]
    head = (_("Revolt in {province}") if kind == "revolt" else
            _("Attack on neutral {province}") if kind == "neutral" else
            _("Battle in {province}")).format(province=prov)
    att, dfn = e["attacker"], e["defender"]
    res = e["result"]
    winner = {"attacker": theme.seat_name(att), "defender": theme.seat_name(dfn)}.get(res, "")
    owner = e["new_owner"]
    n = e["survivors"]
    return [head,
            _("Out of the tower: {attacker} {a} vs {defender} {d}").format(
                attacker=theme.seat_name(att), a=e["attacker_count"],
                defender=theme.seat_name(dfn), d=e["defender_count"]),
            (_("A draw: the province falls empty") if res == "draw" else
             _("The peasants win") if {"attacker": att, "defender": dfn}.get(res) in ("peasant", None)
             else _("{seat} wins").format(seat=winner)),
            (ngettext("{n} army survives — {province} belongs to {seat}",
                      "{n} armies survive — {province} belongs to {seat}", n)
             if owner is not None else
             ngettext("{n} army survives — {province} is neutral",
                      "{n} armies survive — {province} is neutral", n)).format(
                n=n, province=prov, seat=theme.seat_name(owner) if owner is not None else "")]


def drop_differs(e: ev.TowerDropped, res: DropResult) -> bool:
    """My re-run of a drop (`res`) does not end as the table's outcome in the log (`e`)."""
    return colour_map(res.out) != e["out"] or \
        colour_map(res.contents.counts()) != e["inside_after"]


# what the log says when my drop is not the table's, by how the table decided it
DROP_DIFFERS_SAID = {
    "physics": lambda: _("This computer's physics settled the drop differently; the table "
                         "applied the drop of the players' deterministic physics, and the "
                         "tray shows that one."),
    "majority": lambda: _("This computer's physics settled the drop differently; the table "
                          "applied the drop most players' computers agreed on, and the tray "
                          "shows that one."),
    "model": lambda: _("The players' computers settled this drop differently and no "
                       "majority agreed, so the drop was settled from its random seed; the "
                       "animation is this computer's, the tray shows the table's drop."),
}


def replay_drop(rep: ev.TowerReplay) -> DropResult:
    """This computer's re-run of a drop from its record in the log, recorded for the
    tower view to play."""
    res = tower.drop(TowerContents.from_wire(rep["before"]),
                     {int(c): int(n) for c, n in rep["thrown"]},
                     bytes.fromhex(rep["seed"]), record=True)
    assert res.recording is not None        # asked for with record=True
    return res


def province_fought_by(mine: Collection[int], dropped: ev.TowerDropped,
                       batch: Sequence[Played]) -> str | None:
    """The province of the battle this drop decides when one of my seats fights in it
    (attacks, defends, or faces a revolt), else None."""
    battle, _origin = battle_context(dropped, batch)
    if battle is None or not mine:
        return None
    fighting = (battle.get("attacker"), battle.get("defender"))
    return str(battle.get("province")) if any(s in mine for s in fighting) else None
