"""A correspondence table played in the window (issue 51), seen through the scene's session
interface (`client/sessions/interface.py`).

Why a `FolderLink` of its own: the folder link (`net.correspondence.folder_link`) is the
lockstep's host and plays the game as far as the folder allows; the window only needs to
see its events. `WindowLink` queues them as batches; the events of the steps played again
when the table opens ride on one `Resumed` record (the log says them at once). My own
decisions are not chosen by the link (no chooser): the scene asks me, `submit` hands the
command to the lockstep and the link writes it to my seat file at once (`session`). The
folder is read again every two seconds on the window's clock (`FolderWatch` on the
reactor driven by `net_pump`), so another player's move appears within seconds. Closing
the window loses nothing: every session writes what it took before it returns.

Tests: tests/client/scenes/test_correspondence_window.py.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, cast

from client.sessions.interface import Batch, Played, Resumed
from client.sessions.reactor_pump import pump_reactor, window_reactor
from client.words.correspondence_words import describe
from client.words.net_words import for_players
from client.words.table_names import seat_title
from lang.i18n import _
from lang.names import readable_name
from net.correspondence import my_tables
from net.correspondence.folder_link import FolderLink
from net.correspondence.folder_watch import FolderWatch
from net.correspondence.my_tables import MyTable
from net.correspondence.table_door import DoorError
from net.correspondence.table_entry import host_new, join_new
from net.correspondence.table_list import OpenTable, Stage, TableStatus, open_link, visit
from net.correspondence.table_start import CodeError, TableCode
from net.trust.seat_keys import SeatKey
from net.lockstep.engine import EngineEvent, EngineState, SimEngine
from sim import events as ev
from sim.state import DecisionKind

if TYPE_CHECKING:
    from sim.commands import Command, SubmitPlan
    from sim.state import Decision, GameConfig, State


class WindowLink(FolderLink):
    """A folder link that keeps the game's events for the window (`batches`)."""

    batches: deque[Batch] | None = None      # set once the table has opened
    past: list[ev.Event] | None = None

    def events_happened(self, events: list[EngineEvent], state: EngineState) -> None:
        if self.batches is not None:
            self.batches.append(Batch(list(events), state))
        else:
            if self.past is None:
                self.past = []
            self.past.extend(events)


class NotPlaying(Exception):
    """The table cannot be played now; the message is the list's sentence for it."""


class CorrespondenceSession:
    """My seat at a correspondence table, played in the window."""

    runs_in_window = False        # the folder's lockstep drives the engine, not the window
    thinking = None
    thinking_since = 0.0
    study = None
    table_offers = None

    def __init__(self, opened: OpenTable, status: TableStatus) -> None:
        self.opened = opened
        self.link = opened.link
        self.table_status = status
        self.status = ""
        self.waiting_text = ""
        self.messages: list[str] = []
        self.queue: deque[Batch] = deque()
        link = self.link
        assert isinstance(link, WindowLink)
        ls = link.lockstep
        past: list[ev.Event] = [e for e in link.past or () if e["event"] != "GameEnded"]
        resumed: Resumed = {"event": "Resumed", "past": past}
        tail: list[Played] = [e for e in link.past or () if e["event"] == "GameEnded"]
        self.queue.append(Batch([resumed, *tail], ls.state if ls is not None else None))
        link.batches = self.queue
        self.watch = FolderWatch(link, window_reactor(), moved=self._moved)
        self.watch.start()

    @classmethod
    def open(cls, table: MyTable) -> "CorrespondenceSession":
        """Visit `table` and keep it open; `NotPlaying` when no game runs there yet (or it
        cannot: the sentence says why), or while the players' chains are awaited."""
        status, opened = open_link(table, SimEngine(), None, WindowLink)
        if opened is None or opened.link.lockstep is None:
            if opened is not None:
                opened.release()
            raise NotPlaying(describe(status))
        return cls(opened, status)

    def _moved(self, step: int) -> None:
        self.table_status = self.opened.status(self.over)

    @property
    def over(self) -> bool:
        ls = self.link.lockstep
        return ls is not None and ls.ended

    # -- the scene's interface ------------------------------------------------------------
    @property
    def config(self) -> GameConfig:
        config: GameConfig = self.link.table.config
        return config

    @property
    def state(self) -> State | None:
        ls = self.link.lockstep
        state: State | None = ls.state if ls is not None else None
        return state

    @property
    def decision(self) -> Decision | None:
        ls = self.link.lockstep
        return cast("Decision", ls.decision()) if ls is not None else None

    @property
    def my_seats(self) -> tuple[int, ...]:
        return (self.link.seat,)

    @property
    def bot_levels(self) -> dict[int, str]:
        return {}

    @property
    def commands(self) -> list[None]:
        ls = self.link.lockstep
        return [None] * (ls.step if ls is not None else 0)

    def step_key(self) -> int:
        ls = self.link.lockstep
        return ls.step if ls is not None else 0

    def waiting_for_me(self) -> bool:
        ls = self.link.lockstep
        if ls is None or ls.ended:
            return False
        d = ls.decision()
        return d.kind not in (DecisionKind.CHANCE, DecisionKind.OVER) \
            and self.link.seat in d.seats and self.link.seat in ls.waiting_for()

    def my_plan(self, seat: int) -> SubmitPlan | None:
        """My locked plan of this round (the lockstep's state holds turned cards only)."""
        ls = self.link.lockstep
        plan: SubmitPlan | None = ls.my_plan() if ls is not None and seat == self.link.seat \
            else None
        return plan

    def tick(self) -> None:
        status = self.table_status
        if status.stage is Stage.PLAYING and status.awaited and not self.waiting_for_me():
            self.waiting_text = _("Waiting for {who}").format(who=", ".join(status.awaited))
        else:
            self.waiting_text = ""

    def pump(self, wait: float | None = None) -> bool:
        return False

    def net_pump(self) -> None:
        """Once a frame: the watch's clock (the reactor) runs what is due."""
        pump_reactor(self.messages)

    def submit(self, cmd: Command) -> None:
        """My decision: to the lockstep, then written to my seat file at once (and the
        game played on as far as the folder allows)."""
        ls = self.link.lockstep
        if ls is None:
            raise ValueError("the table is not playing yet")
        ls.submit(cmd)
        over = self.link.session()
        self.table_status = self.opened.status(over)

    def labels(self) -> dict[int, str]:
        names = self.opened.names
        return {s: seat_title(s, self.link.table.kinds.get(s, "bot"), names.get(s, ""),
                              me=s == self.link.seat)
                for s in range(self.config.players)}

    def names(self) -> dict[int, str]:
        return dict(self.opened.names)

    def close(self) -> None:
        """Nothing to write: each reading of the folder wrote what it took."""
        self.watch.stop()
        self.opened.release()



