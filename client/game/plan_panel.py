"""Planning: put province cards on the 10 action fields and a card on the bid field.

Call down: `start(seat, cards, money, check)` (`check(actions, bid) -> [problems]`),
`select_card(card)`, `assign(field, card)`, `clear(field)`, `load(actions, bid)`, `undo()`.
Signals up: `locked(actions, bid)`, `suggestion_asked()`, `card_selected(card or None)`.
An empty action field holds a money card: no action there. A gold coin on a field shows
what the action costs in chests; `tooltip_at(x, y)` says what a field or card does.
Undo (Ctrl+Z or the Undo button) takes back the last change on the fields, one at a time,
until the plan is locked: nothing here has reached the table yet (Board Game Arena's rule:
never across another player's action, hidden information or chance).

Tests: tests/client/scenes/test_window.py, tests/client/game/test_comforts_window.py, tests/client/game/test_table_layout.py,
tests/client/game/test_undo.py.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

import arcade

from client.core import theme
from client.core.card_facts import action_costs, chests
from client.core.button import Button, label_width
from client.core.damage import damage
from client.core.node import Node
from client.core.panel import draw_panel
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.widgets.text_fit import put_boxed, put_fitted
from lang.i18n import N_, _, ngettext
from client.words.rules_text import action_tips
from client.board.map_geometry import text_width

ACTIONS = ("palace", "temple", "theatre", "rice", "tax",
           "deploy5", "deploy3", "deploy1", "battle_a", "battle_b")
FIELDS = ACTIONS + ("bid",)


class PlanningPanel(Node):
    def __init__(self) -> None:
        super().__init__("planning")
        self.locked = Signal("locked")
        self.suggestion_asked = Signal("suggestion_asked")
        self.card_selected = Signal("card_selected")
        self.seat = 0
        self.cards: list[str] = []
        self.money = 0
        self.check: Callable[[tuple[object, ...], object], list[str]] = lambda actions, bid: []
        self.fields: dict[str, object] = {f: None for f in FIELDS}
        self.selected: object | None = None
        self.problems: list[str] = []
        self._drag: object | None = None
        self.drag_at: tuple[float, float] | None = None   # where a dragged card is drawn
        self.texts = TextCache()
        self._ghost = TextCache()
        self.costs = action_costs()
        self.tips = action_tips()
        self.lock_btn = self.add(Button(N_("Lock plan  [Enter]"), key=arcade.key.ENTER, size=11))
        self.sugg_btn = self.add(Button(N_("Suggest  [B]"), key=arcade.key.B, size=11))
        self.clear_btn = self.add(Button(N_("Clear  [C]"), key=arcade.key.C, size=11))
        self.undo_btn = self.add(Button(N_("Undo"), size=11))
        self.history: list[dict[str, object]] = []     # the fields before each change, oldest first
        self.lock_btn.pressed.connect(self._lock)
        self.sugg_btn.pressed.connect(self.suggestion_asked.emit)
        self.clear_btn.pressed.connect(self.clear_all)
        self.undo_btn.pressed.connect(self.undo)
        self.lock_btn.tip = N_("Lock this plan (it is legal when this line is green).")
        self.sugg_btn.tip = N_("Fill the fields with the plan a heuristic bot would make.")
        self.clear_btn.tip = N_("Empty every field.")
        self.undo_btn.tip = N_("Take back the last change on the fields [Ctrl+Z].")

    # -- inputs ---------------------------------------------------------------------------
    def start(self, seat: int, cards: Iterable[str], money: int,
              check: Callable[[tuple[object, ...], object], list[str]]) -> None:
        self.seat, self.cards, self.money, self.check = seat, list(cards), money, check
        self.reset()
        self.history = []             # a new plan: nothing to take back
        self._recheck()

    def reset(self) -> None:
        self.fields = {f: None for f in FIELDS}
        self.fields["bid"] = 0
        self.selected = None
        self._recheck()

    def clear_all(self) -> None:
        """C or Clear: every field emptied (Undo puts them back)."""
        before = dict(self.fields)
        self.reset()
        self._changed(before)

    def load(self, actions: Iterable[object], bid: object) -> None:
        before = dict(self.fields)
        self.fields = {a: p for a, p in zip(ACTIONS, actions)}
        self.fields["bid"] = bid
        self.selected = None
        self._changed(before)
        self._recheck()

    def undo(self) -> bool:
        """Take back the last change on the fields; False when there is none."""
        if not self.history:
            return False
        self.fields = self.history.pop()
        self.selected = None
        self.card_selected.emit(None)
        self._recheck()
        return True

    def _changed(self, before: dict[str, object]) -> None:
        if before != self.fields:
            self.history.append(before)
            del self.history[:-200]

    def select_card(self, card: object) -> None:
        if card is not None and card not in self.all_cards():
            return
        self.selected = None if card == self.selected else card
        self.card_selected.emit(self.selected)
        self.mark_dirty()

    def assign(self, field: str, card: object) -> None:
        before = dict(self.fields)
        if field != "bid" and isinstance(card, int):
            card = None                     # a money card on an action field: no action
        for f, c in self.fields.items():
            if c == card and card is not None and not (isinstance(card, int) and f != "bid"):
                self.fields[f] = None
        self.fields[field] = card
        self.selected = None
        self._changed(before)
        self._recheck()

    def clear(self, field: str) -> None:
        before = dict(self.fields)
        self.fields[field] = None
        self._changed(before)
        self._recheck()

    # -- state ----------------------------------------------------------------------------
    def all_cards(self) -> list[str | int]:
        return list(self.cards) + [0, 1, 2, 3, 4]

    def plan(self) -> tuple[tuple[object, ...], object]:
        return tuple(self.fields[a] for a in ACTIONS), self.fields["bid"]

    def used(self) -> set[object]:
        return {c for c in self.fields.values() if c is not None}

    def _recheck(self) -> None:
        actions, bid = self.plan()
        try:
            self.problems = list(self.check(actions, bid))
        except Exception as exc:  # the checker is the engine's; show, don't crash
            self.problems = [str(exc)]
        self.lock_btn.active = not self.problems
        self.undo_btn.active = bool(self.history)
        self.mark_dirty()

    def _lock(self) -> None:
        if not self.problems:
            actions, bid = self.plan()
            self.locked.emit(actions, bid)

    # -- layout ---------------------------------------------------------------------------
    def _geometry(self) -> None:
        """Rows for the panel's size: the 11 fields in one row, or two in a narrow panel
        (fields under ~76 px cannot hold an action's name, its cost and a card's name);
        the heading goes when the panel is too short for it."""
        self.rows = 1 if (self.width - 16) / 11 - 6 >= 76 else 2
        self.field_h = 44 if self.rows == 1 else 30
        self.card_h = 24 if self.rows == 1 else 22
        need = 18 + self.rows * (self.field_h + 3) + 3 + self.card_h + 36
        self.header = need <= self.height
        self.fields_top = self.top - (20 if self.header else 5)

    def field_rect(self, k: int) -> tuple[float, float, float, float]:
        if not hasattr(self, "rows"):
            self._geometry()
        per_row = 11 if self.rows == 1 else 6
        row, col = divmod(k, per_row)
        w = (self.width - 16) / per_row
        top = self.fields_top - row * (self.field_h + 3)
        return (self.left + 8 + col * w, top - self.field_h, w - 6, self.field_h)

    def cards_top(self) -> float:
        if not hasattr(self, "rows"):
            self._geometry()
        return self.fields_top - self.rows * (self.field_h + 3) - 1

    def card_rects(self) -> list[tuple[str | int, tuple[float, float, float, float]]]:
        """The hand's cards in a row: each province card as wide as its name needs
        (a long name like Awa-Shikoku is not cut to "Awa-Shi…" while Kaga has room to
        spare), all shrunk alike when the row is short (issue 27, item 12)."""
        cards = self.all_cards()
        prov = [c for c in cards if isinstance(c, str)]
        mw = 34
        avail = self.width - 16 - 5 * (mw + 4) - 8
        need = {c: min(120.0, max(40.0, text_width(c, 9) + 12)) for c in prov}
        total = sum(need.values())
        shrink = min(1.0, (avail - 4 * len(prov)) / total) if total > 0 else 1.0
        x = self.left + 8
        y = self.cards_top() - self.card_h
        out: list[tuple[str | int, tuple[float, float, float, float]]] = []
        for c in cards:
            w = float(int(need[c] * shrink)) if isinstance(c, str) else mw   # whole pixels
            if isinstance(c, int) and c == 0:
                x += 8
            out.append((c, (x, y, w, self.card_h)))
            x += w + 4
        return out

    def drawn_boxes(self) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
        """The fields and cards as drawn (name, (left, bottom, right, top)): the layout
        tests check that no words run across them."""
        for k, f in enumerate(FIELDS):
            l, b, w, h = self.field_rect(k)
            yield f"the {f} field", (l, b, l + w, b + h)
        for c, (l, b, w, h) in self.card_rects():
            yield f"the card {c}", (l, b, l + w, b + h)

    def on_layout(self) -> None:
        self._geometry()
        bw = max(112, min(150, self.width * 0.2))
        bh = 28 if self.rows == 1 else 26
        # each button at most as wide as its label needs (the hint left of them is read
        # whole: the Romanian one was cut at 960x640), packed from the right
        right = self.right - 8
        for b, most in ((self.lock_btn, bw), (self.sugg_btn, bw - 24),
                        (self.clear_btn, bw - 44), (self.undo_btn, 66.0)):
            w = min(most, max(60.0, label_width(_(b.label), b.size)
                               + 20))
            b.set_rect(right - w, self.bottom + 4, w, bh)
            right -= w + 4

    def field_at(self, x: float, y: float) -> str | None:
        for k, f in enumerate(FIELDS):
            l, b, w, h = self.field_rect(k)
            if l <= x < l + w and b <= y < b + h:
                return f
        return None

    def coin_centre(self, k: int) -> tuple[float, float]:
        l, b, w, h = self.field_rect(k)
        return l + w - 8, b + h - 8

    def tooltip_at(self, x: float, y: float) -> str | None:
        """What the field or card under the mouse does, or None."""
        if not self.visible or not self.contains(x, y):
            return None
        f = self.field_at(x, y)
        if f is not None:
            return self.tips.get(f)
        c = self.card_at(x, y)
        if isinstance(c, str):
            return _("{province}: put it on an action field to do that action in {province}, "
                     "or on the bid field to bid nothing.").format(province=c)
        if isinstance(c, int):
            if c <= self.money:
                return ngettext("Money card {n}: on the bid field you bid {n} chest; on an action "
                                "field it means no action.",
                                "Money card {n}: on the bid field you bid {n} chests; on an action "
                                "field it means no action.", c).format(n=c)
            return ngettext("Money card {n}: on the bid field you bid {n} chest; on an action field "
                            "it means no action. You have only {money} to bid.",
                            "Money card {n}: on the bid field you bid {n} chests; on an action field "
                            "it means no action. You have only {money} to bid.", c).format(
                n=c, money=self.money)
        for b in (self.lock_btn, self.sugg_btn, self.clear_btn, self.undo_btn):
            if b.contains(x, y):
                return b.tip
        return None

    def card_at(self, x: float, y: float) -> str | int | None:
        for c, (l, b, w, h) in self.card_rects():
            if l <= x < l + w and b <= y < b + h:
                return c
        return None

    # -- drawing --------------------------------------------------------------------------
    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        if self.header:
            put_fitted(t, "h", _("Your plan — click a card, then a field (or drag). Empty fields: "
                                 "no action. Gold coins: cost in chests. Hover for what a field does."),
                       self.left + 8, self.top - 14, self.width - 16, 9.5, cut=True,
                       min_size=theme.SMALLEST_TYPE, color=theme.INK)
        for k, f in enumerate(FIELDS):
            l, b, w, h = self.field_rect(k)
            label = _("Bid") if f == "bid" else theme.ACTION_SHORT[f]
            coin = 17 if self.costs.get(f) else 0
            small = self.rows > 1
            put_fitted(t, ("fl", k), label, round(l + 4), b + h - (10 if small else 12), w - 7 - coin,
                       theme.SMALLEST_TYPE, min_size=theme.SMALLEST_TYPE, cut=True,
                       color=theme.MUTED)
            if coin:
                cx, cy = self.coin_centre(k)
                t.put(("fk", k), str(self.costs[f]), cx, cy, size=theme.SMALLEST_TYPE, bold=True,
                      anchor_x="center", anchor_y="center", color=(90, 60, 10))
            c = self.fields[f]
            txt = "—" if c is None else (chests(c) if isinstance(c, int) else str(c))
            v = put_fitted(t, ("fc", k), txt, l + w / 2, b + (4 if small else 5), w - 6,
                           9 if small or not isinstance(c, str) else 9.5, cut=True,
                           anchor_x="center", min_size=theme.SMALLEST_TYPE,
                           bold=c is not None, color=theme.INK)
            if v.text != txt and " " in txt and not small:   # on two lines rather than cut
                put_boxed(t, ("fc", k), txt, l + 3, b + h - 14, w - 6, h - 16,  # (the Dutch bid
                          theme.SMALLEST_TYPE, min_size=theme.SMALLEST_TYPE,  # "0 geldkist…")
                          align="center", bold=True, color=theme.INK)
        used = self.used()
        for c, (l, b, w, h) in self.card_rects():
            put_fitted(t, ("c", c), str(c) if isinstance(c, str) else f"${c}", l + w / 2,
                       b + h / 2, w - 4, 9, cut=True, anchor_x="center", anchor_y="center",
                       min_size=theme.SMALLEST_TYPE,
                       color=(150, 150, 150) if (c in used and isinstance(c, str)) else theme.INK)
        if self.problems:
            more = len(self.problems) - 1
            msg = ngettext("{problem}  (and {n} more problem)", "{problem}  (and {n} more problems)",
                           more).format(problem=self.problems[0], n=more) if more else self.problems[0]
        else:
            msg = _("Plan is legal — press Enter to lock it.")
        # the message keeps to the bottom row, left of the buttons: never over the cards
        room_top = self.cards_top() - self.card_h - 3
        put_boxed(t, "p", msg, self.left + 8, room_top, self.undo_btn.left - self.left - 16,
                  room_top - self.bottom - 3, 9.5, min_size=theme.SMALLEST_TYPE,
                  color=(180, 30, 20) if self.problems else (30, 120, 40))
        t.end()

    def on_draw(self) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height)
        for k, f in enumerate(FIELDS):
            l, b, w, h = self.field_rect(k)
            fill = (255, 250, 236) if self.fields[f] is not None else (232, 224, 206)
            if f == "bid":
                fill = (250, 232, 190)
            arcade.draw_lbwh_rectangle_filled(l, b, w, h, fill)
            arcade.draw_lbwh_rectangle_outline(l, b, w, h, (110, 95, 80), 1)
            if self.costs.get(f):
                cx, cy = self.coin_centre(k)
                arcade.draw_circle_filled(cx, cy, 6.5, (240, 196, 80))
                arcade.draw_circle_outline(cx, cy, 6.5, (150, 110, 30), 1)
        used = self.used()
        for c, (l, b, w, h) in self.card_rects():
            if isinstance(c, int):
                fill = (246, 214, 110) if c <= self.money else (200, 200, 200)
            else:
                fill = (214, 232, 246) if c not in used else (225, 225, 225)
            if c == self.selected:
                fill = (255, 170, 80)
            arcade.draw_lbwh_rectangle_filled(l, b, w, h, fill)
            arcade.draw_lbwh_rectangle_outline(l, b, w, h, (90, 80, 70), 1)
        self.texts.draw()

    # -- input ----------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.Z and modifiers & arcade.key.MOD_CTRL:
            self.undo()
            return True
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.contains(x, y):
            return False
        c = self.card_at(x, y)
        if c is not None:
            self._drag = c
            self.select_card(c)
            return True
        f = self.field_at(x, y)
        if f is not None:
            if self.selected is not None:
                self.assign(f, self.selected)
            elif self.fields[f] is not None:
                self.select_card(self.fields[f])
                if f != "bid":
                    self.clear(f)
            return True
        return True

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int,
                      modifiers: int) -> None:
        if self._drag is not None:
            self.drag_at = (x, y)      # the card follows the pointer (issue 27, item 11)
            damage()

    def on_draw_over(self) -> None:
        """The card being dragged, under the pointer."""
        if self._drag is None or self.drag_at is None:
            return
        sizes = [(r[2], r[3]) for c, r in self.card_rects() if c == self._drag]
        w, h = sizes[0] if sizes else (60.0, 24.0)
        x, y = self.drag_at
        l, b = x - w / 2, y - h / 2
        arcade.draw_lbwh_rectangle_filled(l + 3, b - 3, w, h, (0, 0, 0, 70))
        arcade.draw_lbwh_rectangle_filled(l, b, w, h, (255, 170, 80, 235))
        arcade.draw_lbwh_rectangle_outline(l, b, w, h, (90, 60, 30), 2)
        c = self._drag
        g = self._ghost
        g.begin()
        put_fitted(g, "g", str(c) if isinstance(c, str) else f"${c}", x, y, w - 4, 9, cut=True,
                   anchor_x="center", anchor_y="center", color=theme.INK)
        g.end()
        g.draw()

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        self.drag_at = None
        if self._drag is not None:
            f = self.field_at(x, y)
            card, self._drag = self._drag, None
            if f is not None:
                self.assign(f, card)
                return True
        return False
