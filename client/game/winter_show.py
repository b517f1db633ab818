"""Winter scoring on the board (issue 13, item 6): each region's majorities marked on the
map where they were won, each player's points flying from the map to their row of the
players panel, and a pause long enough to read it.

Fast-forward skips an ordinary winter's scoring but never the last one (the game's final
scores): that one holds for HOLD_LAST real seconds unless the player skips it (S, the
"skip" key that also skips a drop). The pause is counted in real time at the scene's
speed (fast-forward counts as speed 1 here).

Tests: tests/client/game/test_winter_view.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

import arcade

from client.core import theme
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.game.status_lines import active_seats
from lang.i18n import N_, _
from sim import events as ev
from client.board.map_geometry import text_width

if TYPE_CHECKING:
    from client.game.table_shared import SceneState, TableViews
    from client.sessions.interface import GameSession

BUILDING_WORDS = {"palace": N_("castle"), "temple": N_("temple"), "theatre": N_("theatre")}

FLIGHT = 1.1        # seconds a "+N" takes from the map to the player's row (speed 1)
STAGGER = 0.3       # seconds between two players' flights
HOLD = 3.5          # seconds an ordinary winter's scoring stays (speed 1)
HOLD_LAST = 4.5     # the last winter's scoring: held even in fast-forward


def region_marks(scored: Sequence[ev.Scored]) -> dict[str, list[tuple[int, str]]]:
    """region -> [(seat, "castle 3, temple 2")] from the `Scored` events' `regions`."""
    marks: dict[str, list[tuple[int, str]]] = {}
    for e in sorted(scored, key=lambda e: e["seat"]):
        for region, kinds in (e.get("regions") or {}).items():
            won = sorted((kind, pts) for kind, pts in kinds.items() if pts)
            if won:
                text = ", ".join(f"{_(BUILDING_WORDS.get(kind, kind))} {pts}" for kind, pts in won)
                marks.setdefault(region, []).append((e["seat"], text))
    return marks


