"""A short text chat line for a network table (lobby and game): a one-line box and Send.
Enter sends (and keeps the box open for the next line), Esc leaves the box; T opens it
from the table. Signal up: `sent(text)`. What others say arrives through the session and
is shown in the log panel (or the lobby's list); chat never touches the game state.

Tests: tests/client/game/test_net_comforts.py.
"""

from __future__ import annotations

import arcade

from client.widgets.text_field import TextField
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from lang.i18n import N_, _

MAX_CHARS = 200


class ChatField(TextField):
    def __init__(self) -> None:
        super().__init__("", "", name="chat:field")
        self.submitted = Signal("submitted")
        # the T that opened the box arrives as text right after its key press: not a letter
        self.opening_key_pending = False

    def type_text(self, text: str) -> bool:
        if not self.focused:
            return False
        if self.opening_key_pending:
            self.opening_key_pending = False
            if text in ("t", "T"):
                return True
        room = MAX_CHARS - len(self.value)
        self.value += "".join(ch for ch in text if ch.isprintable())[:max(0, room)]
        self.mark_dirty()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        self.opening_key_pending = False      # another key: the opening T's text is past
        if self.focused and symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
            text, self.value = self.value.strip(), ""
            self.mark_dirty()
            if text:
                self.submitted.emit(text)
            return True
        return super().on_key_press(symbol, modifiers)

    def rebuild(self) -> None:
        self.texts.begin()
        shown = self.value[-60:] + ("▏" if self.focused else "")
        if not shown:
            shown = _("Chat: press T, type, Enter")
        self.texts.put("v", shown, self.left + 6, self.bottom + self.height / 2, size=10,
                       anchor_y="center", color=(30, 28, 25) if self.value or self.focused
                       else (130, 120, 110))
        self.texts.end()


class ChatBox(Node):
    def __init__(self) -> None:
        super().__init__("chat")
        self.sent = Signal("sent")
        self.field = self.add(ChatField())
        self.send_btn = self.add(Button(N_("Send"), name="chat:send", size=10))
        self.field.submitted.connect(self.sent.emit)
        self.send_btn.pressed.connect(self._send)
        self.send_btn.tip = N_("Send this line to everyone at the table (it changes nothing in the game).")

    def _send(self) -> None:
        text, self.field.value = self.field.value.strip(), ""
        self.field.mark_dirty()
        if text:
            self.sent.emit(text)

    @property
    def focused(self) -> bool:
        return self.field.focused

    def focus(self) -> None:
        self.field.focused = True
        self.field.mark_dirty()

    def open_by_key(self) -> None:
        """Focus the line from the table's T key; the "t" that key also types is dropped
        (it would start every line: "thello")."""
        self.focus()
        self.field.opening_key_pending = True

    def type_text(self, text: str) -> bool:
        return self.field.type_text(text)

    def on_layout(self) -> None:
        self.field.set_rect(self.left, self.bottom, self.width - 58, self.height)
        self.send_btn.set_rect(self.right - 54, self.bottom, 54, self.height)
