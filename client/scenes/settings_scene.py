"""The settings screen: name, language, colour, pace, sound, scale, colour-blind mode,
fullscreen, asking before leaving, the first-game guide, and where friends meet to join by
code (the rendezvous, its relay, direct links only: issue 39).

A new language applies at once (the screen redraws in it); Cancel goes back to the old one.

Edits a copy; `done(settings)` on Save (Enter), `done(None)` on Cancel (Esc). The App
writes the file and applies what it can at once (fullscreen, the pace of new games).

Tests: tests/client/words/test_i18n_window.py, tests/client/sessions/test_join_by_code_window.py.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

import arcade

from client.core import theme
from client.widgets.text_field import TextField
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.core.settings import SPEEDS, UI_SCALES, Settings, checked_value
from lang.i18n import LANGUAGES, N_, _, current, system_language, use

ROWS = ("name", "language", "colour", "animation_speed", "volume", "mute", "ui_scale", "colour_blind",
        "fullscreen", "confirm_leave", "guide_done", "rendezvous", "relay", "direct_only")
TYPED = ("name", "rendezvous", "relay")      # the rows typed into a text field
LABELS = {"name": N_("Your name"), "language": N_("Language"), "colour": N_("Preferred colour"), "animation_speed": N_("Animation speed"),
          "volume": N_("Sound volume"), "mute": N_("Sound"), "ui_scale": N_("Interface scale"),
          "colour_blind": N_("Colour-blind mode"), "fullscreen": N_("Fullscreen"),
          "confirm_leave": N_("Ask before leaving a game"), "guide_done": N_("First-game guide"),
          "rendezvous": N_("Rendezvous (join by code)"), "relay": N_("Relay"),
          "direct_only": N_("Direct links only")}
HINTS = {"name": N_("shown for your seat at the table"),
         "language": N_("the game's words; at first the system's language"),
         "colour": N_("the seat you take in a new local game"),
         "animation_speed": N_("how fast events play out (+ and − in a game)"),
         "volume": N_("tower drops, battles, a locked plan, the end"), "mute": "",
         "ui_scale": N_("size of everything; automatic grows it with the window"),
         "colour_blind": N_("stripes per owner and letters on the map"),
         "fullscreen": "", "confirm_leave": N_("Esc asks first; the game is saved either way"),
         "guide_done": N_("the hints that point at what to do next"),
         "rendezvous": N_("ws://HOST:PORT/v1; empty: the public one"),
         "relay": N_("HOST:PORT; empty: the public one"),
         "direct_only": N_("never play through a relay")}


def _cycle(values: Sequence[T], current: T, step: int = 1) -> T:
    k = values.index(current) if current in values else 0
    return values[(k + step) % len(values)]


class SettingsScene(Node):
    def __init__(self, settings: Settings, message: str = "") -> None:
        super().__init__("settings")
        self.settings = settings
        self.message = message
        self.finished = Signal("finished")
        self.texts = TextCache()
        self.fields = {row: self.add(TextField("", getattr(settings, row), name=f"settings:{row}"))
                       for row in TYPED}
        self.f_name = self.fields["name"]
        self.buttons: dict[str, Button] = {}
        for row in ROWS:
            if row in TYPED:
                continue
            b = self.add(Button("", name=f"settings:{row}", size=12))
            b.pressed.connect(lambda row=row: self._change(row, 1))
            self.buttons[row] = b
        self.vol_down = self.add(Button("−", name="settings:volume-", size=14))
        self.vol_down.pressed.connect(lambda: self._change("volume", -1))
        self.vol_up = self.add(Button("+", name="settings:volume+", size=14))
        self.vol_up.pressed.connect(lambda: self._change("volume", 1))
        self.save_btn = self.add(Button(N_("Save  [Enter]"), size=13, key=arcade.key.ENTER,
                                        color=(250, 214, 120)))
        self.cancel_btn = self.add(Button(N_("Cancel  [Esc]"), size=13, key=arcade.key.ESCAPE))
        self.save_btn.pressed.connect(self._save)
        self.cancel_btn.pressed.connect(self._cancel)
        self._language_before = current()
        self._labels()

    def _cancel(self) -> None:
        if current() != self._language_before:
            use(self._language_before)
        self.finished.emit(None)

    def current(self) -> Settings:
        """The settings as edited; a rendezvous or relay that is no address is not kept
        (the message says so, and Save waits)."""
        return replace(self.settings, name=self.f_name.value.strip()[:40],
                       rendezvous=self.fields["rendezvous"].value.strip()[:200],
                       relay=self.fields["relay"].value.strip()[:200])

    def problem(self) -> str:
        """Why the typed rendezvous or relay cannot be saved ("" when both are fine)."""
        s = self.current()
        for row, said in (("rendezvous", _("The rendezvous should be ws://HOST:PORT/v1, or empty "
                                           "for the public one.")),
                          ("relay", _("The relay should be HOST:PORT, or empty for the public "
                                      "one."))):
            try:
                checked_value(row, getattr(s, row), "")
            except ValueError:
                return said
        return ""

    def _save(self) -> None:
        problem = self.problem()
        if problem:
            self.message = problem
            self.mark_dirty()
            return
        self.finished.emit(self.current())

    def _change(self, row: str, step: int) -> None:
        s = self.settings
        if row == "colour":
            s = replace(s, colour=(s.colour + step) % 5)
        elif row == "animation_speed":
            s = replace(s, animation_speed=_cycle(SPEEDS, s.animation_speed, step))
        elif row == "volume":
            s = replace(s, volume=max(0, min(100, s.volume + 10 * step)))
        elif row == "ui_scale":
            s = replace(s, ui_scale=_cycle(UI_SCALES, s.ui_scale, step))
        elif row == "language":
            s = replace(s, language=_cycle(("", *LANGUAGES), s.language, step))
            use(s.language or None)          # at once: this screen redraws in it
            for node in self.walk():
                node.mark_dirty()
        else:
            flag: dict[str, Any] = {row: not getattr(s, row)}     # an on/off row
            s = replace(s, **flag)
        self.settings = s
        self._labels()

    def _labels(self) -> None:
        s = self.settings
        on = {True: N_("on"), False: N_("off")}
        chosen = s.language or system_language()
        text = {"language": LANGUAGES[s.language] if s.language else
                _("system ({language})").format(language=LANGUAGES[system_language()]),
                "colour": theme.SEAT_NAMES[s.colour],
                "animation_speed": f"×{s.animation_speed:g}",
                "volume": f"{s.volume} %",
                "mute": N_("muted") if s.mute else N_("on"),
                "ui_scale": f"{int(s.ui_scale * 100)} %" if s.ui_scale else N_("automatic"),
                "colour_blind": on[s.colour_blind], "fullscreen": on[s.fullscreen],
                "confirm_leave": N_("yes") if s.confirm_leave else N_("no"),
                "guide_done": N_("hidden (click to show again)") if s.guide_done else N_("shown"),
                "direct_only": N_("yes") if s.direct_only else N_("no (the relay when needed)")}
        if current() != chosen:        # `--lang` for this run: the words shown are those
            text["language"] = _("{language} for this run (--lang)").format(
                language=LANGUAGES.get(current(), current()))
        for row, b in self.buttons.items():
            b.set_label(text[row])
        self.buttons["colour"].color = theme.mix((235, 228, 210), theme.SEAT_COLOURS[s.colour], 0.45)
        self.mark_dirty()

    def type_text(self, text: str) -> bool:
        return any(f.type_text(text) for f in self.fields.values())

    def key_press(self, symbol: int, modifiers: int) -> bool:
        for f in self.fields.values():
            if f.focused:                 # typing: Enter/Esc only end the typing
                f.key_press(symbol, modifiers)
                return True
        return super().key_press(symbol, modifiers)

    def _step(self) -> float:
        """Row spacing: 50 in a tall window, tighter in a short one (Save and the message
        line under the rows stay free)."""
        return max(30.0, min(50.0, (self.height - 150 - 135) / (len(ROWS) - 1)))

    def on_layout(self) -> None:
        x = self.width / 2 + 10
        y = self.height - 150
        step = self._step()
        box = min(34.0, step - 4)
        for k, row in enumerate(ROWS):
            top = y - step * k
            if row in TYPED:
                self.fields[row].set_rect(x, top, 260, box)
            elif row == "volume":      # [−] [50 %] [+]: a box each, as wide as the others
                self.vol_down.set_rect(x, top, 40, box)
                self.buttons[row].set_rect(x + 48, top, 164, box)
                self.vol_up.set_rect(x + 220, top, 40, box)
            else:
                self.buttons[row].set_rect(x, top, 260, box)
        self.save_btn.set_rect(self.width / 2 - 230, 40, 220, 44)
        self.cancel_btn.set_rect(self.width / 2 + 10, 40, 220, 44)
        self.mark_dirty()

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        t.put("t", _("Settings"), self.width / 2, self.height - 70, size=30, bold=True,
              anchor_x="center", color=(120, 30, 25))
        y = self.height - 150
        step = self._step()
        # rows closer than 44 (a short window): the label a size smaller and lower, the
        # hint in the smallest type, so neither runs into the next row's (issue 49)
        tight = step < 44
        for k, row in enumerate(ROWS):
            top = y - step * k
            t.put(("l", row), _(LABELS[row]), self.width / 2 - 20, top + (15 if tight else 20),
                  size=11 if tight else 13, bold=True, anchor_x="right", color=theme.INK)
            if HINTS[row]:
                t.put(("h", row), _(HINTS[row]), self.width / 2 - 20, top + 3,
                      size=theme.SMALLEST_TYPE if tight else 9, anchor_x="right",
                      color=theme.MUTED)
        t.put("m", self.message, self.width / 2, 105, size=11, anchor_x="center",
              color=(170, 40, 30), width=int(self.width - 80), multiline=True, align="center")
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        self.texts.draw()
