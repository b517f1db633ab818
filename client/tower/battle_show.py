"""The battle as a stage (issues 13, 28 and 36): while a drop plays, the tower takes the
middle of the window, opening from the province fought over (the camera's move from the
board), with the attacker's panel left of it and the defender's right of it
(`stage_sides`: name, province, armies committed, what cards, tray and peasants add, the
count so far). The handful is gathered from those panels and the tray and poured in at
the top; the count is read off the tray's colour columns and the panels. The thrown
handful is also named in a sentence (`handful_sentence`: the tray's cubes named apart, so
the numbers add up to the log's), an arrow on the map runs from the attacking province to
the target, and each stage has its sound: a rattle for the handful, a clatter for the
pour, thuds mixed down as cubes land (`thud_gain`), a click for the tally. The result
(the card beside the province, log line, sting) comes only after the tower's `finished`,
once every cube that left has landed in the tray: the stage closes back to the board,
and the winner's survivors march into the province (`march.py`).

`handful_sentence` is pure (tests call it); `BattleShow` is the scene's helper that enters
and leaves the large layout. Fast-forward never enters it (the drop is skipped anyway).

Tests: tests/client/tower/test_battle_view.py, tests/client/tower/test_headline.py,
tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Callable, Protocol

from client.core import theme
from client.core.node import Node
from client.core.played import as_kind, kind_of
from client.core.signal import Signal
from client.tower.march import MarchView
from client.tower.stage_climax import verdict
from client.tower.stage_sides import stage_sides
from lang.i18n import _, ngettext
from sim import events as ev

if TYPE_CHECKING:
    from client.core.cached_layer import CachedLayer
    from client.core.sound import Sounds
    from client.tower.stage_opening import Sea
    from client.tower.tower_view import TowerView
    from client.core.played import Played


def _n(thrown: Mapping[str, int] | None, colour: object) -> int:
    return int((thrown or {}).get(str(colour), 0) or 0)


def _cubes(n: int, colour: object) -> str:
    if colour in ("peasant", 5):
        return ngettext("{n} peasant", "{n} peasants", n).format(n=n)
    return f"{n} {theme.seat_name(colour)}"


def _part(thrown: Mapping[str, int], tray: Mapping[str, int] | None, colour: object, extra: int) -> str | None:
    """'7 Blue + 1 extra': the colour's own cubes (the tray's not counted) and extras."""
    own = _n(thrown, colour) - _n(tray, colour) - extra
    if own <= 0 and extra <= 0:
        return None
    text = _cubes(max(0, own), colour)
    return text + (" " + _("+ {n} extra").format(n=extra) if extra else "")


def _colour(k: str) -> int | str:
    return "peasant" if k == "peasant" else int(k)


def handful_sentence(dropped: ev.TowerDropped, battle: ev.BattleResolved | None, origin: str | None,
                     tray_before: Mapping[str, int] | None) -> str:
    """The thrown handful in a sentence, e.g. "Blue attacks Mikawa from Totomi: 7 Blue +
    1 extra, 3 White; from the tray: 1 Blue, 1 peasant". Its numbers add up to the cubes
    the log says went in: the tray's cubes are named apart, whatever their colour
    (issue 27 item 4)."""
    thrown = {str(k): v for k, v in (dropped.get("thrown") or {}).items()}
    tray = {str(k): min(_n(tray_before or {}, k), _n(thrown, k)) for k in (tray_before or {})}
    tray = {k: n for k, n in tray.items() if n > 0}
    if dropped.get("reason") == "fill" or battle is None:
        parts = [_cubes(_n(thrown, k), _colour(k))
                 for k in sorted(thrown, key=lambda k: (k == "peasant", k)) if _n(thrown, k)]
        head = _("Filling the tower") if dropped.get("reason") == "fill" else _("Into the tower")
        return f"{head}: {', '.join(parts)}"
    kind, where = battle.get("kind"), battle.get("province")
    att, dfn = battle.get("attacker"), battle.get("defender")
    if kind == "revolt":
        head = _("Peasants revolt in {province} against {owner}").format(
            province=where, owner=theme.seat_name(dfn))
        sides = ["peasant", str(dfn)]
        found = [_part(thrown, tray, "peasant", 0), _part(thrown, tray, dfn, 0)]
    else:
        target = _("neutral {province}").format(province=where) if kind == "neutral" else where
        head = (_("{who} attacks {target} from {origin}") if origin else
                _("{who} attacks {target}")).format(who=theme.seat_name(att), target=target,
                                                     origin=origin)
        sides = [str(att), "peasant" if kind == "neutral" else str(dfn)]
        found = [_part(thrown, tray, att, int(battle.get("attack_card", 0) or 0)),
                 _part(thrown, tray, "peasant" if kind == "neutral" else dfn,
                       int(battle.get("defence_card", 0) or 0) + int(battle.get("palace_event", 0) or 0))]
    # anything thrown that is neither side's own nor the tray's (a guard: not seen in play)
    others = {k: _n(thrown, k) - _n(tray, k) for k in thrown if k not in sides}
    found += [_cubes(n, _colour(k)) for k, n in sorted(others.items()) if n > 0]
    cubes = ", ".join(p for p in found if p) or _("no cubes")
    if tray:
        named = ", ".join(_cubes(n, _colour(k)) for k, n in
                          sorted(tray.items(), key=lambda kv: (kv[0] == "peasant", kv[0])))
        return _("{head}: {cubes}; from the tray: {tray}").format(head=head, cubes=cubes, tray=named)
    return f"{head}: {cubes}"


def battle_context(dropped: Played, rest: Sequence[Played]
                   ) -> tuple[ev.BattleResolved | None, str | None]:
    """The BattleResolved that follows a drop in its batch, and the attacking province
    (the ActionDone that names the target as `attacked`)."""
    battle: ev.BattleResolved | None = None
    origin: str | None = None
    for e in rest:
        if kind_of(e) == "TowerDropped":
            break
        if battle is None:
            battle = as_kind(e, ev.BattleResolved)
        elif (done := as_kind(e, ev.ActionDone)) is not None \
                and done.get("attacked") == battle.get("province"):
            origin = done.get("province")
            break
    return battle, origin


def battle_sides(battle: ev.BattleResolved | None) -> tuple[int, int] | None:
    """A battle's (attacker, defender) as cube colour codes (5 = peasants)."""
    if battle is None:
        return None
    code = [5 if v in ("peasant", None, 5) else int(v) for v in (battle.get("attacker"), battle.get("defender"))]
    return code[0], code[1]


