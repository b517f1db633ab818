"""The end screen: standings and a chart of scores over the game.

Tests: tests/client/scenes/test_window.py.
"""

from __future__ import annotations

import arcade

from client.core import theme
from client.core.node import Button, Node, Signal, TextCache, draw_panel
from lang.i18n import N_, _, ngettext


class EndScene(Node):
    def __init__(self, summary: dict) -> None:
        super().__init__("end")
        self.summary = summary
        self.back_chosen = Signal("back_chosen")
        self.quit_chosen = Signal("quit_chosen")
        self.texts = TextCache()
        self.menu_btn = self.add(Button(N_("Back to menu  [Enter]"), key=arcade.key.ENTER, size=12))
        self.quit_btn = self.add(Button(N_("Quit  [Q]"), key=arcade.key.Q, size=12))
        self.menu_btn.pressed.connect(self.back_chosen.emit)
        self.quit_btn.pressed.connect(self.quit_chosen.emit)

    def on_layout(self) -> None:
        self.menu_btn.set_rect(self.width / 2 - 230, 30, 220, 40)
        self.quit_btn.set_rect(self.width / 2 + 10, 30, 220, 40)

    def standings(self) -> list[tuple[int, int, int]]:
        s = self.summary
        rows = []
        for seat in range(s.get("players", 0)):
            rows.append((seat, int(s["scores"].get(str(seat), s["scores"].get(seat, 0))),
                         int(s["money"].get(str(seat), s["money"].get(seat, 0)))))
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    def _chart_rect(self) -> tuple[float, float, float, float]:
        return (self.width / 2 + 20, 110, self.width / 2 - 60, self.height - 220)

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        winners = self.summary.get("winners", [])
        names = [theme.seat_name(w) for w in winners]
        listed = names[0] if len(names) == 1 else _("{first} and {last}").format(
            first=", ".join(names[:-1]), last=names[-1]) if names else ""
        t.put("h", ngettext("The game is over — {names} wins!", "The game is over — {names} win!",
                            len(names)).format(names=listed), self.width / 2, self.height - 60,
              size=24, bold=True, anchor_x="center", color=theme.INK)
        x0, y = 60, self.height - 130
        for key, word, dx in (("th", _("Place"), 0), ("tp", _("Player"), 90),
                              ("ts", _("Score"), 330), ("tc", _("Chests"), 410)):
            t.put(key, word, x0 + dx, y, size=13, bold=True, color=theme.INK)
        for k, (seat, score, money) in enumerate(self.standings()):
            y -= 34
            who = self.summary.get("labels", {}).get(seat, "")
            t.put(("r", k), f"{k + 1}.", x0, y, size=14, color=theme.INK)
            t.put(("n", k), who or theme.SEAT_NAMES[seat], x0 + 90, y, size=14, color=theme.INK,
                  bold=seat in winners)
            t.put(("s", k), str(score), x0 + 330, y, size=14, color=theme.INK, bold=True)
            t.put(("m", k), str(money), x0 + 410, y, size=14, color=theme.INK)
        cl, cb, cw, ch = self._chart_rect()
        t.put("ct", _("Score over the game"), cl + cw / 2, cb + ch + 14, size=13, bold=True,
              anchor_x="center", color=theme.INK)
        hist = self.summary.get("history", {})
        top = max([max(v) for v in hist.values() if v] + [10])
        n = max([len(v) for v in hist.values()] + [2])
        for k in range(n):
            x = cl + cw * k / max(1, n - 1)
            label = _("start") if k == 0 else _("winter {n}").format(n=k)
            t.put(("xl", k), label, x, cb - 18, size=10, anchor_x="center", color=theme.MUTED)
        for v in range(0, top + 1, max(1, top // 5)):
            t.put(("yl", v), str(v), cl - 8, cb + ch * v / top, size=9, anchor_x="right",
                  anchor_y="center", color=theme.MUTED)
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        for k, (seat, _score, _money) in enumerate(self.standings()):
            y = self.height - 130 - 34 * (k + 1)
            arcade.draw_lbwh_rectangle_filled(60 + 62, y - 2, 18, 18, theme.SEAT_COLOURS[seat])
            arcade.draw_lbwh_rectangle_outline(60 + 62, y - 2, 18, 18, (0, 0, 0), 1)
        cl, cb, cw, ch = self._chart_rect()
        draw_panel(cl, cb, cw, ch, fill=(252, 249, 240))
        hist = self.summary.get("history", {})
        top = max([max(v) for v in hist.values() if v] + [10])
        n = max([len(v) for v in hist.values()] + [2])
        for v in range(0, top + 1, max(1, top // 5)):
            y = cb + ch * v / top
            arcade.draw_line(cl, y, cl + cw, y, (225, 218, 200), 1)
        for seat, vals in sorted(hist.items(), key=lambda kv: int(kv[0])):
            pts = [(cl + cw * k / max(1, n - 1), cb + ch * v / top) for k, v in enumerate(vals)]
            col = theme.seat_colour(int(seat))
            if col == theme.SEAT_COLOURS[3]:
                col = (170, 170, 160)
            if len(pts) > 1:
                arcade.draw_line_strip(pts, col, 3)
            for p in pts:
                arcade.draw_circle_filled(p[0], p[1], 5, col)
        self.texts.draw()
