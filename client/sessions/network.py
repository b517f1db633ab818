"""A network table (`net.table.session.TableSession`) seen through the scene's session interface
(`client/sessions/interface.py`); its comforts (countdown, hand-over, chat, plan unlock) are
its part `TableOffers`. The Twisted reactor is driven from Arcade's clock here, in
`net_pump` (`client.sessions.reactor_pump`); it never blocks.

Tests: tests/client/sessions/test_net_window.py, tests/client/game/test_net_comforts.py,
tests/client/core/test_reactor_threads.py, tests/client/sessions/test_watch_window.py.
"""

from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Mapping

from client.core.theme import seat_name
from client.sessions.by_code import close_arrival
from client.sessions.interface import Batch, viewed_batch
from client.sessions.reactor_pump import pump_reactor, window_reactor
from client.sessions.table_offers import NetTable, PlanMark, TableOffers, seats_at
from client.words.net_words import for_players as net_said
from client.words.table_names import lobby_titles
from lang.i18n import _, ngettext
from lang.names import readable_name
from net.table.before_start.lobby_record import LobbySeat, StartInfo, TableLobby
from net.table.options import TableOptions
from net.table.session import SessionOptions, TableSession
from sim import events as ev
from sim.commands import from_wire
from sim.state import DecisionKind

if TYPE_CHECKING:
    from net.table.chat import ChatLine
    from sim.commands import Command, SubmitPlan
    from sim.state import Decision, GameConfig, State