def thud_gain(landed: int) -> float:
    """The loudness of the thud of the n-th cube landed: 1 for the first, 1/2 for the
    tenth, 1/3 for the 33rd."""
    return 1.0 / math.sqrt(1.0 + max(0, landed - 1) / 3.0)


class ArrowMap(Protocol):
    """The map the battle arrow is drawn on (`client.board.board_view.BoardView`)."""

    def set_arrow(self, origin: str | None, target: str | None,
                  colour: tuple[int, ...] = ...) -> None: ...

    def province_centre(self, name: str) -> tuple[float, float]: ...

    def rebuild_if_dirty(self) -> None: ...

    def legend_box(self) -> tuple[float, float, float, float]: ...

    @property
    def picture(self) -> CachedLayer: ...

    @property
    def open_sea(self) -> Sea | None: ...

    @property
    def left(self) -> float: ...

    @property
    def bottom(self) -> float: ...

    @property
    def right(self) -> float: ...

    @property
    def top(self) -> float: ...


class BattleShow:
    """Enters and leaves the scene's large-tower layout, draws the arrow, plays the cues."""

    THUD_GAP = 0.05       # real seconds between two tray thuds (a pour is not a drum roll)
    HANDFUL = 0.9         # seconds (at speed 1) the thrown handful is shown before the pour

    def __init__(self, tower: TowerView, board_view: ArrowMap, sounds: Sounds,
                 fast: Callable[[], bool],
                 labels: Callable[[], Mapping[int, str]] = lambda: {}) -> None:
        self.tower = tower
        self.labels = labels                 # the seats' names ("Anna (Blue)")
        self.board_view = board_view
        self.sounds = sounds
        self.fast = fast                     # fast-forwarding: no large view, no cues
        self.layout_changed = Signal("layout_changed")   # went large or back: lay out again
        self.active = False
        self.march = tower.add(MarchView())      # the survivors walking in, over the map
        self.origin: str | None = None
        self.caption = ""
        self.sides: tuple[int, int] | None = None   # the battle's (attacker, defender) codes
        self.province: str | None = None
        self.from_tray: dict[int, int] = {}         # the thrown cubes that lay in the tray
        self._hidden: list[tuple[Node, bool]] = []  # panels under the stage, and their visibility
        self._last_thud = 0.0
        self.stung = False                          # the climax played this battle's sting
        self._stage_box: tuple[float, float, float, float] | None = None   # where the stage opens
        tower.climaxed.connect(self._climaxed)
        tower.cube_landed.connect(self._landed)
        tower.shaken.connect(lambda: self._cue("clatter"))
        tower.poured.connect(lambda: self._cue("clatter"))

    def _cue(self, name: str, gain: float = 1.0) -> None:
        if not self.fast():
            self.sounds.play(name, gain)

    def _landed(self, colour: int | str) -> None:
        """A thud per cube, but mixed: at most one every THUD_GAP, each softer than the
        one before (the tenth at half the first's loudness), so 40 cubes are a patter."""
        if self.active and self.tower.landed == self.tower.out_total:
            self._cue("tally")          # the last cube: the tray is counted
        now = time.perf_counter()
        if now - self._last_thud >= self.THUD_GAP:
            self._last_thud = now
            self._cue("thud", thud_gain(self.tower.landed))

    def _climaxed(self) -> None:
        """The decision on the stage: the sting sounds now (not again with the card)."""
        if self.active and not self.fast():
            self.stung = True
            self._cue("sting")


    def start(self, dropped: ev.TowerDropped, rest: Sequence[Played],
              tray: dict[str, int] | None) -> str:
        """A drop begins: name the handful (`tray`: the tray's cubes before the battle threw
        them in), draw the arrow, go large (unless fast)."""
        battle, origin = battle_context(dropped, rest)
        self.origin = origin
        self.caption = handful_sentence(dropped, battle, origin, tray)
        self.sides = battle_sides(battle)
        self.province = str(battle.get("province")) if battle is not None else None
        thrown = {str(k): int(v) for k, v in (dropped.get("thrown") or {}).items()}
        self.from_tray = {(5 if k == "peasant" else int(k)): min(int(n), thrown.get(str(k), 0))
                          for k, n in (tray or {}).items() if min(int(n), thrown.get(str(k), 0)) > 0}
        self.tower.sides = stage_sides(dropped, battle, origin, tray, self.labels())
        self.tower.verdict = verdict(battle) if battle is not None else None
        self.stung = False
        if not self.fast():
            if battle is not None:
                colour = theme.seat_colour(battle.get("attacker"))
                self.board_view.set_arrow(origin, battle.get("province"), colour)
            where = self.board_view.province_centre(self.province) if self.province else None
            self.active = True
            self.tower.set_big(True)
            self.layout_changed.emit()
            # the map is hidden under the stage (`layout`): its picture, which the opening
            # zooms into, drawn now if the arrow just changed it
            self.board_view.rebuild_if_dirty()
            self.tower.open_from(where, self.board_view.picture, self.board_view.open_sea)
            self.tower.mark_dirty()
            self._cue("rattle")         # the handful shaken in the hand; the pour clatters
        return self.caption

    def prepare(self, dropped: ev.TowerDropped, rest: Sequence[Played],
                tray: dict[str, int] | None) -> bool:
        """The battle's drop is the next event (issue 48): its stage's picture (the sides'
        panels over the table and tower) and the map's arrow are drawn now, while the event
        before it holds, so that the stage's first frame only copies them (it drew them,
        a 120-310 ms frame on llvmpipe). One part a call, the scene calling it once a frame
        (a picture drawn whole in one frame was a 75-190 ms frame at 1920x1080): the
        picture's parts (`TowerView.prepare_sides`), then the arrow (the map's picture
        drawn again). True when all is drawn (or there is nothing to draw). Nothing of the
        stage is shown yet. A drop that is no battle (the set-up's fill) has its sentence
        drawn where a battle has the sides (its first frame drew it: 40 ms at 1920x1080)."""
        battle, origin = battle_context(dropped, rest)
        if self.fast() or self._stage_box is None or self.tower.big:
            return True
        if battle is None:          # the set-up's fill: its sentence instead of the sides
            return self.tower.prepare_sides(self._stage_box, None,
                                            handful_sentence(dropped, None, origin, tray))
        if not self.tower.prepare_sides(self._stage_box,
                                        stage_sides(dropped, battle, origin, tray, self.labels())):
            return False
        if not self.active:                 # a result card's own arrow stays while it shows
            self.board_view.set_arrow(origin, battle.get("province"),
                                      theme.seat_colour(battle.get("attacker")))
        return True

    def handful_seconds(self) -> float:
        """How long the thrown handful is shown before the pour (none when fast)."""
        return 0.0 if self.fast() or not self.active else self.HANDFUL

    def resolved(self, e: ev.BattleResolved, speed: float) -> None:
        """The result is shown: an attacker who took the province marches its survivors
        in from the province it attacked from (the last stage of the scene)."""
        self.close_stage()
        n = int(e.get("survivors", 0) or 0)
        if self.fast() or not self.active or self.origin is None or n <= 0 \
                or e.get("result") != "attacker" or e.get("kind") == "revolt":
            return
        self.march.speed = speed
        self.march.start(self.board_view.province_centre(self.origin),
                         self.board_view.province_centre(str(e.get("province"))),
                         theme.seat_colour(e.get("attacker")), n)

    def close_stage(self) -> None:
        """The stage closes: the board is back (the result is shown beside the province,
        the survivors march); the arrow stays until `end`."""
        if self.tower.big:
            self.tower.set_big(False)
            self.layout_changed.emit()

    def end(self) -> None:
        """Back to the table's layout (the next event after the result, or a question)."""
        self.march.stop()
        self.board_view.set_arrow(None, None)
        if self.active:
            self.active = False
            if self.tower.big:
                self.tower.set_big(False)
            self.layout_changed.emit()      # the table's places (the banner's too) are back

    def card_rect(self, w: float, h: float) -> tuple[float, float, float, float]:
        """The result card's place: beside the province fought over, on the map, never on
        it (right of it when there is room, else left; as near its height as fits), and
        clear of the map's legend (issue 48: it covered it at 960x640): moved down under
        the legend, or right of it, when it would cover it."""
        bv = self.board_view
        if self.province is None:
            return (bv.left + bv.right - w) / 2, (bv.bottom + bv.top - h) / 2, w, h
        x, y = bv.province_centre(self.province)
        gap = 46.0
        left = x + gap if x + gap + w <= bv.right - 6 else max(bv.left + 6, x - gap - w)
        if left < x < left + w:               # no room either side: above or below it
            left = min(max(bv.left + 6, x - w / 2), bv.right - 6 - w)
            b = y + gap if y + gap + h <= bv.top - 6 else y - gap - h
            b = max(bv.bottom + 6, b)
        else:
            b = min(max(bv.bottom + 6, y - h / 2), bv.top - 6 - h)
        ll, lb, lw, lh = bv.legend_box()

        def clear(r: tuple[float, float, float, float]) -> bool:
            rl, rb, rw, rh = r
            off_legend = not (rl < ll + lw and ll < rl + rw and rb < lb + lh and lb < rb + rh)
            off_province = not (rl - 12 < x < rl + rw + 12 and rb - 12 < y < rb + rh + 12)
            inside = bv.left + 6 <= rl and rl + rw <= bv.right - 6 and bv.bottom + 6 <= rb \
                and rb + rh <= bv.top - 6
            return off_legend and off_province and inside
        # else the nearest of the places beside the province, under or right of the legend
        lefts = (left, x + gap, x - gap - w, ll + lw + 6, x - w / 2, bv.left + 6, bv.right - 6 - w)
        bottoms = (b, lb - 6 - h, y - h / 2, y + gap, y - gap - h, bv.bottom + 6, bv.top - 6 - h)
        grid = [(bv.left + 6 + 8 * i, bv.bottom + 6 + 8 * j)     # any place on the map
                for i in range(int((bv.right - bv.left - 12 - w) // 8) + 1)
                for j in range(int((bv.top - bv.bottom - 12 - h) // 8) + 1)]
        places = sorted([(pl, pb, w, h) for pl in lefts for pb in bottoms] +
                        [(pl, pb, w, h) for pl, pb in grid],
                        key=lambda r: abs(r[0] - left) + abs(r[1] - b))
        return next((r for r in places if clear(r)), (left, b, w, h))

    def layout(self, W: float, H: float, top_h: float, rw: float, tw: float,
               column: Sequence[Node], below: Sequence[Node]) -> None:
        """The stage takes the window under the top bar (the map, the `column` panels:
        players, events, log, and the `below` ones: the track, plan and info, and the map
        itself, hidden under it and given back as they were). The stage covers the map
        whole (the opening draws its own zoomed copy of the map's picture), so a whole
        frame does not draw the map under it (issue 48: 11-15 ms of the stage's first
        frame at 1920x1080 on llvmpipe)."""
        big = self.tower.big
        if big and not self._hidden:
            self._hidden = [(p, p.visible) for p in (*column, *below)]
            for panel, _was in self._hidden:
                panel.visible = False
        elif not big and self._hidden:
            for panel, was in self._hidden:
                panel.visible = was
            self._hidden = []
        if big:
            self.tower.set_rect(0, 0, W, H - top_h)
        self._stage_box = (0, 0, W, H - top_h)
        if not big:             # the stage's tower and table drawn now, not in its first frame
            self.tower.prepare_stage(self._stage_box)
