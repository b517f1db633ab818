"""The main menu: continue the last game, new local game (players, seats, bot levels,
side, setup), host, join, watch, load a named save or a file, replay a log, settings,
help, quit. Enter starts a game with the options last used (at first: 4-player beginner).

Signals up: `local_chosen(LocalChoice)`, `host_chosen(TableOptions)`,
`join_chosen(TableOptions)`, `watch_chosen(TableOptions)`, `load_chosen(path)`, `replay_chosen(path)`, `continue_chosen()`,
`tutorial_chosen()` (Learn to play), `correspondence_chosen()` (Play by correspondence:
client/scenes/correspondence_scene.py), `settings_chosen()`, `quit_chosen()`.

Tests: tests/client/scenes/test_window.py, tests/client/words/test_i18n_window.py,
tests/client/scenes/test_menu_names.py, tests/client/scenes/test_three_player_board.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import arcade

from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.widgets.text_field import TextField
from lang.i18n import N_, _, ngettext
from client.scenes.help_scene import HelpOverlay
from client.core.settings import LastGame
from client.words.table_names import setup_word, side_word
from client.sessions.local_choice import LocalChoice
from sim.board import board
from client.words.rules_text import three_player_choice
from net.table.options import TableCommand, TableOptions

if TYPE_CHECKING:
    from collections.abc import Sequence

    from client.sessions.autosave import SaveInfo
    from client.core.settings import LastGame
    from net.reach.discovery import Table

SEAT_KINDS = ("you", "human", "easy", "normal", "hard")   # bots by level (sim.bots.LEVELS)
LEGACY_KINDS = {"heuristic": "normal", "random": "easy"}  # kept in older settings files


class MenuScene(Node):
    def __init__(self, defaults: Mapping[str, Any] | None = None) -> None:
        super().__init__("menu")
        d = defaults or {}
        self.local_chosen = Signal("local_chosen")
        self.host_chosen = Signal("host_chosen")
        self.join_chosen = Signal("join_chosen")
        self.watch_chosen = Signal("watch_chosen")
        self.load_chosen = Signal("load_chosen")
        self.replay_chosen = Signal("replay_chosen")
        self.continue_chosen = Signal("continue_chosen")
        self.settings_chosen = Signal("settings_chosen")
        self.quit_chosen = Signal("quit_chosen")
        self.tutorial_chosen = Signal("tutorial_chosen")
        self.correspondence_chosen = Signal("correspondence_chosen")
        self.players = int(d.get("players", 4))
        self.side = d.get("side", "sun")
        self.setup = d.get("setup", "beginner")
        if d.get("seat_kinds"):
            # the baselines an older menu offered are shown as the levels they play like
            self.seat_kinds = [LEGACY_KINDS.get(k, k) for k in d["seat_kinds"]]
        else:
            bot = d.get("bots", "normal")
            me = int(d.get("seat", 0))
            self.seat_kinds = ["you" if s == me else bot for s in range(5)]
        self.message = ""
        self.board_note = ""
        self.table_buttons: list[Button] = []
        self.texts = TextCache()
        self.b_players = self.add(Button("", size=12, key=arcade.key.P))
        self.b_side = self.add(Button("", size=12))
        self.b_setup = self.add(Button("", size=12))
        self.b_seats = [self.add(Button("", size=11)) for _ in range(5)]
        self.b_start = self.add(Button(N_("Start local game  [Enter]"), size=14, key=arcade.key.ENTER,
                                       color=(250, 214, 120)))
        self.f_address = self.add(TextField(N_("Table address or code (empty: search the LAN)"), d.get("address", "") or ""))
        self.f_code = self.add(TextField(N_("Join code"), d.get("code", "") or ""))
        self.f_path = self.add(TextField(N_("Save or log file"), ""))
        self.b_host = self.add(Button(N_("Host a table  [H]"), size=12, key=arcade.key.H))
        self.b_join = self.add(Button(N_("Join  [J]"), size=12, key=arcade.key.J))
        self.b_watch = self.add(Button(N_("Watch  [W]"), size=12, key=arcade.key.W))
        self.b_letters = self.add(Button(N_("Play by correspondence"), size=11,
                                         color=(190, 225, 170)))
        self.b_load = self.add(Button(N_("Load save"), size=12))
        self.b_replay = self.add(Button(N_("Replay log"), size=12))
        self.b_quit = self.add(Button(N_("Quit  [Q]"), size=12, key=arcade.key.Q))
        self.b_continue = self.add(Button(N_("Continue"), size=13, key=arcade.key.C,
                                          color=(190, 225, 170)))
        self.b_continue.visible = False
        self.b_settings = self.add(Button(N_("Settings  [O]"), size=12, key=arcade.key.O))
        self.b_help = self.add(Button(N_("Rules  [F1]"), size=12, key=arcade.key.F1))
        self.b_tutorial = self.add(Button(N_("Learn to play  [L]"), size=12, key=arcade.key.L,
                                          color=(190, 225, 170)))
        self.save_buttons: list[Button] = []
        self.help = self.add(HelpOverlay())     # last: drawn over everything, gets input first
        self.b_players.pressed.connect(self._cycle_players)
        self.b_side.pressed.connect(lambda: self._set(side="moon" if self.side == "sun" else "sun"))
        self.b_setup.pressed.connect(lambda: self._set(setup="draft" if self.setup == "beginner" else "beginner"))
        for k, b in enumerate(self.b_seats):
            b.pressed.connect(lambda k=k: self._cycle_seat(k))
        self.b_start.pressed.connect(lambda: self.local_chosen.emit(self.local_choice()))
        self.b_host.pressed.connect(lambda: self.host_chosen.emit(self.table_choice("host")))
        self.b_join.pressed.connect(lambda: self.join_chosen.emit(self.table_choice("join")))
        self.b_watch.pressed.connect(lambda: self.watch_chosen.emit(self.table_choice("watch")))
        self.b_load.pressed.connect(lambda: self.load_chosen.emit(self.f_path.value.strip()))
        self.b_replay.pressed.connect(lambda: self.replay_chosen.emit(self.f_path.value.strip()))
        self.b_quit.pressed.connect(self.quit_chosen.emit)
        self.b_continue.pressed.connect(self.continue_chosen.emit)
        self.b_settings.pressed.connect(self.settings_chosen.emit)
        self.b_help.pressed.connect(self.help.open)
        self.b_tutorial.pressed.connect(self.tutorial_chosen.emit)
        self.b_letters.pressed.connect(self.correspondence_chosen.emit)
        self._labels()

    def offer_continue(self, title: str | None) -> None:
        """Show Continue (with what it continues) when an autosaved game can go on."""
        self.b_continue.visible = bool(title)
        self.b_continue.set_label(_("Continue  [C]  —  {title}").format(title=title) if title
                                  else N_("Continue"))
        self.on_layout()

    def show_saves(self, saves: Sequence[SaveInfo]) -> None:
        """Named saves (newest first): a button each that loads it."""
        for b in self.save_buttons:
            self.remove(b)
        self.save_buttons = []
        for info in list(saves)[:3]:
            b = self.add(Button(info.title, size=9.5))
            b.pressed.connect(lambda p=str(info.path): self.load_chosen.emit(p))
            self.save_buttons.append(b)
        self.add(self.help)                    # keep the help on top
        self.on_layout()

    def last_game(self) -> LastGame:
        """The options as they stand, to remember for next time."""
        return LastGame(self.players, self.side, self.setup, tuple(self.seat_kinds))

    def local_choice(self) -> LocalChoice:
        """The local game the seats ask for (the seed: the clock's)."""
        kinds = self.seat_kinds[: self.players]
        return LocalChoice(self.players, self.side, self.setup,
                           humans=tuple(s for s, k in enumerate(kinds) if k in ("you", "human")),
                           bots={s: k for s, k in enumerate(kinds) if k not in ("you", "human")})

    def table_choice(self, command: TableCommand) -> TableOptions:
        """The table to host, join or watch: the address and code typed, this game's
        players, side and setup, and its bot seats (counted: the table asks how many)."""
        game = self.local_choice()
        return TableOptions(command=command, address=self.f_address.value.strip() or None,
                            code=self.f_code.value.strip() or None, players=game.players,
                            side=game.side, setup=game.setup, bots=len(game.bots))

    def _set(self, **kw: Any) -> None:
        for k, v in kw.items():
            setattr(self, k, v)
        if self.setup == "beginner" and self.side == "moon":
            self.message = _("The beginner setup exists only on the sun side: using the draft setup.")
            self.setup = "draft"
        else:
            self.message = ""
        self._labels()

    def _cycle_players(self) -> None:
        self._set(players=3 + (self.players - 2) % 3)

    def _cycle_seat(self, k: int) -> None:
        cur = SEAT_KINDS.index(self.seat_kinds[k]) if self.seat_kinds[k] in SEAT_KINDS else 0
        self.seat_kinds[k] = SEAT_KINDS[(cur + 1) % len(SEAT_KINDS)]
        self._labels()

    def _labels(self) -> None:
        self.board_note = ""      # under the three seats: a side whose 3-player list we chose
        if self.players == 3:
            if self.side in board().excluded_3p_chosen:    # say so before the game starts
                self.board_note = three_player_choice(self.side)
        self.b_players.set_label(_("Players: {n}  [P]").format(n=self.players))
        self.b_side.set_label(_("Board side: {side}").format(side=side_word(self.side)))
        self.b_setup.set_label(_("Setup: {setup}").format(setup=setup_word(self.setup)))
        for k, b in enumerate(self.b_seats):
            b.visible = k < self.players
            kind = self.seat_kinds[k]
            text = {"you": _("you"), "human": _("a person at this screen"), "easy": _("easy bot"),
                    "normal": _("normal bot"), "hard": _("hard bot (thinks about a second)")
                    }.get(kind, kind)
            b.set_label(_("{seat}: {who}").format(seat=theme.SEAT_NAMES[k], who=text))
            b.color = theme.mix((235, 228, 210), theme.SEAT_COLOURS[k], 0.3)
        self.mark_dirty()

    def type_text(self, text: str) -> bool:
        if self.help.visible:
            return True
        return any(f.type_text(text) for f in (self.f_address, self.f_code, self.f_path))

    def key_press(self, symbol: int, modifiers: int) -> bool:
        if self.help.visible:
            return self.help.key_press(symbol, modifiers)
        # a focused text field gets the keys first (so typing 'h' does not host)
        for f in (self.f_address, self.f_code, self.f_path):
            if f.focused:
                f.key_press(symbol, modifiers)
                return True
        return super().key_press(symbol, modifiers)

    def _squeeze(self) -> float:
        """Vertical spacing factor: 1 in a tall window, less in a short one (down to the
        smallest window, 640 logical pixels, with Continue shown)."""
        y = self.height - 200 - self._shift()
        return max(0.8, min(1.0, (y - 72) / 370))

    def on_layout(self) -> None:
        cx = self.width / 2
        col1 = cx - 380
        col2 = cx + 40
        y = self.height - 200 - self._shift()
        g = self._squeeze()
        seat_h = 34 if g > 0.9 else 30
        self.b_players.set_rect(col1, y, 340, 36)
        self.b_side.set_rect(col1, y - 44 * g, 340, 36)
        self.b_setup.set_rect(col1, y - 88 * g, 340, 36)
        for k, b in enumerate(self.b_seats):
            b.set_rect(col1, y - (150 + 40 * k) * g, 340, seat_h)
        self.b_start.set_rect(col1, y - 370 * g, 340, 48)
        self.f_address.set_rect(col2, y - 22 * g, 340, 32)
        self.f_code.set_rect(col2, y - 80 * g, 160, 32)
        self.b_letters.set_rect(col2 + 180, y - 80 * g, 160, 32)
        self.b_host.set_rect(col2, y - 128 * g, 160, 36)
        self.b_join.set_rect(col2 + 180, y - 128 * g, 160, 36)
        self.b_watch.set_rect(col2, y - 172 * g, 160, 36)
        for k, b in enumerate(self.table_buttons):
            b.set_rect(col2 + 180, y - (172 + 40 * k) * g, 340, 34)
        self.f_path.set_rect(col2, y - 290 * g, 340, 32)
        self.b_load.set_rect(col2, y - 336 * g, 160, 36)
        self.b_replay.set_rect(col2 + 180, y - 336 * g, 160, 36)
        for k, b in enumerate(self.save_buttons):
            bottom = y - 336 * g - 35 - 35 * k
            b.visible = bottom >= 66              # only those that fit above the bottom row
            b.set_rect(col2, bottom, 340, 31)
        self.b_continue.set_rect(cx - 300, self.height - 160, 600, 40)
        self.b_tutorial.set_rect(cx - 370, 28, 190, 36)
        self.b_settings.set_rect(cx - 170, 28, 160, 36)
        self.b_help.set_rect(cx + 0, 28, 160, 36)
        self.b_quit.set_rect(cx + 170, 28, 160, 36)
        self.help.set_rect(0, 0, self.width, self.height)
        self.mark_dirty()

    def _shift(self) -> float:
        """Room for the Continue button under the title, when it is shown."""
        return 40 if self.b_continue.visible else 0

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        sh = self._shift()
        g = self._squeeze()
        y = self.height - 200 - sh
        t.put("t", "SHOGUN", self.width / 2, self.height - 70, size=40, bold=True, anchor_x="center",
              color=(120, 30, 25))
        t.put("s", _("Dirk Henn's game of feudal Japan — with a battle tower that really tumbles"),
              self.width / 2, self.height - 105, size=13, anchor_x="center", color=theme.MUTED)
        t.put("l1", _("New local game"), self.width / 2 - 380, self.height - 150 - sh, size=15, bold=True, color=theme.INK)
        t.put("l1b", _("Click a seat to change who plays it."), self.width / 2 - 380,
              y - 150 * g + (34 if g > 0.9 else 30) + 5, size=9.5, color=theme.MUTED)
        t.put("l2", _("Play on the network"), self.width / 2 + 40, self.height - 150 - sh, size=15, bold=True, color=theme.INK)
        # the heading stands clear above the field's own label (its descenders touched
        # the Romanian "Fișier de salvare sau jurnal")
        hint = arcade.Text(_(self.f_path.label), 0, self.f_path.top + 4, font_size=10)
        t.put("l3", _("Saves and logs"), self.width / 2 + 40, max(y - 290 * g + 52, hint.top + 3),
              size=13, bold=True, color=theme.INK, anchor_y="bottom")
        t.put("m", self.message, self.width / 2, 10, size=11, anchor_x="center", color=(170, 40, 30))
        t.put("bn", self.board_note if self.players == 3 else "", self.width / 2 - 380,
              y - 230 * g - 6, size=9.5, color=theme.MUTED, width=340, multiline=True,
              anchor_y="top")
        t.end()

    def show_tables(self, tables: Sequence[Table]) -> None:
        """LAN tables found: one button each; a click fills in the address."""
        for b in self.table_buttons:
            self.remove(b)
        self.table_buttons = []
        for t in list(tables)[:3]:
            b = self.add(Button(ngettext("{name} — {address} ({n} player)", "{name} — {address} ({n} players)",
                                         t.players).format(name=t.name, address=t.address, n=t.players),
                                size=10))
            b.pressed.connect(lambda a=t.address: self._pick_table(a))
            self.table_buttons.append(b)
        self.set_message(ngettext("{n} table found on the LAN", "{n} tables found on the LAN",
                                  len(tables)).format(n=len(tables)) if tables
                         else _("No table found on the LAN — type its address"))
        self.on_layout()

    def _pick_table(self, address: str) -> None:
        self.f_address.value = address
        self.f_address.mark_dirty()
        self.set_message(_("Table {address} chosen — type its join code, then Join or Watch").format(
            address=address))

    def set_message(self, text: str) -> None:
        self.message = text
        self.mark_dirty()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        self.texts.draw()
