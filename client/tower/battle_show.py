"""The battle view (issue 13): while a drop plays, the tower is shown large beside the map,
the thrown handful is named in a sentence above it, an arrow on the map runs from the
attacking province to the target, and the tower's sounds play; the result (banner, log
line, sting) comes only after the tower's `finished`, i.e. once every cube that left has
landed in the tray.

`handful_sentence` is pure (tests call it); `BattleShow` is the scene's helper that enters
and leaves the large layout. Fast-forward never enters it (the drop is skipped anyway).

Tests: tests/client/tower/test_battle_view.py.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, Protocol

from client.core import theme
from client.core.node import Node, Signal
from lang.i18n import _, ngettext

if TYPE_CHECKING:
    from client.core.sound import Sounds
    from client.tower.tower_view import TowerView


def _n(thrown: dict, colour) -> int:
    return int((thrown or {}).get(str(colour), 0) or 0)


def _cubes(n: int, colour) -> str:
    if colour in ("peasant", 5):
        return ngettext("{n} peasant", "{n} peasants", n).format(n=n)
    return f"{n} {theme.seat_name(colour)}"


def _part(thrown: dict, tray: dict, colour, extra: int) -> str | None:
    """'7 Blue + 1 extra': the colour's own cubes (the tray's not counted) and extras."""
    own = _n(thrown, colour) - _n(tray, colour) - extra
    if own <= 0 and extra <= 0:
        return None
    text = _cubes(max(0, own), colour)
    return text + (" " + _("+ {n} extra").format(n=extra) if extra else "")


def handful_sentence(dropped: Mapping[str, Any], battle: Mapping[str, Any] | None, origin: str | None,
                     tray_before: dict | None) -> str:
    """The thrown handful in a sentence, e.g. "Blue attacks Mikawa from Totomi: 7 Blue +
    1 extra, 3 White, 1 from the tray"."""
    thrown = {str(k): v for k, v in (dropped.get("thrown") or {}).items()}
    tray = {str(k): v for k, v in (tray_before or {}).items()}
    from_tray = sum(min(_n(tray, k), _n(thrown, k)) for k in tray)
    if dropped.get("reason") == "fill" or battle is None:
        parts = [_cubes(_n(thrown, k), "peasant" if k == "peasant" else int(k))
                 for k in sorted(thrown, key=lambda k: (k == "peasant", k)) if _n(thrown, k)]
        head = _("Filling the tower") if dropped.get("reason") == "fill" else _("Into the tower")
        return f"{head}: {', '.join(parts)}"
    kind, where = battle.get("kind"), battle.get("province")
    att, dfn = battle.get("attacker"), battle.get("defender")
    if kind == "revolt":
        head = _("Peasants revolt in {province} against {owner}").format(
            province=where, owner=theme.seat_name(dfn))
        found = [_part(thrown, tray, "peasant", 0), _part(thrown, tray, dfn, 0)]
    else:
        target = _("neutral {province}").format(province=where) if kind == "neutral" else where
        head = (_("{who} attacks {target} from {origin}") if origin else
                _("{who} attacks {target}")).format(who=theme.seat_name(att), target=target,
                                                     origin=origin)
        found = [_part(thrown, tray, att, int(battle.get("attack_card", 0) or 0)),
                 _part(thrown, tray, dfn, int(battle.get("defence_card", 0) or 0)
                       + int(battle.get("palace_event", 0) or 0))]
    parts = [p for p in found if p]
    if from_tray:
        parts.append(_("{n} from the tray").format(n=from_tray))
    return f"{head}: {', '.join(parts) or _('no cubes')}"


def battle_context(dropped: Mapping[str, Any], rest: Sequence[Mapping[str, Any]]
                   ) -> tuple[Mapping[str, Any] | None, str | None]:
    """The BattleResolved that follows a drop in its batch, and the attacking province
    (the ActionDone that names the target as `attacked`)."""
    battle = origin = None
    for e in rest:
        k = e.get("event")
        if k == "TowerDropped":
            break
        if k == "BattleResolved" and battle is None:
            battle = e
        elif k == "ActionDone" and battle is not None and e.get("attacked") == battle.get("province"):
            origin = e.get("province")
            break
    return battle, origin


class ArrowMap(Protocol):
    """The map the battle arrow is drawn on (`client.board.board_view.BoardView`)."""

    def set_arrow(self, origin: str | None, target: str | None,
                  colour: tuple[int, ...] = ...) -> None: ...


class BattleShow:
    """Enters and leaves the scene's large-tower layout, draws the arrow, plays the cues."""

    THUD_GAP = 0.05       # real seconds between two tray thuds (a pour is not a drum roll)

    def __init__(self, tower: TowerView, board_view: ArrowMap, sounds: Sounds,
                 fast: Callable[[], bool]) -> None:
        self.tower = tower
        self.board_view = board_view
        self.sounds = sounds
        self.fast = fast                     # fast-forwarding: no large view, no cues
        self.layout_changed = Signal("layout_changed")   # went large or back: lay out again
        self.active = False
        self.caption = ""
        self._last_thud = 0.0
        tower.cube_landed.connect(self._landed)
        tower.shaken.connect(lambda: self._cue("clatter"))

    def _cue(self, name: str) -> None:
        if not self.fast():
            self.sounds.play(name)

    def _landed(self, colour: int | str) -> None:
        now = time.perf_counter()
        if now - self._last_thud >= self.THUD_GAP:
            self._last_thud = now
            self._cue("thud")

    def start(self, dropped: Mapping[str, Any], rest: Sequence[Mapping[str, Any]],
              display: dict[str, Any] | None) -> str:
        """A drop begins: name the handful, draw the arrow, go large (unless fast)."""
        battle, origin = battle_context(dropped, rest)
        tray = ((display or {}).get("tower") or {}).get("tray")
        self.caption = handful_sentence(dropped, battle, origin, tray)
        if not self.fast():
            if battle is not None:
                colour = theme.seat_colour(battle.get("attacker"))
                self.board_view.set_arrow(origin, battle.get("province"), colour)
            self.active = True
            self.tower.set_big(True)
            self.layout_changed.emit()
        self._cue("clatter")
        return self.caption

    def end(self) -> None:
        """Back to the table's layout (the next event after the result, or a question)."""
        self.board_view.set_arrow(None, None)
        if self.active:
            self.active = False
            self.tower.set_big(False)
            self.layout_changed.emit()

    def layout(self, W: float, H: float, top_h: float, rw: float, tw: float,
               column: Sequence[Node], below: Sequence[Node]) -> None:
        """The large tower takes the right-hand column (the `column` panels: players,
        events, log, and the small tower's place) from the bottom to the top bar; the map
        stays in view, and the panels `below` it narrow to its width."""
        big = self.active
        for panel in column:
            panel.visible = not big
        if big:
            self.tower.set_rect(W - rw - tw, 0, rw + tw, H - top_h)
            for panel in below:
                panel.set_rect(0, panel.bottom, W - rw - tw, panel.height)