class NetSession:
    """A seat (or a spectator's chair) at a network table: the table's callbacks queue
    event batches and words for the scene."""

    runs_in_window = False        # the peers' lockstep drives the engine, not the window
    thinking = None
    thinking_since = 0.0
    study = None

    def __init__(self, table: NetTable, role: str) -> None:
        self.table = table
        self.role = role
        self.queue: deque[Batch] = deque()
        self._config: GameConfig | None = None
        self.status = _("Connecting…") if role != "host" else _("Waiting for players to join")
        self.waiting_text = ""
        self.ended = False
        self.refused: str | None = None
        self.lobby = TableLobby.from_wire(table.lobby)
        self.batches = 0
        self.mark = PlanMark()
        self.offers = TableOffers(table, role, self.mark)
        self.port_mapper: Any = None      # the lobby's router mapping, closed with the table
        self.invitations: Any = None      # the host's code for friends anywhere (issue 39)
        self.arrival: Any = None          # joined by code: how, and the relay's tunnel
        self.table_options: TableOptions | None = None    # as opened (the lobby's rendezvous)
        self.messages: list[str] = []
        self._shown_state: State | None = None          # the state the last batch led to
        self._step_commands: list[Command] | None = None  # the commands of the step applied
        if self.lobby:
            self.lobby_changed(table.lobby)

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, options: TableOptions) -> "NetSession":
        """Open, join or watch a table as the options say (`options.name`: the name the
        player chose in the settings, never the computer's user name). The session is the
        table's owner (`net.table.shared.TableOwner`), built as the table opens."""
        made: list[NetSession] = []

        def owner(role: str) -> Callable[[TableSession], NetSession]:
            def build(table: TableSession) -> NetSession:
                made.append(cls(table, role))
                return made[-1]
            return build
        reactor = window_reactor()
        so = SessionOptions(name=options.name.strip() or readable_name(os.getpid()),
                            code=options.code, rejoin_timeout=options.rejoin_timeout,
                            turn_time=options.turn_time, save_path=options.save)
        if options.resume:
            TableSession.resume(so, options.resume, reactor=reactor, owner=owner("resume"))
            return made[0]
        if options.command == "host":
            TableSession.host(so, port=options.port, players=options.players, side=options.side,
                              setup=options.setup, bots=options.bots, reactor=reactor,
                              owner=owner("host"))
            made[0].table_options = options
            return made[0]
        if not options.address:
            raise ValueError(_("Give a table address (HOST:PORT), or pick one from the LAN list."))
        if options.command == "join":
            TableSession.join(so, options.address, code=options.code, reactor=reactor,
                              owner=owner("join"))
        else:
            TableSession.watch(so, options.address, code=options.code, reactor=reactor,
                               owner=owner("watch"))
        return made[0]

    # -- what the table says (`TableOwner`; reactor thread = our thread) ----------------------
    def _status(self, text: str) -> None:
        self.status = text

    def on_paused(self, reason: str) -> None:
        """Said in the status line while it lasts, and kept in the log panel with the
        news that ends it ("… is back")."""
        self._status(_("Paused: {reason}").format(reason=net_said(reason)))
        self.offers.notices.append(reason)

    def lobby_changed(self, lobby: Mapping[str, Any]) -> None:
        """The table's lobby changed: keep it (read once, as a record) and say how many
        seats are open."""
        self.lobby = TableLobby.from_wire(lobby)
        if not self.started:
            open_seats = self.lobby.open_seats()
            self.status = (ngettext("Lobby: {n} open seat", "Lobby: {n} open seats", open_seats).format(
                               n=open_seats) if open_seats
                           else (_("Everyone is here — start the game") if self.role == "host"
                                 else _("Everyone is here — waiting for the host to start")))
            if self.role == "watch":
                self.status = _("Watching: waiting for the host to start")

    def game_started(self, config: GameConfig, my_seat: int | None, state: State) -> None:
        """The table started (or resumed) the game."""
        self._config = config
        self.mark.started = True
        self.status = ""

    def on_step_applied(self, entry: dict[str, Any]) -> None:
        """A step's log entry: its commands, to play it again with the views (`_events`)."""
        self._step_commands = [from_wire(c) for c in entry.get("commands") or ()]

    def on_events(self, events: list[ev.Event], state: State) -> None:
        """A batch from the table; the step is played again here from the state the last
        batch led to, for the engine's view after each event (net's own apply and its
        consensus are untouched; `viewed_batch` drops the views if the replay differs)."""
        self.batches += 1
        before, commands = self._shown_state, self._step_commands
        self._shown_state, self._step_commands = state, None
        if before is not None and commands is not None:
            self.queue.append(viewed_batch(before, commands, list(events), state))
        else:
            self.queue.append(Batch(list(events), state))

    def on_refused(self, reason: str) -> None:
        """Net refused me: before the start the lobby says why; in the game it ends the
        session, and the status line says so in short (the reason, long, is for the
        game scene's card: `TableOffers.ended_why`)."""
        self.refused = reason            # net's words (another peer's, maybe): said again when shown
        if self.started:
            self.offers.ended_why = reason
            self.status = _("The game ended for you")
        else:
            self.status = _("Refused: {reason}").format(reason=net_said(reason))

    def on_lobby_changed(self, lobby: Mapping[str, Any]) -> None:
        self.lobby_changed(lobby)

    def on_started(self, config: GameConfig, my_seat: int | None, state: State) -> None:
        self.game_started(config, my_seat, state)

    def on_decision(self, decision: object, state: object) -> None:
        """(the window asks the table for its decision when it draws)"""

    def on_resumed(self) -> None:
        self._status("")

    def on_notice(self, news: str) -> None:
        self.offers.notices.append(news)

    def on_desync(self, report: dict[str, Any]) -> None:
        self._status(_("Desync at step {step} — report written; recovering").format(
            step=report.get("step")))

    def on_error(self, message: str) -> None:
        self.messages.append(str(message))

    def on_ended(self, state: object) -> None:
        self.ended = True

    def on_chat_received(self, line: ChatLine) -> None:
        self.offers.chat_received(line)

    def on_broadcast(self, msg: dict[str, Any]) -> None:
        """(statistics only: the headless runner's)"""

    # -- the scene's interface ---------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.mark.started

    @property
    def config(self) -> GameConfig:
        if self._config is None:
            raise ValueError("the table has not started a game yet")
        return self._config

    @property
    def state(self) -> State | None:
        state: State | None = self.table.state
        return state

    @property
    def my_seats(self) -> tuple[int, ...]:
        return seats_at(self.table, self.role)

    @property
    def decision(self) -> Decision | None:
        return self.table.decision

    @property
    def bot_levels(self) -> dict[int, str]:
        return {}

    @property
    def table_offers(self) -> TableOffers:
        return self.offers

    @property
    def commands(self) -> list[None]:
        return [None] * self.batches

    def step_key(self) -> int:
        return self.batches

    def waiting_for_me(self) -> bool:
        d = self.table.decision if self.started else None
        if d is None or d.kind in (DecisionKind.CHANCE, DecisionKind.OVER) or self.mark.submitted_at == self.batches:
            return False
        return any(s in self.my_seats for s in d.seats)

    def tick(self) -> None:
        if self.started and not self.status:
            waiting = self.table.waiting_for()
            # each awaited input's deadline, shown to everyone (issue 26 item 4)
            left = self.table.input_countdown()
            if waiting and not self.waiting_for_me():
                self.status = ""  # shown by the scene's info panel
                self.waiting_text = _("Waiting for {who}").format(who=", ".join(seat_name(s) for s in waiting))
                if left:
                    secs = int(max(left.values()) + 0.999)
                    self.waiting_text += " " + ngettext("({n} second left)", "({n} seconds left)",
                                                        secs).format(n=secs)
            elif waiting and any(s in left for s in self.my_seats):
                secs = int(max(left[s] for s in self.my_seats if s in left) + 0.999)
                self.waiting_text = ngettext(
                    "You have {n} second left to decide; then a bot may take your seat.",
                    "You have {n} seconds left to decide; then a bot may take your seat.",
                    secs).format(n=secs)
            elif not waiting:
                self.waiting_text = ""

    def pump(self, wait: float | None = None) -> bool:
        return False

    def submit(self, cmd: Command) -> None:
        before = self.mark.submitted_at
        self.mark.submitted_at = self.batches      # set first: events may arrive during submit
        try:
            self.table.submit(cmd)
        except Exception:
            self.mark.submitted_at = before
            raise

    def my_plan(self, seat: int) -> SubmitPlan | None:
        """My locked plan of this round, from the table (its state holds turned cards only)."""
        return self.offers.my_plan(seat)

    def net_pump(self) -> None:
        """Once a frame, and between the steps of long work (`client.core.beating`)."""
        pump_reactor(self.messages)

    def seats(self) -> tuple[LobbySeat, ...]:
        """The table's seats: the start record's once the game runs (it is what the game
        was started with, and a spectator who came late never saw the lobby), else the
        lobby's."""
        start = StartInfo.from_wire(self.table.start_info)
        return start.seats if start is not None and start.seats else self.lobby.seats

    def labels(self) -> dict[int, str]:
        """{seat: "Aiko (Blue)" / "Bot (Orange)" / "Blue"} from the table's seats."""
        return lobby_titles(self.seats(), self.my_seats)

    def names(self) -> dict[int, str]:
        """{seat: chosen name} of the people at the table (for log lines)."""
        return {s.seat: s.name for s in self.seats()
                if s.kind == "human" and s.name and s.name != "Player"}

    def watchers(self) -> list[str]:
        """The names of those watching the table (the host lists them in the lobby)."""
        return list(self.lobby.watchers)

    def close(self) -> None:
        if self.port_mapper is not None:       # the router keeps a mapping otherwise
            self.port_mapper.close()
            self.port_mapper = None
        if self.invitations is not None:
            self.invitations.close()
            self.invitations = None
        try:
            self.table.close()
        except Exception:
            pass
        if self.arrival is not None:          # after the table: its links go first
            close_arrival(self.arrival)
            self.arrival = None
        self.net_pump()
