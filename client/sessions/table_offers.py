"""What a network table offers beyond the game: the take-over countdown, handing a seat to
a bot, chat, and unlocking a plan before every plan is in.

`TableOffers` is the network session's part for these (the scene reaches it as
`session.table_offers`). A table may predate any of them (the tests' bare table): which
it has is looked up once, here, and said by the `can_…` members.

Tests: tests/client/game/test_net_comforts.py, tests/client/sessions/test_net_window.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from lang.i18n import _
from sim.state import DecisionKind

if TYPE_CHECKING:
    from sim.commands import SubmitPlan
    from sim.state import Decision


class ChatLine(Protocol):
    """The shape of `net.table.chat.ChatLine`."""

    @property
    def sender(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def text(self) -> str: ...


def _unset(*args: Any) -> None:
    return None


class TableCallbacks(Protocol):
    """The callback slots a `NetSession` fills in (a stand-in table in the tests or the
    screenshot tool subclasses this to have them; `TableSession` declares its own)."""

    on_chat_received: Callable[[Any], None] = _unset
    on_lobby_changed: Callable[[dict[str, Any]], None] = _unset
    on_started: Callable[[Any, Any, Any], None] = _unset
    on_events: Callable[[Any, Any], None] = _unset
    on_paused: Callable[[str], None] = _unset
    on_resumed: Callable[[], None] = _unset
    on_desync: Callable[[dict[str, Any]], None] = _unset
    on_refused: Callable[[str], None] = _unset
    on_error: Callable[[str], None] = _unset
    on_ended: Callable[[Any], None] = _unset


class NetTable(TableCallbacks, Protocol):
    """What the client uses of `net.table.session.TableSession` (the offers' methods are
    looked up by `TableOffers`: a table may lack them)."""

    lobby: dict[str, Any]
    listen_port: int

    @property
    def my_seat(self) -> int | None: ...

    @property
    def state(self) -> Any: ...

    @property
    def decision(self) -> Decision | None: ...

    def waiting_for(self) -> list[int]: ...

    def submit(self, command: Any) -> None: ...

    @property
    def join_code(self) -> str | None: ...

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None) -> None: ...

    def start_game(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class PlanMark:
    """Shared by the network session and its offers: whether the game has started, and
    the batch count when my last command went in (None: nothing sent since the last
    unlock), so the window neither asks again nor offers an unlock too early."""

    started: bool = False
    submitted_at: int | None = None


def seats_at(table: NetTable, role: str) -> tuple[int, ...]:
    """The seats a window decides for at this table (none when watching)."""
    seat = table.my_seat
    return () if seat is None or role == "watch" else (seat,)


class TableOffers:
    def __init__(self, table: NetTable, role: str, mark: PlanMark) -> None:
        self.table = table
        self.role = role
        self.mark = mark
        self.chat_lines: list[ChatLine] = []    # lines from others, oldest first
        self._echoes: list[str] = []            # my sent lines (the table may echo them back)
        self._sending: str | None = None        # the line being sent (a seatless guest's echo)
        self._countdown: Callable[[], Any] | None = getattr(table, "takeover_countdown", None)
        self._overdue: Callable[[], list[int]] | None = getattr(table, "overdue_seats", None)
        self._hand_over: Callable[[int], None] | None = getattr(table, "hand_seat_to_bot", None)
        self._send: Callable[[str], None] | None = getattr(table, "send_chat", None)
        self._unlock: Callable[[], None] | None = getattr(table, "unlock_plan", None)
        self._my_plan: Callable[[], SubmitPlan | None] | None = getattr(table, "my_plan", None)
        self._set_bot_level: Callable[[int, str], None] | None = getattr(table, "set_bot_level", None)
        # where the table listens ("" any interface, "127.0.0.1" tests): the lobby asks the
        # router for a port mapping unless it is loopback; None for a table without options
        self.interface: str | None = getattr(getattr(table, "opts", None), "interface", None)

    @property
    def my_seats(self) -> tuple[int, ...]:
        return seats_at(self.table, self.role)

    def takeover_countdown(self) -> dict[int, float]:
        """{seat: seconds left} before a bot takes each offline seat."""
        try:
            return {int(s): float(t) for s, t in (self._countdown() or {}).items()} \
                if self._countdown else {}
        except Exception:
            return {}

    def overdue_seats(self) -> list[int]:
        """Seats in the take-over countdown that are still connected but ran out of time."""
        try:
            return [int(s) for s in (self._overdue() or [])] if self._overdue else []
        except Exception:
            return []

    @property
    def can_hand_over(self) -> bool:
        return self.role == "host" and callable(self._hand_over)

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only; a refusal raises ValueError with a sentence for the player."""
        if self._hand_over is None:
            raise ValueError(_("This table cannot hand a seat to a bot."))
        self._hand_over(seat)

    @property
    def can_chat(self) -> bool:
        return callable(self._send)

    def send_chat(self, text: str) -> None:
        if self._send is None:
            raise ValueError("this table has no chat")
        # noted before sending: a table gives the sender its own line at once, from inside
        # this call (net/table/chat.py), and the window has already shown it
        self._echoes.append(text.strip())
        self._sending = text.strip()
        try:
            self._send(text)
        except Exception:
            self._echoes.remove(text.strip())
            raise
        finally:
            self._sending = None

    def chat_received(self, line: ChatLine) -> None:
        """A line from the table; my own line coming back is already shown."""
        text = str(line.text)
        mine = text == self._sending or (line.seat is not None and line.seat in self.my_seats)
        if mine and text in self._echoes:
            self._echoes.remove(text)
            return
        self.chat_lines.append(line)

    @property
    def can_set_bot_level(self) -> bool:
        return callable(self._set_bot_level)

    def set_bot_level(self, seat: int, level: str) -> None:
        """Host only; a refusal raises ValueError with net's sentence."""
        if self._set_bot_level is None:
            raise ValueError("this table has no bot levels")
        self._set_bot_level(seat, level)

    @property
    def can_unlock(self) -> bool:
        return callable(self._unlock)

    def plan_unlockable(self) -> bool:
        """My plan is in and not every plan is: it may be taken back (if the table agrees)."""
        if not (self.can_unlock and self.mark.started and (self.mark.submitted_at is not None or any(
                self.my_plan(s) for s in self.my_seats))):     # locked before a resume too
            return False
        d = self.table.decision
        waiting = self.table.waiting_for() or []
        return d is not None and d.kind == DecisionKind.PLAN and bool(waiting) \
            and not any(s in waiting for s in self.my_seats)

    def my_plan(self, seat: int) -> SubmitPlan | None:
        """My locked plan of this round, from the table (its state holds turned cards only)."""
        return self._my_plan() if self._my_plan is not None and seat in self.my_seats else None

    def unlock_plan(self) -> None:
        """Take my plan back; a refusal raises ValueError with a sentence to show."""
        if self._unlock is None:
            raise ValueError(_("This table cannot unlock a plan."))
        self._unlock()
        self.mark.submitted_at = None
