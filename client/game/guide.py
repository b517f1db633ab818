"""The first-game guide: a note on the board that says what to do next.

One hint per kind of decision (plan, turn-order pick, move, draft, revolts), shown when
the game first asks it of me. "Got it" hides the note and emits `hint_seen(kind)` (the App
keeps the kinds seen in the settings, so a continued game does not show them again);
"Hide the guide" emits `dismissed()` (remembered too). Its words stay inside its box in
every language (issue 27, item 11).

Tests: tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from lang.i18n import N_, _
from client.widgets.text_fit import put_boxed

HINTS = {   # marked English; translated when drawn
    "plan": (N_("Plan your round"),
             N_("Click one of your province cards below, then an action field (or drag it). "
             "Fill every field you can; put a money card on the bid field to bid for turn "
             "order. Gold coins show costs. Press Enter to lock your plan — or B for a suggestion.")),
    "special": (N_("Choose your place in turn order"),
                N_("The highest bid chooses first. Each place 1–5 comes with a special card; its "
                "bonus is yours this round.")),
    "move": (N_("Move your armies"),
             N_("Click a highlighted province, choose how many armies go, then Go. Into your own "
             "province it is a move; into another, a battle through the tower.")),
    "draft_take": (N_("Draft your provinces"),
                   N_("Take one of the face-up province cards or the top of the deck; then place "
                   "one of your army groups there.")),
    "draft_place": (N_("Place an army group"),
                    N_("Pick which of your remaining army groups goes onto this province.")),
    "revolt_order": (N_("Revolts"),
                     N_("You were short of rice. Click the revolting provinces in the order they "
                     "are fought, then Done.")),
}


TITLE_PT = 12
BODY_PT = 10


class Guide(Node):
    def __init__(self) -> None:
        super().__init__("guide")
        self.visible = False
        self.enabled_guide = True
        self.seen: set[str] = set()
        self.kind = ""
        self.dismissed = Signal("dismissed")
        self.hint_seen = Signal("hint_seen")
        self.texts = TextCache()
        self._probe = TextCache()          # measures a hint before the note is sized
        self._heights: dict[tuple[str, str, int, float], float] = {}   # (title, body, width,
        # the window's scale) -> the note's height
        self._anchor: tuple[float, float, float, float, float] | None = None
        self.next_btn = self.add(Button(N_("Got it"), size=10))
        self.off_btn = self.add(Button(N_("Hide the guide"), size=10))
        self.next_btn.pressed.connect(self._got_it)
        self.off_btn.pressed.connect(self._off)

    def point_at(self, kind: str) -> None:
        """The game asks me `kind`: show its hint the first time."""
        if not self.enabled_guide or kind in self.seen or kind not in HINTS:
            return
        self.seen.add(kind)
        self.kind = kind
        self.visible = True
        self._fit()
        self.mark_dirty()

    def hide(self) -> None:
        if self.visible:
            self.visible = False
            self.mark_dirty()

    def _got_it(self) -> None:
        self.hide()
        if self.kind:
            self.hint_seen.emit(self.kind)

    def _off(self) -> None:
        self.enabled_guide = False
        self.hide()
        self.dismissed.emit()

    def anchor(self, left: float, width: float, top: float, floor: float,
               ceiling: float) -> None:
        """Hang the note from (left, top), `width` wide and as tall as its hint needs;
        one that would reach below `floor` rises instead, up to `ceiling` at most (narrow
        over the log, Dutch and Romanian need more lines)."""
        self._anchor = (left, width, top, floor, ceiling)
        self._fit()

    def _fit(self) -> None:
        if self._anchor is None:
            return
        left, width, top, floor, ceiling = self._anchor
        h = min(ceiling - floor, self._needed(width))
        bottom = max(floor, top - h)
        if bottom + h > top + 4:       # it rises over the panel above: covers it whole, its
            h = ceiling - bottom       # top edge never cutting a line of it (an event's)
        self.set_rect(left, bottom, width, h)

    def _needed(self, width: float) -> float:
        """The height the current hint takes at its full type size, measured once per hint
        and width (issue 48: each battle's start and end lay the table out again, and the
        note's two text layouts were 2 ms of the stage's first frame on llvmpipe)."""
        title, body = self._words()
        win = arcade.get_window()
        key = (title, body, max(10, int(width - 24)),
               win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0))
        if key not in self._heights:
            self._heights[key] = self._measure(title, body, key[2])
        return self._heights[key]

    def _measure(self, title: str, body: str, width: int) -> float:
        probe = self._probe
        probe.begin()
        t = probe.put("t", title, 0, 0, size=TITLE_PT, width=width,
                      multiline=True, anchor_y="top", bold=True)
        b = probe.put("b", body, 0, 0, size=BODY_PT, width=width,
                      multiline=True, anchor_y="top")
        probe.end()
        return 8 + t.content_height + 6 + b.content_height + 8 + 36 + 4

    def _words(self) -> tuple[str, str]:
        title, body = (_(w) for w in HINTS[self.kind]) if self.kind in HINTS else ("", "")
        return _("Guide: {title}").format(title=title), body

    def on_layout(self) -> None:
        room = self.width - 24 - 8
        self.next_btn.set_rect(self.left + 12, self.bottom + 10, min(100, room * 0.4), 26)
        self.off_btn.set_rect(self.next_btn.right + 8, self.bottom + 10, min(150, room * 0.6), 26)

    def rebuild(self) -> None:
        title, body = self._words()
        t = self.texts
        t.begin()
        # a long title takes two lines; longer Dutch and Romanian: smaller type down to
        # 11 px, never past the box's edges
        head = put_boxed(t, "t", title, self.left + 12, self.top - 8, self.width - 24, 40,
                         TITLE_PT, min_size=theme.SMALLEST_TYPE, bold=True,
                         color=(255, 236, 190))
        below = head.bottom - 6
        put_boxed(t, "b", body, self.left + 12, below, self.width - 24,
                  below - (self.bottom + 40), BODY_PT, min_size=theme.SMALLEST_TYPE,
                  color=(250, 244, 230))
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (40, 70, 60, 250))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, (240, 200, 120), 2)
        self.texts.draw()
