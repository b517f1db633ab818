"""The tutorial's card on the table: a step's title, its words, what to do now, and the
buttons (Next, Show me, Skip tutorial, Leave tutorial); between steps, while the
opponents are watched one move at a time, a slim bar (Next move, Play on).

Why its own node: the coach (`coach.py`) decides what is shown and when; this only lays
the words out in its box so that they fit at every window size and in every language
(smaller type, then cut, as `client.widgets.text_fit` does everywhere).

Signals up: `next_pressed()`, `show_pressed()`, `skip_pressed()`, `leave_pressed()`,
`play_on_pressed()`.

Tests: tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

import arcade

from client.core.button import Button, label_width
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.core.theme import SMALLEST_TYPE
from client.widgets.text_fit import put_boxed, put_fitted
from lang.i18n import N_
from lang.i18n import _

FILL = (40, 70, 60)
EDGE = (240, 200, 120)
TITLE = (255, 236, 190)
BODY = (250, 244, 230)
TASK = (255, 220, 140)
MISSING = (255, 160, 120)


def after_colon(sentence: str) -> str:
    """A sentence put after "Now:" starts in lower case (as Dutch and Romanian write it:
    "Nu: bekijk", not "Nu: Bekijk")."""
    return sentence[:1].lower() + sentence[1:]


BUTTON_SIZE = 10.0       # the card's buttons' type, unless a label needs less (then all)


def card_button(label: str, key: int | None = None) -> Button:
    return Button(label, size=BUTTON_SIZE, key=key)


class TutorialCard(Node):
    """A step's card (`show_step`) or the move-by-move bar (`show_bar`)."""

    def __init__(self) -> None:
        super().__init__("tutorial_card")
        self.visible = False
        self.next_pressed = Signal("next_pressed")
        self.show_pressed = Signal("show_pressed")
        self.skip_pressed = Signal("skip_pressed")
        self.leave_pressed = Signal("leave_pressed")
        self.play_on_pressed = Signal("play_on_pressed")
        self.mode = ""                     # "step" | "bar"
        self.button_rows = 1
        self.heading = ""
        self.counter = ""
        self.short_counter = ""
        self.body = ""
        self.task = ""
        self.missing = ""                  # what Next still waits for (said in place of the task)
        self.texts = TextCache()
        self.next_btn = self.add(card_button(N_("Next  [N]"), arcade.key.N))
        self.show_btn = self.add(card_button(N_("Show me")))
        self.skip_btn = self.add(card_button(N_("Skip tutorial")))
        self.leave_btn = self.add(card_button(N_("Leave tutorial")))
        self.play_on_btn = self.add(card_button(N_("Play on")))
        self.next_btn.pressed.connect(self.next_pressed.emit)
        self.show_btn.pressed.connect(self.show_pressed.emit)
        self.skip_btn.pressed.connect(self.skip_pressed.emit)
        self.leave_btn.pressed.connect(self.leave_pressed.emit)
        self.play_on_btn.pressed.connect(self.play_on_pressed.emit)

    def show_step(self, heading: str, counter: str, body: str, task: str, *,
                  can_show: bool = False, last: bool = False, short_counter: str = "") -> None:
        """A step's card (translated words). `can_show`: offer Show me; `last`: the
        closing step, whose Next is Play on; `short_counter` ("5/11") stands for `counter`
        in a card too narrow for both it and the heading."""
        self.mode = "step"
        self.heading, self.counter, self.body, self.task = heading, counter, body, task
        self.short_counter = short_counter or counter
        self.missing = ""
        self.next_btn.set_label(N_("Play on  [N]") if last else N_("Next  [N]"))
        self.show_btn.visible = can_show
        self.skip_btn.visible = not last
        self.play_on_btn.visible = False
        self.leave_btn.visible = True
        self.visible = True
        self.on_layout()

    def show_bar(self, text: str) -> None:
        """Between steps: one opponent move at a time."""
        self.mode = "bar"
        self.heading, self.counter, self.body, self.task = "", "", text, ""
        self.missing = ""
        self.next_btn.set_label(N_("Next move  [N]"))
        self.show_btn.visible = self.skip_btn.visible = self.leave_btn.visible = False
        self.play_on_btn.visible = True
        self.visible = True
        self.on_layout()

    def say_missing(self, text: str) -> None:
        """Next was pressed before the step's task was done: the task line says what is
        missing (in another colour) until the step changes."""
        self.missing = text
        self.on_layout()

    def task_line(self) -> str:
        if self.missing:
            return _("Not yet: {missing}").format(missing=after_colon(self.missing))
        return _("Now: {task}").format(task=after_colon(self.task)) if self.task else ""

    def hide(self) -> None:
        if self.visible:
            self.visible = False
            self.mark_dirty()

    def needed_height(self, width: float, most: float, size: float = 10.5) -> float:
        """The height the words need in a card `width` wide with its words at `size`
        (their usual 10.5 pt unless said; at most `most`: smaller type fits them into
        less)."""
        if self.mode == "bar":
            return min(most, 56 + self._measure(self.body, width - 24, size))
        words = self._measure(self.body, width - 24, size)
        task = self._measure(self.task_line(), width - 24, size, bold=True)
        if self.mode == "step":
            words += self._heading_extra(width)
        buttons = 34 * (len(self._rows(width)) - 1)
        # as `rebuild` lays them out: the heading's 36, the words, 6 between and around
        # the task line, the buttons' 44
        return max(120.0, min(most, 36 + words + 6 + task + 44 + buttons))

    def _heading_extra(self, width: float) -> float:
        """How much lower the words start when the heading takes two lines (as
        `rebuild` lays it out: beside the counter, or its short form, in 11 pt at least)."""
        inner = width - 24
        head = arcade.Text(self.heading, 0, 0, font_size=11, bold=True).content_width
        long = arcade.Text(self.counter, 0, 0, font_size=9.5).content_width
        counter = self.counter if head <= inner - min(86.0, long) - 10 else self.short_counter
        room = inner - min(86.0, arcade.Text(counter, 0, 0, font_size=9.5).content_width) - 10
        if head <= room:
            return 0.0
        return max(0.0, min(36.0, self._measure(self.heading, room, 11, bold=True)) - 14)

    def words_size(self, room: float) -> float:
        """The one type size of the words and the task line (10.5 pt, or smaller down
        to SMALLEST_TYPE, 11 px) at which both fit `room` above the buttons; both the same
        size, so the card reads as one."""
        inner, task = self.width - 24, self.task_line()
        size = 10.5
        while size > SMALLEST_TYPE:
            need = self._measure(self.body, inner, size) + 4 + \
                (self._measure(task, inner, size, bold=True) + 2 if task else 0.0)
            if need <= room:
                break
            size = max(SMALLEST_TYPE, size - 0.5)
        return size

    @staticmethod
    def _measure(text: str, width: float, size: float, bold: bool = False) -> float:
        if not text:
            return 0.0
        t = arcade.Text(text, 0, 0, font_size=size, width=max(10, int(width)), multiline=True,
                        bold=bold)
        return float(t.content_height)

    def _rows(self, width: float) -> list[list[tuple[Button, float]]]:
        """The visible buttons with the width each label needs, in one row, or two when
        one row would shrink them (a long translation in a narrow card): Next and Show me
        above, Skip and Leave below."""
        row = [b for b in (self.next_btn, self.show_btn, self.play_on_btn, self.skip_btn,
                           self.leave_btn) if b.visible]
        need = [(b, arcade.Text(_(b.label), 0, 0, font_size=b.size).content_width + 14.0)
                for b in row]
        if sum(n for _b, n in need) + 6 * (len(need) - 1) <= width - 24 or len(need) < 3:
            return [need]
        below = (self.skip_btn, self.leave_btn)
        return [[x for x in need if x[0] not in below], [x for x in need if x[0] in below]]

    def on_layout(self) -> None:
        gap = 6
        rows = self._rows(self.width)
        self.button_rows = len(rows)
        for r, row in enumerate(rows):
            room = self.width - 24 - gap * (len(row) - 1)
            total = max(1.0, sum(n for _b, n in row))
            x = self.left + 12
            for b, n in row:           # each as wide as its label needs, in proportion
                w = room * n / total
                b.set_rect(x, self.bottom + 10 + (len(rows) - 1 - r) * 34, w, 28)
                x += w + gap
        # every button of the card at one type size: the size at which each label fits
        # its button (at 960x640 in Dutch and Romanian "Skip tutorial" and "Leave tutorial"
        # shrank on their own, beside a larger Next)
        shown = [b for row in rows for b, _n in row]
        size = BUTTON_SIZE
        while size > 7 and any(label_width(_(b.label), size) > b.width - 6 for b in shown):
            size -= 0.5
        for b in (self.next_btn, self.show_btn, self.skip_btn, self.leave_btn, self.play_on_btn):
            if b.size != size:
                b.size = size
                b.mark_dirty()
        self.mark_dirty()

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        inner = self.width - 24
        top = self.top - 10
        if self.mode == "step":
            words = self.counter
            long = arcade.Text(self.counter, 0, 0, font_size=9.5).content_width
            if arcade.Text(self.heading, 0, 0, font_size=11, bold=True).content_width \
                    > inner - min(86.0, long) - 10:       # the heading first: "5/11" then
                words = self.short_counter
            counter = put_fitted(t, "c", words, self.right - 12, top - 14, 86, 9.5,
                                 min_size=SMALLEST_TYPE, anchor_x="right", color=BODY)
            room = inner - counter.content_width - 10
            head = put_fitted(t, "h", self.heading, self.left + 12, top - 14, room, 13,
                              min_size=11, bold=True, color=TITLE)
            if head.content_width > room:      # on two lines rather than cut or tiny
                head = put_boxed(t, "h", self.heading, self.left + 12, top - 2, room, 36, 11,
                                 min_size=SMALLEST_TYPE, bold=True, color=TITLE)
                top -= head.content_height - 14
            top -= 26
        buttons_top = self.bottom + 44 + 34 * (self.button_rows - 1)
        room = top - buttons_top
        task_text = self.task_line()
        size = self.words_size(room)
        task_room = min(self._measure(task_text, inner, size, bold=True) + 2, room * 0.5) \
            if task_text else 0.0
        # (smaller still, rather than cut, only where no spot holds them)
        put_boxed(t, "b", self.body, self.left + 12, top, inner, room - task_room - 4, size,
                  min_size=7.5, color=BODY)
        if task_text:
            put_boxed(t, "k", task_text, self.left + 12,
                      buttons_top + task_room, inner, task_room, size, min_size=7.5,
                      bold=True, color=MISSING if self.missing else TASK)
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, FILL)
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, EDGE, 2)
        self.texts.draw()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return self.contains(x, y)       # a click on the card stays on the card
