"""A network table's comforts in the game scene, kept apart from the game flow: the pause
panel (a live countdown for everyone while a seat is offline; the host's "Hand Orange to a
bot"), the chat line (what others say goes to the log panel, never to the game), and
"Unlock plan" while not every plan is in. Each part shows only when the session offers it
(`client.sessions.table_offers.TableOffers`); a refusal's sentence goes to the log. When the
table ends for me in the game (cut off, my seat given to a bot), `table_ended(sentence)`
signals up once, for the scene's card.

Tests: tests/client/game/test_net_comforts.py, tests/client/sessions/test_net_window.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import arcade

from client.core import theme
from client.widgets.chat_box import ChatBox
from client.words.net_words import for_players as net_said
from client.core.button import Button
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.sessions.table_offers import TableOffers
from lang.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from client.game.asking import Asker
    from client.game.table_shared import SceneState, TableViews
    from sim.commands import SubmitPlan

REFUSED = (180, 30, 20)
CHAT = (70, 50, 120)
NEWS = (30, 70, 140)         # the table's news: a player dropped, is back


def countdown_sentence(who: str, seconds: float, overdue: bool = False) -> str:
    """`overdue`: still connected, but its turn timer or automatic input ran out."""
    secs = max(0, int(seconds + 0.999))
    if overdue:
        return ngettext("{who} has not answered in time. A bot takes the seat in {n} second unless they play.",
                        "{who} has not answered in time. A bot takes the seat in {n} seconds unless they play.",
                        secs).format(who=who, n=secs)
    return ngettext("{who} has left the table. A bot takes the seat in {n} second unless they come back.",
                    "{who} has left the table. A bot takes the seat in {n} seconds unless they come back.",
                    secs).format(who=who, n=secs)


class PausePanel(Node):
    """Who is offline and for how long before a bot sits down (shown to everyone)."""

    def __init__(self) -> None:
        super().__init__("pause")
        self.visible = False
        self.lines: list[str] = []
        self.seats: list[int] = []
        self.buttons: dict[int, Button] = {}
        self.texts = TextCache()

    def set_countdown(self, countdown: dict[int, float], labels: dict[int, str],
                      host: bool, hand_over: Callable[[int], None],
                      overdue: frozenset[int] = frozenset()) -> None:
        seats = sorted(countdown)
        lines = [countdown_sentence(labels.get(s) or theme.seat_name(s), countdown[s], s in overdue)
                 for s in seats]
        if seats != self.seats:
            for b in self.buttons.values():
                self.remove(b)
            self.buttons = {}
            if host:
                for s in seats:
                    b = self.add(Button(_("Hand {colour} to a bot").format(colour=theme.SEAT_NAMES[s]),
                                        name=f"hand:{s}", size=11))
                    b.pressed.connect(lambda s=s: hand_over(s))
                    self.buttons[s] = b
            self.seats = seats
            h = 56 + 44 * max(1, len(seats))       # as tall as its lines, top kept
            self.set_rect(self.left, self.top - h, self.width, h)
        if lines != self.lines:
            self.lines = lines
            self.mark_dirty()
        show = bool(seats)
        if show != self.visible:
            self.visible = show
            damage()

    def on_layout(self) -> None:
        for k, s in enumerate(self.seats):
            b = self.buttons.get(s)
            if b is not None:
                b.set_rect(self.right - 214, self.top - 46 - 44 * k - 30, 204, 30)

    def rebuild(self) -> None:
        t = self.texts
        t.begin()
        t.put("h", _("The game waits"), self.left + 12, self.top - 22, size=13, bold=True,
              color=(255, 248, 230))
        room = self.width - 24 - (220 if self.buttons else 0)
        for k, line in enumerate(self.lines):
            t.put(("l", k), line, self.left + 12, self.top - 40 - 44 * k, size=10,
                  color=(255, 240, 215), width=int(room), multiline=True, anchor_y="top")
        t.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height,
                                          (50, 40, 60, 235))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height,
                                           (240, 200, 120), 2)
        self.texts.draw()

    def on_draw_over(self) -> None:
        pass


class NetComforts:
    def __init__(self, scene: Node, offers: TableOffers, shared: SceneState, views: TableViews,
                 asker: Asker) -> None:
        self.offers = offers
        self.shared = shared
        self.views = views
        self.asker = asker
        self.table_ended = Signal("table_ended")     # (sentence) once: the game ended for me
        self._said_end = False
        self.pause = scene.add(PausePanel())
        self.chat: ChatBox | None = scene.add(ChatBox())
        if self.chat is not None:
            self.chat.sent.connect(self._send)
        self.unlock_btn = scene.add(Button(N_("Unlock plan  [U]"), name="unlock", size=11,
                                           color=(250, 214, 120)))
        self.unlock_btn.tip = N_("Take your plan back to change it, while not every plan is "
                                 "in; the others are told.")
        self.unlock_btn.visible = False
        self.unlock_btn.pressed.connect(self.unlock)
        self._shown_chat = 0
        self._shown_notices = 0
        self._last_plan: SubmitPlan | None = None

    @property
    def chat_height(self) -> float:
        return 30 if self.chat is not None else 0

    def layout(self, W: float, H: float, log_rect: tuple[float, float, float, float],
               board_rect: tuple[float, float, float, float]) -> None:
        l, b, w, h = log_rect
        if self.chat is not None:
            self.chat.set_rect(l + 4, b + 4, w - 8, 26)
        bl, bb, bw, bh = board_rect
        pw = min(620, bw - 40)
        ph = self.pause.height or 100
        self.pause.set_rect(bl + (bw - pw) / 2, bb + bh - 40 - ph, pw, ph)
        self.unlock_btn.set_rect(bl + bw - 190, bb + 6, 180, 28)

    # -- every frame ------------------------------------------------------------------------
    def update(self) -> None:
        s = self.offers
        countdown = s.takeover_countdown()
        self.pause.set_countdown(countdown, self.shared.labels, s.can_hand_over, self.hand_over,
                                 frozenset(s.overdue_seats()))
        lines = s.chat_lines
        while self._shown_chat < len(lines):
            line = lines[self._shown_chat]
            self._shown_chat += 1
            self._log_chat(line.sender, line.seat, line.text)
        while self._shown_notices < len(s.notices):
            self.views.log.add_line(net_said(s.notices[self._shown_notices]), NEWS)
            self._shown_notices += 1
        show = s.plan_unlockable()
        if show != self.unlock_btn.visible:
            self.unlock_btn.visible = show
            damage()
        if s.ended_why is not None and not self._said_end:
            self._said_end = True
            self.views.log.add_line(net_said(s.ended_why), REFUSED)
            self.table_ended.emit(net_said(s.ended_why))

    def _log_chat(self, sender: str, seat: int | None, text: str) -> None:
        who = (self.shared.labels.get(seat) if seat is not None else None) or sender or _("Someone")
        self.views.log.add_line(_("{who}: {text}").format(who=who, text=text), CHAT)

    # -- actions ----------------------------------------------------------------------------
    def _send(self, text: str) -> None:
        try:
            self.offers.send_chat(text)
        except Exception as exc:
            self.views.log.add_line(_("Your message was not sent: {reason}").format(reason=net_said(str(exc))),
                               REFUSED)
            return
        me = self.offers.my_seats[0] if self.offers.my_seats else None
        self._log_chat(_("You"), me, text)

    def hand_over(self, seat: int) -> None:
        try:
            self.offers.hand_seat_to_bot(seat)
        except ValueError as exc:
            self.views.log.add_line(net_said(str(exc)), REFUSED)
            return
        self.views.log.add_line(_("You handed {colour} to a bot.").format(colour=theme.SEAT_NAMES[seat]), (30, 110, 40))

    def remember_plan(self, cmd: SubmitPlan) -> None:
        self._last_plan = cmd

    def unlock(self) -> None:
        if not self.unlock_btn.visible:
            return
        self._last_plan = self.offers.my_plan(self.offers.my_seats[0]) or self._last_plan
        try:
            self.offers.unlock_plan()
        except ValueError as exc:
            self.views.log.add_line(net_said(str(exc)), REFUSED)
            return
        self.unlock_btn.visible = False
        self.asker.ask_again()
        planning = self.views.planning
        if self._last_plan is not None and planning.visible:
            planning.load(self._last_plan.actions, self._last_plan.bid)
        self.views.log.add_line(_("Plan unlocked: change it and lock it again."), (30, 110, 40))

    # -- input ------------------------------------------------------------------------------
    def key(self, symbol: int) -> bool:
        if self.chat is not None and symbol == arcade.key.T and not self.chat.focused:
            self.chat.open_by_key()
            return True
        if symbol == arcade.key.U and self.unlock_btn.visible:
            self.unlock()
            return True
        return False

    def type_text(self, text: str) -> bool:
        return self.chat is not None and self.chat.type_text(text)
