"""The end screen (issue 27 item 14, issue 28 item 6): who won and why, worth a screenshot.

Left, the final board. Right, the standings with each score broken down as the rules
count it (provinces, buildings, majorities over both winters: `end_record.py`), a
plain sentence when a tie on points was decided by chests (R-END-1), the luck of the
tower per player (own cubes thrown into it in battles against those that came out), and
the game's biggest battle with a "Film it" button that signals up
`film_requested(battle_number)` (shown only when someone listens). Then `back_chosen`,
`quit_chosen`.

Without a record (a game whose events are not known) it shows the standings alone.

Tests: tests/client/scenes/test_end_scene.py, tests/client/scenes/test_window.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

import arcade

from client.board.tokens import seat_token
from client.core import theme
from client.core.button import Button
from client.core.node import Node
from client.core.panel import draw_panel
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.core.own_command import own_command
from client.scenes.end_record import BattleRecord, EndRecord, EndSummary, end_record
from client.widgets.text_fit import put_boxed, put_fitted
from lang.i18n import N_, _, ngettext
from client.board.board_view import BoardView
from sim.board import board
from client.core.settings import data_dir

if TYPE_CHECKING:
    from sim import events as ev
    from sim.snapshot import PublicState
from client.board.map_geometry import text_width


def listed(names: list[str]) -> str:
    """"Blue", "Blue and Orange", "Blue, Orange and Black"."""
    if len(names) <= 1:
        return names[0] if names else ""
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def tie_sentence(rec: EndRecord) -> str:
    """R-END-1 in words, when the top score was shared: ties go to the most chests; if
    still tied, the players share the win. "" when nobody tied."""
    top = rec.tied_on_score
    if len(top) < 2:
        return ""
    score = rec.players[top[0]].score
    names = listed([theme.seat_name(s) for s in top])
    if rec.decided_by_chests:
        w = rec.winners[0] if len(rec.winners) == 1 else None
        chests = rec.players[rec.winners[0]].chests if rec.winners else 0
        if w is not None:
            return ngettext(
                "{names} tied on {score} points; a tie goes to the most chests, and {winner} "
                "has the most: {n} chest.",
                "{names} tied on {score} points; a tie goes to the most chests, and {winner} "
                "has the most: {n} chests.", chests).format(
                names=names, score=score, winner=theme.seat_name(w), n=chests)
        return ngettext(
            "{names} tied on {score} points; a tie goes to the most chests, and {winners} "
            "have the most, {n} chest each: they share the win.",
            "{names} tied on {score} points; a tie goes to the most chests, and {winners} "
            "have the most, {n} chests each: they share the win.", chests).format(
            names=names, score=score, winners=listed([theme.seat_name(s) for s in rec.winners]),
            n=chests)
    chests = rec.players[top[0]].chests
    return ngettext("{names} tied on {score} points and on chests ({n} chest each): they "
                    "share the win.",
                    "{names} tied on {score} points and on chests ({n} chests each): they "
                    "share the win.", chests).format(names=names, score=score, n=chests)


def battle_sentence(b: BattleRecord) -> str:
    """The biggest battle in one sentence: who, where, how many cubes, the count."""
    who = theme.seat_name(b.attacker)
    if b.kind == "revolt":
        head = _("Revolt in {province}, year {year}").format(province=b.province, year=b.year)
    else:
        head = _("{attacker} attacked {province}, year {year}").format(
            attacker=who, province=b.province, year=b.year)
    count = ngettext("{n} cube went into the tower; {a} against {d} came out.",
                     "{n} cubes went into the tower; {a} against {d} came out.", b.cubes).format(
        n=b.cubes, a=b.attacker_count, d=b.defender_count)
    result = {"attacker": _("The attacker won."), "defender": _("The defender held."),
              "draw": _("A draw: the defender held.")}.get(b.result, "")
    return f"{head}: {count} {result}"


COLUMNS = (("pr", N_("Provinces")), ("bu", N_("Buildings")), ("ma", N_("Majorities")),
           ("sc", N_("Score")), ("ch", N_("Chests")))


class EndScene(Node):
    def __init__(self, summary: EndSummary, record: EndRecord | None = None,
                 final_state: PublicState | None = None, side: str = "sun") -> None:
        super().__init__("end")
        self.summary = summary
        self.record = record
        self.back_chosen = Signal("back_chosen")
        self.quit_chosen = Signal("quit_chosen")
        self.film_requested = Signal("film_requested")
        self.texts = TextCache()
        self.board_view: Node | None = None
        if final_state is not None:
            bv = BoardView(board(), side, int(summary.get("players", 4)))
            bv.set_state(final_state)
            bv.enabled = False            # a picture of the end, not a table to play on
            self.board_view = self.add(bv)
        self.menu_btn = self.add(Button(N_("Back to menu  [Enter]"), key=arcade.key.ENTER, size=12))
        self.quit_btn = self.add(Button(N_("Quit  [Q]"), key=arcade.key.Q, size=12))
        self.film_btn = self.add(Button(N_("Film it  [F]"), key=arcade.key.F, size=11))
        self.menu_btn.pressed.connect(self.back_chosen.emit)
        self.quit_btn.pressed.connect(self.quit_chosen.emit)
        self.film_btn.pressed.connect(self._film)
        self.film_btn.visible = False
        self._rows: list[tuple[float, float]] = []      # (y, row height) per standing
        self._luck: list[tuple[int, float, float, float]] = []   # seat, y, bar room, share
        self._chart_box: tuple[float, float, float, float] | None = None
        self._panel_top = 0.0
        self.note = ""                    # where a film being made stands
        self.filming: tuple[subprocess.Popen[bytes], Path] | None = None
        self._chart_scale = (10, 3, 2)

    # -- what it shows --------------------------------------------------------------------
    def standings(self) -> list[tuple[int, int, int]]:
        """(seat, score, chests), best first."""
        if self.record is not None:
            return [(p.seat, p.score, p.chests) for p in self.record.standings()]
        s = self.summary
        rows = []
        # by the seat's number as a string (the event's keys) or as a number
        scores = cast("Mapping[object, int]", s["scores"])
        money = cast("Mapping[object, int]", s["money"])
        for seat in range(s.get("players", 0)):
            rows.append((seat, int(scores.get(str(seat), scores.get(seat, 0))),
                         int(money.get(str(seat), money.get(seat, 0)))))
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    def _film(self) -> None:
        if self.record is not None and self.record.biggest is not None:
            self.film_requested.emit(self.record.biggest.number)

    def film(self, save_path: str, number: int) -> Path | None:
        """Film battle `number` of the save into the films folder, by `./shogun replay
        SAVE --film N` in a process of its own (a film is rendered in a window of its own);
        the note under the battle says when it is ready."""
        if self.filming is not None:
            return None
        from client.core.film_encoder import film_command, films_path  # imageio: only for a film
        out = films_path(data_dir() / "films", save_path, number)
        out.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.Popen([*own_command(), *film_command(save_path, number, out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.filming = (proc, out)
        self.note = _("Filming battle {n} into {path} (a few seconds)…").format(n=number, path=out)
        self.mark_dirty()
        return out

    def on_update(self, dt: float) -> None:
        if self.filming is None or self.filming[0].poll() is None:
            return
        proc, out = self.filming
        self.filming = None
        self.note = (_("The film is ready: {path}").format(path=out) if proc.returncode == 0
                     else _("The film could not be made."))
        self.mark_dirty()

    # -- layout ---------------------------------------------------------------------------
    def columns(self) -> tuple[float, float, float, float]:
        """(board left, board width, right column's left, its width)."""
        W = self.width
        if self.board_view is None:
            return 0.0, 0.0, 40.0, W - 80
        bw = W * 0.47
        return 16.0, bw, bw + 36, W - bw - 52

    def on_layout(self) -> None:
        W, H = self.width, self.height
        bl, bw, rl, rw = self.columns()
        if self.board_view is not None:
            self.board_view.set_rect(bl, 70, bw, H - 70 - 126)
        self.menu_btn.set_rect(W / 2 - 230, 16, 220, 38)
        self.quit_btn.set_rect(W / 2 + 10, 16, 220, 38)
        self.film_btn.set_rect(rl + rw - 150, 78, 150, 28)

    # -- drawing --------------------------------------------------------------------------
    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        W, H = self.width, self.height
        winners = self.record.winners if self.record is not None else self.summary.get("winners", [])
        names = [theme.seat_name(w) for w in winners]
        put_fitted(t, "h", ngettext("The game is over — {names} wins!", "The game is over — {names} win!",
                                    len(names)).format(names=listed(names)), W / 2, H - 46,
                   W - 40, 22, min_size=14, bold=True, anchor_x="center", color=theme.INK)
        tie = tie_sentence(self.record) if self.record is not None else ""
        top = H - 118
        self._panel_top = H - 100
        if tie:
            tl = put_boxed(t, "tie", tie, 40, H - 58, W - 80, 40, 11.5, min_size=9,
                           color=(120, 40, 30), align="center")
            top = min(top, tl.bottom - 38)      # a long sentence (Dutch) pushes the rest down
            self._panel_top = min(self._panel_top, tl.bottom - 6)
        bl, bw, rl, rw = self.columns()
        if self.board_view is not None:
            self.board_view.set_rect(bl, 70, bw, top - 8 - 70)
            t.put("bt", _("The final board"), bl + bw / 2, top, size=11, bold=True,
                  anchor_x="center", color=theme.MUTED)
        self._standings(t, rl, rw, top)
        if self.note:
            put_fitted(t, "note", self.note, rl, 80, rw - 160, 9, min_size=7, cut=True,
                       color=(30, 70, 140))
        t.end()
        self._layout_film()

    def _layout_film(self) -> None:
        rec = self.record
        self.film_btn.visible = bool(rec is not None and rec.biggest is not None
                                     and len(self.film_requested) > 0)

    def _standings(self, t: TextCache, left: float, width: float, top: float) -> None:
        rows = self.standings()
        rec = self.record
        name_w = width * (0.34 if rec is not None else 0.6)
        col_w = (width - 30 - name_w) / (len(COLUMNS) if rec is not None else 2)
        cols = COLUMNS if rec is not None else (COLUMNS[3], COLUMNS[4])
        y = top
        put_fitted(t, "tp", _("Player"), left + 30, y, name_w - 6, 11, min_size=7, bold=True,
                   color=theme.INK)
        # narrow columns (960 px, longer Dutch words): the headings in two staggered rows,
        # each with two columns' room, rather than cut
        stagger = any(text_width(_(word), 9) > col_w - 6 for _key, word in cols)
        for k, (key, word) in enumerate(cols):
            x = left + 30 + name_w + col_w * (k + 1) - 6
            up = stagger and (len(cols) - 1 - k) % 2 == 1
            put_fitted(t, ("th", key), _(word), x, y + (16 if up else 0),
                       (2 * col_w - 10) if stagger else col_w - 6, 10, min_size=7, bold=True,
                       anchor_x="right", color=theme.INK)
        n = max(1, len(rows))
        rh = max(20.0, min(30.0, (top - 300) / n))
        self._rows = []
        for i, (seat, score, chests) in enumerate(rows):
            y -= rh
            self._rows.append((y, rh))
            who = self.summary.get("labels", {}).get(seat, "") or theme.seat_name(seat)
            put_fitted(t, ("n", i), f"{i + 1}. {who}", left + 30, y, name_w - 6, 12,
                       min_size=theme.SMALLEST_TYPE,
                       cut=True, bold=seat in (rec.winners if rec else self.summary.get("winners", [])),
                       color=theme.INK)
            p = rec.players.get(seat) if rec is not None else None
            values = ([p.provinces, p.buildings, p.majorities, score, chests] if p is not None
                      else [score, chests])
            for k, v in enumerate(values):
                x = left + 30 + name_w + col_w * (k + 1) - 6
                t.put(("v", i, k), str(v), x, y, size=12, anchor_x="right", color=theme.INK,
                      bold=cols[k][0] == "sc")
        if rec is None:
            return
        # the columns add up both winters: said, not left to guess
        note = put_boxed(t, "tn", _("Provinces, buildings and majorities: the points of both "
                                    "winters together."), left + 30, y - 8, width - 30, 30, 9,
                         min_size=theme.SMALLEST_TYPE, color=theme.MUTED)
        y -= 8 + note.content_height + 30
        t.put("lh", _("Luck of the tower"), left, y, size=12, bold=True, color=theme.INK)
        sub = put_boxed(t, "lh2", _("own cubes thrown into the tower in battles, and how many "
                                    "came out"), left, y - 6, width, 30, 9,
                        min_size=theme.SMALLEST_TYPE, color=theme.MUTED)
        y -= 10 + sub.content_height
        self._luck = []
        for i, (seat, _score, _chests) in enumerate(rows):
            y -= 20
            p = rec.players[seat]
            luck = p.luck
            if luck is not None:
                pct = round(100 * p.out / p.thrown)    # not 100 * luck: 23 of 40 is 57.5, not 57.49..
                words = ngettext("{n} thrown, {out} out ({pct}%)", "{n} thrown, {out} out ({pct}%)",
                                 p.thrown).format(n=p.thrown, out=p.out, pct=pct)
            else:
                words = _("no battles")
            put_fitted(t, ("lk", i), words, left + width, y, width * 0.45, 10,
                       min_size=theme.SMALLEST_TYPE,
                       anchor_x="right", color=theme.INK)
            self._luck.append((seat, y, width * 0.5 - 30, luck or 0.0))
        y -= 34
        b = rec.biggest
        t.put("bh", _("The biggest battle"), left, y, size=12, bold=True, color=theme.INK)
        words = battle_sentence(b) if b is not None else _("There was no battle in this game.")
        bt = put_boxed(t, "bb", words, left, y - 8, width, max(20.0, y - 8 - 112), 10,
                       min_size=theme.SMALLEST_TYPE, color=theme.INK)
        self._chart(t, left, width, bt.bottom - 18)

    def _chart(self, t: TextCache, left: float, width: float, top: float) -> None:
        """The scores at the start and after each winter, when the panel has room."""
        cl, cb = left + 34, 136
        cw, ch = width - 44 - 160, top - 24 - cb
        if ch < 70 or self.record is None:
            self._chart_box = None
            return
        self._chart_box = (cl, cb, cw, ch)
        t.put("ct", _("Score over the game"), left, top - 4, size=11, bold=True, color=theme.INK)
        peak = max([max(p.history) for p in self.record.players.values()] + [10])
        n = max(len(p.history) for p in self.record.players.values())
        for k in range(max(2, n)):
            x = cl + cw * k / max(1, n - 1)
            label = _("start") if k == 0 else _("winter {n}").format(n=k)
            t.put(("xl", k), label, x, cb - 16, size=9, anchor_x="center", color=theme.MUTED)
        step = max(1, peak // 4)
        for v in range(step, peak + 1, step):
            t.put(("yl", v), str(v), cl - 6, cb + ch * v / peak, size=8.5, anchor_x="right",
                  anchor_y="center", color=theme.MUTED)
        self._chart_scale = (peak, n, step)

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        bl, bw, rl, rw = self.columns()
        draw_panel(rl - 12, 64, rw + 24, self._panel_top - 64, fill=(246, 240, 226))
        rows = self.standings()
        for (seat, _s, _c), (y, rh) in zip(rows, self._rows):
            seat_token(seat, rl + 12, y + 5, 8)
        for seat, y, room, share in self._luck:
            seat_token(seat, rl + 12, y + 4, 7)
            arcade.draw_lbwh_rectangle_filled(rl + 28, y - 1, room, 11, (225, 216, 196))
            st = theme.seat_colour(seat)
            arcade.draw_lbwh_rectangle_filled(rl + 28, y - 1, room * min(1.0, share), 11, st)
            arcade.draw_lbwh_rectangle_outline(rl + 28, y - 1, room, 11, (90, 80, 70), 1)
        if self._chart_box is not None and self.record is not None:
            cl, cb, cw, ch = self._chart_box
            peak, n, step = self._chart_scale
            draw_panel(cl, cb, cw, ch, fill=(252, 249, 240))
            for v in range(0, peak + 1, step):
                y = cb + ch * v / peak
                arcade.draw_line(cl, y, cl + cw, y, (225, 218, 200), 1)
            for seat, p in sorted(self.record.players.items()):
                pts = [(cl + cw * k / max(1, n - 1), cb + ch * v / peak)
                       for k, v in enumerate(p.history)]
                col = theme.seat_colour(seat)
                if sum(col) > 700:                 # White: a grey line on the paper
                    col = (170, 170, 160)
                if len(pts) > 1:
                    arcade.draw_line_strip(pts, col, 2.5)
                for x, y in pts:                   # the seat's shape at each point
                    seat_token(seat, x, y, 5.5)

    def on_draw_over(self) -> None:
        self.texts.draw()


def record_for(summary: EndSummary, events: Sequence[ev.Event] | None) -> EndRecord | None:
    """The end record from the game's events (None without them)."""
    if events is None:
        return None
    return end_record(events, int(summary.get("players", 4)))