def table_list() -> tuple[list[TableStatus], list[str]]:
    """Every table kept on this machine, visited (played on as far as the folder allows,
    my own decisions left for the window), and a sentence for each entry not read."""
    kept, problems = my_tables.my_tables()
    engine = SimEngine()
    return [visit(t, engine) for t in kept], problems


def hand_seat(table: MyTable, seat: int) -> TableStatus:
    """My agreement that a bot plays `seat`, whose decision waited past the turn timer:
    written into my seat file by the same visit as `./shogun takeover` (`visit(hand=...)`);
    the status says what came of it (`hand_over`, `hand_needed`, `handed`)."""
    return visit(table, SimEngine(), hand=seat)


def host_here(folder: str, name: str, players: int) -> MyTable:
    """A new table in `folder` (everyone else's seats: people who join with the code);
    `NotPlaying` with the sentence when the door refuses."""
    if not folder.strip():
        raise NotPlaying(_("Type the path of the shared folder first."))
    key = SeatKey(None)
    try:
        return host_new(Path(folder.strip()).expanduser(), name.strip()[:40]
                        or readable_name(key.public[0]), players, "sun", "beginner", 0,
                        "normal", key)
    except (DoorError, OSError) as e:
        raise NotPlaying(_("Could not host: {reason}").format(
            reason=for_players(str(e)))) from None


def join_here(folder: str, code_text: str, name: str) -> MyTable:
    """Claim a seat at the table of `code_text` in `folder` (the entry kept here if this
    machine has it already); `NotPlaying` with the sentence when the code or door refuses."""
    if not folder.strip() or not code_text.strip():
        raise NotPlaying(_("Type the path of the shared folder and the table's code."))
    try:
        code = TableCode.parse(code_text.strip())
    except CodeError as e:
        raise NotPlaying(_("Could not join: {reason}").format(
            reason=for_players(str(e)))) from None
    path = Path(folder.strip()).expanduser()
    kept = my_tables.find(code.table)
    if kept is not None:
        if kept.folder.resolve() != path.resolve():      # the shared folder moved here
            kept = MyTable(path, kept.code, kept.seed, kept.name, kept.host)
            my_tables.remember(kept)
        return kept
    key = SeatKey(None)
    try:
        return join_new(path, code, name.strip()[:40] or readable_name(key.public[0]), key)[0]
    except (DoorError, OSError) as e:
        raise NotPlaying(_("Could not join: {reason}").format(
            reason=for_players(str(e)))) from None
