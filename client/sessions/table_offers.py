"""What a network table offers beyond the game: the take-over countdown, handing a seat to
a bot, chat, and unlocking a plan before every plan is in.

`TableOffers` is the network session's part for these (the scene reaches it as
`session.table_offers`). The table's side of them is declared in `NetTable`, which
`net.table.session.TableSession` provides (mypy checks it where the window opens one) and
the tests' and screenshot tool's stand-in tables copy.

Tests: tests/client/game/test_net_comforts.py, tests/client/sessions/test_net_window.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from lang.i18n import _
from sim.state import DecisionKind

if TYPE_CHECKING:
    from sim import events as ev
    from sim.commands import SubmitPlan
    from sim.state import Decision, GameConfig, State


class ChatLine(Protocol):
    """The shape of `net.table.chat.ChatLine`."""

    @property
    def sender(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def text(self) -> str: ...


def _unset(*args: object) -> None:
    return None


class TableCallbacks(Protocol):
    """The callback slots a `NetSession` fills in (a stand-in table in the tests or the
    screenshot tool subclasses this to have them; `TableSession` declares its own)."""

    on_chat_received: Callable[[Any], None] = _unset
    on_lobby_changed: Callable[[dict[str, Any]], None] = _unset
    on_started: Callable[[GameConfig, int | None, State], None] = _unset
    on_events: Callable[[list[ev.Event], State], None] = _unset
    on_paused: Callable[[str], None] = _unset
    on_resumed: Callable[[], None] = _unset
    on_notice: Callable[[str], None] = _unset
    on_desync: Callable[[dict[str, Any]], None] = _unset
    on_refused: Callable[[str], None] = _unset
    on_error: Callable[[str], None] = _unset
    on_ended: Callable[[State], None] = _unset
    on_step_applied: Callable[[dict[str, Any]], None] = _unset


class ListenOptions(Protocol):
    @property
    def interface(self) -> str: ...


class NetTable(TableCallbacks, Protocol):
    """What the client uses of `net.table.session.TableSession`."""

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

    # what the table offers beyond the game (below, `TableOffers`)
    @property
    def opts(self) -> ListenOptions: ...

    @property
    def start_info(self) -> dict[str, Any] | None: ...

    def input_countdown(self) -> dict[int, float]: ...

    def takeover_countdown(self) -> dict[int, float]: ...

    def overdue_seats(self) -> list[int]: ...

    def hand_seat_to_bot(self, seat: int) -> None: ...

    def send_chat(self, text: str) -> None: ...

    def unlock_plan(self) -> None: ...

    def my_plan(self) -> SubmitPlan | None: ...

    def set_bot_level(self, seat: int, level: str) -> None: ...


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
        # the table's news, in net's words, oldest first: a player dropped, is back (the
        # status line shows a pause only while it lasts; the log panel keeps them)
        self.notices: list[str] = []
        self._echoes: list[str] = []            # my sent lines (the table may echo them back)
        self._sending: str | None = None        # the line being sent (a seatless guest's echo)
        # why the table ended for me in the game (net's words: cut off, seat given to a
        # bot, no player left to watch); the scene shows it whole on a card
        self.ended_why: str | None = None

    @property
    def interface(self) -> str:
        """Where the table listens ("" any interface, "127.0.0.1" tests): the lobby asks
        the router for a port mapping unless it is loopback."""
        return self.table.opts.interface

    @property
    def my_seats(self) -> tuple[int, ...]:
        return seats_at(self.table, self.role)

    def takeover_countdown(self) -> dict[int, float]:
        """{seat: seconds left} before a bot takes each offline seat."""
        try:
            return {int(s): float(t) for s, t in (self.table.takeover_countdown() or {}).items()}
        except Exception:       # the pause panel must not fall over a table's hiccup
            return {}

    def overdue_seats(self) -> list[int]:
        """Seats in the take-over countdown that are still connected but ran out of time."""
        try:
            return [int(s) for s in (self.table.overdue_seats() or [])]
        except Exception:
            return []

    @property
    def can_hand_over(self) -> bool:
        return self.role == "host"

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only; a refusal raises ValueError with a sentence for the player."""
        self.table.hand_seat_to_bot(seat)

    def send_chat(self, text: str) -> None:
        # noted before sending: a table gives the sender its own line at once, from inside
        # this call (net/table/chat.py), and the window has already shown it
        self._echoes.append(text.strip())
        self._sending = text.strip()
        try:
            self.table.send_chat(text)
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

    def set_bot_level(self, seat: int, level: str) -> None:
        """Host only; a refusal raises ValueError with net's sentence."""
        self.table.set_bot_level(seat, level)

    def plan_unlockable(self) -> bool:
        """My plan is in and not every plan is: it may be taken back (if the table agrees)."""
        if not (self.mark.started and (self.mark.submitted_at is not None or any(
                self.my_plan(s) for s in self.my_seats))):     # locked before a resume too
            return False
        d = self.table.decision
        waiting = self.table.waiting_for() or []
        return d is not None and d.kind == DecisionKind.PLAN and bool(waiting) \
            and not any(s in waiting for s in self.my_seats)

    def my_plan(self, seat: int) -> SubmitPlan | None:
        """My locked plan of this round, from the table (its state holds turned cards only)."""
        return self.table.my_plan() if seat in self.my_seats else None

    def unlock_plan(self) -> None:
        """Take my plan back; a refusal raises ValueError with a sentence to show."""
        self.table.unlock_plan()
        self.mark.submitted_at = None
