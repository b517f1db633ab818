"""The cards an event puts over the table: a battle's result beside its province (issue 36
item 3), the winter's scores under the map, the winter and a rice shortage. Words and
layout only: how long the table then waits is `EventPlayer`'s.

Tests: tests/client/tower/test_battle_view.py, tests/client/words/test_i18n_layout.py,
tests/client/game/test_fast_forward_stops.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from client.core import theme
from client.game.battle_results import battle_result_lines
from client.game.event_pace import CARD_FAST, CARD_SECONDS
from client.words.sentences import plural
from lang.i18n import _, ngettext
from sim import events as ev

if TYPE_CHECKING:
    from client.game.table_shared import TableViews
    from client.tower.battle_show import BattleShow


def show_battle_card(views: TableViews, battle: BattleShow, e: ev.BattleResolved, *,
                     fast: bool, speed: float, hold: bool, can_watch: bool) -> None:
    """Who won, what came out, the survivors, who holds the province now; `hold`: it
    stays until the player goes on; in fast-forward it shows for CARD_FAST seconds."""
    lines = battle_result_lines(e)
    if not fast:
        lines.append(_("Continue [Enter]   Watch again [R]") if can_watch
                     else _("Continue [Enter]"))
    banner = views.banner
    w = min(460.0, views.board_view.width * 0.6)
    h = 30 + sum(22 * (1 + len(line) // max(20, int(w / 9))) for line in lines)
    banner.set_rect(*battle.card_rect(w, h))
    banner.show(lines, CARD_FAST if fast else CARD_SECONDS / max(1.0, speed),
                colour=theme.mix((40, 30, 25), theme.seat_colour(e.get("attacker")), 0.25),
                sticky=hold)
    banner.set_rect(*battle.card_rect(w, h))
    banner.mark_dirty()


def show_scoring_card(views: TableViews, scoring: Iterable[ev.Scored], year: object,
                      speed: float) -> None:
    """This winter's scores below the map (the majorities are marked on it), over the
    info panel."""
    i = views.info
    views.banner.set_rect(i.left, i.bottom, i.width, i.height)
    views.banner.show(scoring_lines(scoring, year), 4.0 / max(1.0, speed), colour=(35, 55, 45))
    views.banner.set_rect(i.left, i.bottom, i.width, i.height)   # the panel whole: `show`
    # fits the box to its lines, and the panel's first line peeked out above it


def scoring_lines(scoring: Iterable[ev.Scored], year: object) -> list[str]:
    """This winter's scores in sentences, the biggest gain first (the majorities are
    marked on the map, client/game/winter_show.py; here the sums)."""
    lines = [_("Winter scoring — year {year}").format(year=year)]
    for e in sorted(scoring, key=lambda x: -x.get("gained", 0)):
        lines.append(_("{seat} +{gained} (now {score}): {provinces}, {buildings}, "
                       "{majority} for majorities").format(
            seat=theme.seat_name(e["seat"]), gained=e["gained"], score=e["score"],
            provinces=plural(e["provinces"], "province"), buildings=plural(e["buildings"], "building"),
            majority=e.get("majority_points", 0)))
    return lines


def winter_lines(e: ev.WinterStarted) -> list[str]:
    return [_("Winter of year {year}").format(year=e["year"]),
            _("Everyone loses {n} rice; shortages cause revolts.").format(n=e["rice_loss"])]


def place_clear_of(views: TableViews, names: Iterable[str]) -> None:
    """The banner moved up or down the map, as near its middle as it can be, so that it
    covers none of the provinces its lines name (a shortage's revolts, which the player
    may next be asked to click: at 960x640 the tutorial's "2 revolts: Iyo, Ise" lay over
    Iyo); where every height covers one, the height that covers fewest."""
    b, board = views.banner, views.board_view
    boxes = [board.province_box(n) for n in names if n in board.board.provinces]
    if not boxes or not b.visible:
        return

    def covered(y: float) -> int:
        return sum(1 for x0, y0, w, h in boxes if b.left < x0 + w and x0 < b.right
                   and y < y0 + h and y0 < y + b.height)
    low, high = board.bottom + 8, board.top - 8 - b.height
    heights = [b.bottom] + [low + k * 6.0 for k in range(int(max(0.0, high - low) / 6) + 1)]
    best = min(heights, key=lambda y: (covered(y), abs(y - b.bottom)))
    b.set_rect(b.left, best, b.width, b.height)


def shortage_lines(e: ev.Shortage) -> list[str]:
    return [_("{seat}: rice shortage {n}").format(seat=theme.seat_name(e["seat"]), n=e["shortage"]),
            ngettext("{n} revolt: {provinces}", "{n} revolts: {provinces}", e["revolts"]).format(
                n=e["revolts"], provinces=", ".join(e.get("drawn", []) or []))]
