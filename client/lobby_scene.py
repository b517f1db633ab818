"""The lobby of a network table: seats by the players' names ("Bot (Orange)" for a bot
seat), the join code with this machine's LAN addresses and the exact command friends
type, the host's settings, Start, a short chat; then the waiting/refused states.
Signals up: `started()` when the game begins, `leave()`."""

from __future__ import annotations

import arcade

from client import theme
from client.node import Button, Node, Signal, TextCache, damage
from lang.i18n import N_, Translated, _

TITLES = Translated({"host": N_("Your table"), "join": N_("Joining a table"),
                     "watch": N_("Watching a table"), "resume": N_("Rejoining your table")})


class LobbyScene(Node):
    def __init__(self, session, command: str) -> None:
        super().__init__("lobby")
        self.session = session
        self.command = command
        self.started = Signal("started")
        self.leave = Signal("leave")
        self._text = TextCache()
        self._shown = None
        self.is_host = command == "host"
        self.b_players = self.add(Button("", size=12))
        self.b_side = self.add(Button("", size=12))
        self.b_setup = self.add(Button("", size=12))
        self.b_bots = self.add(Button("", size=12))
        self.b_start = self.add(Button(N_("Start the game  [Enter]"), size=13, key=arcade.key.ENTER,
                                       color=(250, 214, 120)))
        self.b_back = self.add(Button(N_("Leave  [Esc]"), size=12, key=arcade.key.ESCAPE))
        for b in (self.b_players, self.b_side, self.b_setup, self.b_bots, self.b_start):
            b.visible = self.is_host
        self.b_players.pressed.connect(lambda: self._change(players=3 + (self._lobby().get("players", 4) - 2) % 3))
        self.b_side.pressed.connect(lambda: self._change(side="moon" if self._lobby().get("side") == "sun" else "sun"))
        self.b_setup.pressed.connect(lambda: self._change(setup="draft" if self._lobby().get("setup") == "beginner" else "beginner"))
        self.b_bots.pressed.connect(self._cycle_bots)
        self.b_start.pressed.connect(self._start)
        self.b_back.pressed.connect(self.leave.emit)
        self.error = ""
        self.chat = None
        if getattr(session, "can_chat", False):
            from client.chat_box import ChatBox
            self.chat = self.add(ChatBox())
            self.chat.sent.connect(self._send)
        self.said: list[str] = []          # the chat lines shown, oldest first
        self._heard = 0
        self._join_lines: list[str] | None = None

    def _send(self, text: str) -> None:
        try:
            self.session.send_chat(text)
        except Exception as exc:
            self.error = _("Your message was not sent: {reason}").format(reason=exc)
        else:
            me = self.session.my_seats[0] if self.session.my_seats else None
            who = self.session.labels().get(me) if me is not None else None
            self.said.append(_("{who}: {text}").format(who=who or _("You"), text=text))
        self.mark_dirty()

    def type_text(self, text: str) -> bool:
        return self.chat is not None and self.chat.type_text(text)

    def on_key_press(self, symbol, modifiers) -> bool:
        if self.chat is not None and symbol == arcade.key.T and not self.chat.focused:
            self.chat.focus()
            return True
        return False

    def join_lines(self) -> list[str]:
        """How friends join (host only): the exact command for each LAN address."""
        if self._join_lines is None:
            from client.table_names import join_lines
            port = getattr(self.session.table, "listen_port", None) or 7531
            self._join_lines = join_lines(port, getattr(self.session.table, "join_code", None))
        return self._join_lines

    def _lobby(self) -> dict:
        return self.session.lobby or {}

    def _change(self, **kw) -> None:
        try:
            self.session.table.set_lobby(**kw)
            self.error = ""
        except Exception as exc:
            self.error = str(exc)
        self.mark_dirty()

    def _cycle_bots(self) -> None:
        lobby = self._lobby()
        bots = sum(1 for s in lobby.get("seats", []) if s["kind"] == "bot")
        self._change(bots=(bots + 1) % max(1, lobby.get("players", 4)))

    def _start(self) -> None:
        try:
            self.session.table.start_game()
        except Exception as exc:
            self.error = str(exc)
            self.mark_dirty()

    def on_update(self, dt) -> None:
        s = self.session
        if s.started:
            self.started.emit()
            return
        lines = getattr(s, "chat_lines", [])
        while self._heard < len(lines):
            line = lines[self._heard]
            self._heard += 1
            seat = getattr(line, "seat", None)
            who = (s.labels().get(seat) if seat is not None else None) or getattr(line, "sender", "")
            self.said.append(_("{who}: {text}").format(who=who or _("Someone"), text=getattr(line, "text", "")))
        shown = (repr(s.lobby), s.status, s.refused, self.error, len(self.said))
        if shown != self._shown:
            self._shown = shown
            self.mark_dirty()

    def on_layout(self) -> None:
        x = self.width / 2 + 60
        y = self.height - 200
        for k, b in enumerate((self.b_players, self.b_side, self.b_setup, self.b_bots)):
            b.set_rect(x, y - 44 * k, 280, 36)
        self.b_start.set_rect(x, y - 200, 280, 44)
        self.b_back.set_rect(x, 40, 200, 36)
        if self.chat is not None:
            self.chat.set_rect(80, 40, min(420, self.width / 2 - 40), 30)

    def rebuild(self) -> None:
        lobby = self._lobby()
        self.b_players.set_label(_("Players: {n}").format(n=lobby.get("players", "?")))
        self.b_side.set_label(_("Board side: {side}").format(side=_(lobby.get("side", "?"))))
        self.b_setup.set_label(_("Setup: {setup}").format(setup=_(lobby.get("setup", "?"))))
        bots = sum(1 for s in lobby.get("seats", []) if s["kind"] == "bot")
        self.b_bots.set_label(_("Bot seats: {n}").format(n=bots))
        t = self._text
        t.begin()
        title = TITLES.get(self.command) or _("Table")
        t.put("t", title, 80, self.height - 80, size=26, bold=True, color=theme.INK)
        code = getattr(self.session.table, "join_code", None)
        port = getattr(self.session.table, "listen_port", None)
        if self.is_host:
            t.put("c", _("Join code: {code}    port {port}").format(code=code, port=port), 80, self.height - 112, size=16,
                  bold=True, color=(140, 40, 30))
            for k, line in enumerate(self.join_lines()[:3]):
                t.put(("c2", k), line, 80 + (0 if k == 0 else 16), self.height - 134 - 17 * k,
                      size=11 if k else 10, bold=k > 0,
                      color=theme.INK if k else theme.MUTED)
        status = (self.session.refused and _("Refused: {reason}").format(reason=self.session.refused)
                  or self.session.status)
        t.put("s", status or "", 80, self.height - 200, size=13, color=(30, 70, 140), bold=True,
              width=int(self.width / 2 - 100), multiline=True, anchor_y="top")
        y = self.height - 250
        from client.table_names import seat_title
        for k, seat in enumerate(lobby.get("seats", [])):
            kind = seat["kind"]
            mine = seat["seat"] in self.session.my_seats
            if kind == "open":
                who = _("{colour}: open — waiting for a player").format(colour=theme.SEAT_NAMES[seat["seat"]])
            else:
                who = seat_title(seat["seat"], kind, seat.get("name") or "", me=mine)
                if mine and who != seat_title(seat["seat"], "", me=True):
                    who = _("{name} — you").format(name=who)
            t.put(("seat", k), who, 110, y - 36 * k, size=14,
                  color=theme.INK if kind != "open" else theme.MUTED)
        if self.chat is not None:
            t.put("ch", _("Chat"), 80, 40 + 30 + 8 + 18 * min(5, len(self.said)) + 6, size=11,
                  bold=True, color=theme.INK)
            for k, line in enumerate(self.said[-5:][::-1]):
                t.put(("said", k), line, 80, 40 + 30 + 8 + 18 * k, size=10, color=(70, 50, 120),
                      )
        if lobby.get("tower_vote"):
            t.put("tv", _("Tower results are agreed by vote on this table: these computers "
                    "round the physics differently."), self.width / 2 + 60, 150, size=11,
                  color=theme.MUTED, width=int(self.width / 2 - 100), multiline=True)
        if self.error:
            t.put("e", self.error, self.width / 2 + 60, 100, size=11, color=(170, 40, 30),
                  width=int(self.width / 2 - 100), multiline=True)
        t.end()
        damage()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        lobby = self._lobby()
        y = self.height - 250
        for k, seat in enumerate(lobby.get("seats", [])):
            arcade.draw_lbwh_rectangle_filled(80, y - 36 * k - 4, 20, 20, theme.SEAT_COLOURS[seat["seat"]])
            arcade.draw_lbwh_rectangle_outline(80, y - 36 * k - 4, 20, 20, (0, 0, 0), 1)
        self._text.draw()
