"""Play by correspondence (issue 51): this machine's correspondence tables, each in a
sentence (whose move it waits for, and since when), a line on top ("your move in 2
tables; Kenji's plan awaited since Tuesday 14:02"), a button per table that opens it, and
a new table hosted in a shared folder or joined with a code. Under a table whose turn timer
ran out for a player, a button per such seat ("Hand Kenji's seat to a bot") writes my
agreement into my seat file (`client.sessions.correspondence.hand_seat`, the same visit as
`./shogun takeover`); the list is read again and the message says what came of it.

Why the list visits every table: opening the program is when a correspondence table
plays on (bots, revealed plans, tower drops: `net.correspondence.table_list.visit`); the
sentences are `client.words.correspondence_words`', the same as `./shogun tables`.

Signals up: `open_chosen(MyTable)` (play it), `back_chosen()`.

Tests: tests/client/scenes/test_correspondence_window.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.button import Button, label_width
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.sessions.correspondence import (NotPlaying, hand_seat, host_here, join_here,
                                            table_list)
from client.widgets.text_field import TextField
from client.words.correspondence_words import describe, hand_label, hand_words, summary
from lang.i18n import N_, _
from net.correspondence.my_tables import MyTable
from net.correspondence.table_list import Stage, TableStatus
from net.trust.peer_text import shown

ROWS = 8            # table buttons at most (fewer in a short window)
INDENT = 30         # a hand-over button, under its table's row


class CorrespondenceScene(Node):
    def __init__(self, name: str = "", players: int = 4, message: str = "") -> None:
        super().__init__("correspondence")
        self.name = name
        self.players = players
        self.message = message
        self.open_chosen = Signal("open_chosen")
        self.back_chosen = Signal("back_chosen")
        self.texts = TextCache()
        self.statuses: list[TableStatus] = []
        self.headline = ""
        self.table_buttons: list[Button] = []
        self.hand_buttons: list[Button] = []
        self.rows: list[tuple[Button, int]] = []      # the list's lines: button, indent
        self.f_folder = self.add(TextField(N_("Shared folder (synced by Syncthing, a cloud "
                                              "folder or a network share)"), ""))
        self.f_code = self.add(TextField(N_("Table code (to join)"), ""))
        self.b_players = self.add(Button("", size=12))
        self.b_host = self.add(Button(N_("Host a new table in this folder"), size=12))
        self.b_join = self.add(Button(N_("Join with the code"), size=12))
        self.b_refresh = self.add(Button(N_("Look again  [R]"), size=12, key=arcade.key.R))
        self.b_back = self.add(Button(N_("Back  [Esc]"), size=12, key=arcade.key.ESCAPE))
        self.b_players.pressed.connect(self._cycle_players)
        self.b_host.pressed.connect(self._host)
        self.b_join.pressed.connect(self._join)
        self.b_refresh.pressed.connect(self.refresh)
        self.b_back.pressed.connect(self.back_chosen.emit)
        self._labels()

    # -- what it lists ----------------------------------------------------------------------
    def refresh(self) -> None:
        """Visit every table kept here and list them again."""
        statuses, problems = table_list()
        self.show_statuses(statuses)
        if problems:
            self.set_message("  ".join(shown(p) for p in problems))

    def show_statuses(self, statuses: list[TableStatus]) -> None:
        self.statuses = statuses
        self.headline = summary(statuses)
        for b, _indent in self.rows:
            self.remove(b)
        self.table_buttons, self.hand_buttons, self.rows = [], [], []
        for status in statuses[:ROWS]:
            playing = status.stage is Stage.PLAYING
            b = self.add(Button(describe(status, window=True), size=11,
                                color=(250, 214, 120) if playing and status.mine
                                else (235, 228, 210)))
            b.pressed.connect(lambda t=status.table: self.open_chosen.emit(t))
            self.table_buttons.append(b)
            self.rows.append((b, 0))
            for name, seat in zip(status.overdue, status.overdue_seats):
                h = self.add(Button(hand_label(name), size=11, color=(236, 196, 170)))
                h.pressed.connect(lambda t=status.table, s=seat, n=name: self._hand(t, s, n))
                self.hand_buttons.append(h)
                self.rows.append((h, INDENT))
        self.on_layout()

    def _hand(self, table: MyTable, seat: int, name: str) -> None:
        """My agreement that a bot plays `seat` (its turn timer ran out), then the list
        read again and what came of it said."""
        said = hand_words(hand_seat(table, seat), name)
        self.refresh()
        self.set_message(said)

    def set_message(self, text: str) -> None:
        self.message = text
        self.mark_dirty()

    # -- host and join ----------------------------------------------------------------------
    def _cycle_players(self) -> None:
        self.players = 3 + (self.players - 2) % 3
        self._labels()

    def _labels(self) -> None:
        self.b_players.set_label(_("Players: {n}").format(n=self.players))
        self.mark_dirty()

    def _host(self) -> None:
        try:
            table = host_here(self.f_folder.value, self.name, self.players)
        except NotPlaying as e:
            self.set_message(str(e))
            return
        self.refresh()
        self.f_code.value = table.code.text
        self.f_code.mark_dirty()
        self.set_message(_("A table is open in {folder}. Send its code (in the code field) to "
                           "the friends you play with.").format(folder=shown(str(table.folder))))

    def _join(self) -> None:
        try:
            table = join_here(self.f_folder.value, self.f_code.value, self.name)
        except NotPlaying as e:
            self.set_message(str(e))
            return
        self.refresh()
        self.set_message(_("You asked for a seat at the table in {folder}.").format(
            folder=shown(str(table.folder))))

    # -- input ------------------------------------------------------------------------------
    def type_text(self, text: str) -> bool:
        return any(f.type_text(text) for f in (self.f_folder, self.f_code))

    def key_press(self, symbol: int, modifiers: int) -> bool:
        for f in (self.f_folder, self.f_code):
            if f.focused:
                if symbol == arcade.key.ESCAPE:
                    f.focused = False
                    f.mark_dirty()
                    return True
                f.key_press(symbol, modifiers)
                return True
        return super().key_press(symbol, modifiers)

    # -- layout and drawing -----------------------------------------------------------------
    def _rows(self) -> int:
        """Table rows that fit above the host/join block."""
        return max(1, min(ROWS, int((self.height - 130 - 310) / 40)))

    def on_layout(self) -> None:
        w = min(900.0, self.width - 60)
        left = (self.width - w) / 2
        top = self.height - 130
        rows = self._rows()
        for k, (b, indent) in enumerate(self.rows):
            b.visible = k < rows
            width = w if not indent else min(w - indent, label_width(b.label, b.size) + 30)
            b.set_rect(left + indent, top - 40 * (k + 1), width, 34)
        y = 250.0
        self.f_folder.set_rect(left, y - 30, w, 32)
        self.b_players.set_rect(left, y - 78, 160, 36)
        self.b_host.set_rect(left + 180, y - 78, w - 180, 36)
        self.f_code.set_rect(left, y - 150, w - 260, 32)
        self.b_join.set_rect(left + w - 240, y - 150, 240, 36)
        self.b_refresh.set_rect(self.width / 2 - 170, 28, 160, 36)
        self.b_back.set_rect(self.width / 2 + 10, 28, 160, 36)
        self.mark_dirty()

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        w = min(900.0, self.width - 60)
        left = (self.width - w) / 2
        t.put("t", _("Play by correspondence"), self.width / 2, self.height - 60, size=26,
              bold=True, anchor_x="center", color=(120, 30, 25))
        t.put("h", self.headline, self.width / 2, self.height - 100, size=14, bold=True,
              anchor_x="center", color=theme.INK, width=int(w), multiline=True, align="center")
        hidden = sum(not indent for _b, indent in self.rows[self._rows():])   # tables
        t.put("more", _("… and {n} more").format(n=hidden) if hidden > 0 else "",
              left, self.height - 130 - 40 * self._rows() - 22, size=10, color=theme.MUTED)
        t.put("n", _("A new table, in a folder every player's machine shares"), left, 282,
              size=13, bold=True, color=theme.INK)
        t.put("m", self.message, self.width / 2, 76, size=11, anchor_x="center",
              color=(170, 40, 30), width=int(w), multiline=True, align="center")
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        self.texts.draw()