class WinterShow(Node):
    """Over the whole scene; the event player calls `show(scored, last)` after a Scored
    block."""

    def __init__(self, session: GameSession, shared: SceneState, views: TableViews,
                 blocked: Callable[[], bool]) -> None:
        super().__init__("winter")
        self.session = session
        self.shared = shared
        self.views = views
        self.blocked = blocked           # a question or the rules cover the table: wait
        self.layout_changed = Signal("layout_changed")   # the banner goes back: lay out again
        self.visible = False
        self.last = False
        self.left_s = 0.0            # seconds of the pause still to run
        self.t = 0.0
        self.flights: list[tuple[int, int, tuple[float, float], tuple[float, float]]] = []   # seat, gained, from, to
        self.totals: dict[int, int] = {}     # seat -> score after this scoring
        self.arrived: set[int] = set()       # seats whose points reached their row
        self.shown = 0               # scorings shown (tests read it)
        self.texts = TextCache()
        views.board_view.marks_clear_of = lambda: [self.title_rect()]   # chips off the title

    @property
    def holding(self) -> bool:
        return self.visible and self.left_s > 0

    def show(self, scored: Sequence[ev.Scored], last: bool) -> None:
        bv = self.views.board_view
        bv.set_marks(region_marks(scored))
        self.flights = []
        for k, e in enumerate(sorted(scored, key=lambda e: e["seat"])):
            regions = list((e.get("regions") or {}).keys())
            if regions:
                pts = [bv.region_centre(r) for r in regions]
                start = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
            else:
                start = (bv.left + bv.width / 2, bv.bottom + bv.height / 2)
            self.flights.append((e["seat"], int(e.get("gained", 0)), start, self._row(e["seat"])))
            self.totals[e["seat"]] = int(e.get("score", 0))
        self.arrived = set()
        self.t = 0.0
        self.last = last
        self.left_s = HOLD_LAST if last else HOLD
        self.visible = True
        self.shown += 1
        if not self.shared.fast:
            self.views.sounds.play("score")
        damage()

    def _row(self, seat: int) -> tuple[float, float]:
        """The middle of a seat's score in the players panel."""
        p = self.views.players
        n = max(1, self.session.config.players)
        rh = int(min(80.0, (p.height - 4) / n))
        return p.right - 40, p.top - 2 - rh * seat - rh / 2

    def _arrive(self, seat: int) -> None:
        """A seat's points reached its row: its score in the panel goes up."""
        self.arrived.add(seat)
        d = self.shared.display
        if d and str(seat) in d.get("players", {}):
            d["players"][str(seat)]["score"] = self.totals[seat]
            self.views.players.set_state(d, active=active_seats(self.session),
                                         me=self.session.my_seats)

    def arrive_all(self) -> None:
        """Every player's points in their row now (the show stays: a tutorial step holds
        the table on it and asks to read the points)."""
        for seat in self.totals:
            if seat not in self.arrived:
                self._arrive(seat)
        self.t = max(self.t, FLIGHT + STAGGER * len(self.flights))
        damage()

    def skip(self) -> bool:
        if not self.visible:
            return False
        self.arrive_all()
        self.left_s = 0.0
        self.hide()
        return True

    def hide(self) -> None:
        if self.visible:
            self.visible = False
            self.views.board_view.set_marks(None)
            self.views.banner.hide()
            self.layout_changed.emit()    # the banner back to the map's middle
            damage()

    def on_update(self, dt: float) -> None:
        if not self.visible:
            return
        sc = self.shared
        if sc.paused or self.blocked():
            return
        rate = 1.0 if sc.fast else sc.speed
        if sc.fast and not self.last:
            self.left_s = 0.0
        self.t += dt * rate
        self.left_s -= dt * rate
        if self.t < FLIGHT + STAGGER * len(self.flights):
            damage()                 # the chips move: a full repaint this frame
        for k, (seat, *_rest) in enumerate(self.flights):
            if seat not in self.arrived and self.t >= k * STAGGER + FLIGHT:
                self._arrive(seat)
        if self.left_s <= 0:
            self.hide()

    def on_draw(self) -> None:
        self.texts.begin()
        for k, (seat, gained, (x0, y0), (x1, y1)) in enumerate(self.flights):
            u = (self.t - k * STAGGER) / FLIGHT
            if u < 0:
                continue
            if u >= 1.0:
                continue                 # arrived: the panel shows the new score
            u = min(1.0, u)
            e = u * u * (3 - 2 * u)
            x = x0 + (x1 - x0) * e
            y = y0 + (y1 - y0) * e + 60 * (1 - (2 * u - 1) ** 2)     # an arc
            colour = theme.seat_colour(seat)
            arcade.draw_lbwh_rectangle_filled(x - 30, y - 13, 60, 26, (20, 20, 20))
            arcade.draw_lbwh_rectangle_filled(x - 28, y - 11, 56, 22, colour)
            self.texts.put(("f", k), f"+{gained}", x, y, size=12, bold=True,
                           color=theme.text_on(colour), anchor_x="center", anchor_y="center")
        title = self.title()
        bv = self.views.board_view
        left, bottom, w, _h, size = self._title_place()
        self.texts.put("t", title, left + w / 2, bottom + 10, size=size, bold=True,
                       color=(255, 250, 235), anchor_x="center")
        self.texts.end()
        arcade.draw_lbwh_rectangle_filled(*self.title_rect(), (35, 55, 45, 230))
        self.texts.draw()

    def title(self) -> str:
        return _("Final scoring — S to go on") if self.last else _("Winter scoring")

    def title_rect(self) -> tuple[float, float, float, float]:
        """The title's box at the top of the map (left, bottom, width, height): a card
        placed over the table keeps clear of it."""
        left, bottom, w, h, _size = self._title_place()
        return (left, bottom, w, h)

    def _title_place(self) -> tuple[float, float, float, float, float]:
        """The title's box and type size: centred at the top of the map, or beside the
        legend when the legend reaches down to it (at 1920x1080 and 2560x1440 it hid the
        legend's "Unrest"), in smaller type if that is what fits there (not under 11 pt),
        else under the legend."""
        bv = self.views.board_view
        ll, lb, lw, lh = bv.legend_box()
        top = bv.top - 4
        size = 15.0

        def width(size: float) -> float:
            return max(320 * size / 15, text_width(self.title(), size) * 1.1 + 40)  # bold
        w = width(size)
        left = bv.left + bv.width / 2 - w / 2
        if left >= ll + lw + 8 or lb + lh <= top - 30:
            return (left, top - 30, w, 30, size)
        room = bv.right - 8 - (ll + lw + 8)
        while width(size) > room and size > 11:
            size -= 0.5
        w = width(size)
        if w <= room:
            return (max(left, ll + lw + 8), top - 30, w, 30, size)
        w = width(15.0)
        return (left, lb - 8 - 30, w, 30, 15.0)
