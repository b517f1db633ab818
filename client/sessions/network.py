"""A network table (`net.table.session.TableSession`) seen through the scene's session interface
(see `client/sessions/local.py`). The Twisted reactor is driven from Arcade's clock here, in
`net_pump` — the only place the client touches the reactor; it never blocks."""

from __future__ import annotations

from collections import deque

from client.words.net_words import for_players as net_said
from lang.i18n import _, ngettext

_reactor_started = False


def _reactor():
    """The global reactor, started once and then driven by `net_pump` on every frame.
    It is never stopped, so its thread pool (port mapping, name lookups) gets daemon
    threads: a closed window must end the program, not wait for idle pool threads."""
    global _reactor_started
    from twisted.internet import reactor
    if not _reactor_started:
        _reactor_started = True
        import functools
        import threading
        reactor.getThreadPool().threadFactory = functools.partial(threading.Thread, daemon=True)
        try:
            reactor.startRunning(installSignalHandlers=False)
        except Exception:
            pass
    return reactor


class TableComfortsMixin:
    """What a network table offers beyond the game (net helpers add these to
    `net.table.session.TableSession`; each is looked up with getattr so the window works
    before they exist): the take-over countdown, handing a seat to a bot, chat, and
    unlocking a plan before every plan is in."""

    def takeover_countdown(self) -> dict[int, float]:
        """{seat: seconds left} before a bot takes each offline seat."""
        fn = getattr(self.table, "takeover_countdown", None)
        try:
            return {int(s): float(t) for s, t in (fn() or {}).items()} if fn else {}
        except Exception:
            return {}

    @property
    def can_hand_over(self) -> bool:
        return self.role == "host" and callable(getattr(self.table, "hand_seat_to_bot", None))

    def hand_seat_to_bot(self, seat: int) -> None:
        """Host only; a refusal raises ValueError with a sentence for the player."""
        fn = getattr(self.table, "hand_seat_to_bot", None)
        if fn is None:
            raise ValueError(_("This table cannot hand a seat to a bot."))
        fn(seat)

    @property
    def can_chat(self) -> bool:
        return callable(getattr(self.table, "send_chat", None))

    def send_chat(self, text: str) -> None:
        self.table.send_chat(text)
        self._echoes.append(text)

    def _chat(self, line) -> None:
        """A `net.table.chat.ChatLine(sender, seat, text)` from the table."""
        text = str(getattr(line, "text", ""))
        seat = getattr(line, "seat", None)
        if seat is not None and seat in self.my_seats and text in self._echoes:
            self._echoes.remove(text)       # my own line coming back: already shown
            return
        self.chat_lines.append(line)

    @property
    def can_unlock(self) -> bool:
        return callable(getattr(self.table, "unlock_plan", None))

    def plan_unlockable(self) -> bool:
        """My plan is in and not every plan is: it may be taken back (if the table agrees)."""
        if not (self.can_unlock and self.started and (self._submitted_at is not None or any(
                self.my_plan(s) for s in self.my_seats))):     # locked before a resume too
            return False
        d = self.table.decision
        waiting = self.table.waiting_for() or []
        return d is not None and d.kind == "plan" and bool(waiting) \
            and not any(s in waiting for s in self.my_seats)

    def my_plan(self, seat: int):
        """My locked plan of this round, from the table (its state holds turned cards only)."""
        fn = getattr(self.table, "my_plan", None)
        return fn() if fn is not None and seat in self.my_seats else None

    def unlock_plan(self) -> None:
        """Take my plan back; a refusal raises ValueError with a sentence to show."""
        fn = getattr(self.table, "unlock_plan", None)
        if fn is None:
            raise ValueError(_("This table cannot unlock a plan."))
        fn()
        self._submitted_at = None


class NetSession(TableComfortsMixin):
    kind = "net"

    def __init__(self, table, role: str) -> None:
        self.table = table
        self.role = role
        self.queue: deque = deque()
        self.config = None
        self.status = _("Connecting…") if role != "host" else _("Waiting for players to join")
        self.started = False
        self.ended = False
        self.refused: str | None = None
        self.lobby: dict = dict(getattr(table, "lobby", {}) or {})
        self.batches = 0
        self._submitted_at = None
        self.messages: list[str] = []
        self.chat_lines: list = []        # ChatLine records from others, oldest first
        self._echoes: list[str] = []      # my sent lines (the table may echo them back)
        table.on_chat_received = self._chat
        table.on_lobby_changed = self._lobby
        table.on_started = self._started
        table.on_events = self._events
        table.on_paused = lambda reason: self._status(_("Paused: {reason}").format(reason=net_said(reason)))
        table.on_resumed = lambda: self._status("")
        table.on_desync = lambda report: self._status(
            _("Desync at step {step} — report written; recovering").format(step=report.get("step")))
        table.on_refused = self._refused
        table.on_error = lambda message: self.messages.append(str(message))
        table.on_ended = lambda state: setattr(self, "ended", True)
        if self.lobby:
            self._lobby(self.lobby)

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, command: str, opts: dict) -> "NetSession":
        from net.table.session import SessionOptions, TableSession
        reactor = _reactor()
        # the name the player chose in the settings (never the computer's user name)
        name = (opts.get("name") or "").strip() or "Player"
        so = SessionOptions(name=name, code=opts.get("code"),
                            rejoin_timeout=float(opts.get("rejoin_timeout") or 120.0),
                            save_path=opts.get("save"))
        if opts.get("resume"):
            return cls(TableSession.resume(so, opts["resume"], reactor=reactor), "resume")
        if command == "host":
            bots = opts.get("bots", 0)
            if isinstance(bots, dict):
                bots = len(bots)
            port = opts.get("port")
            t = TableSession.host(so, port=7531 if port is None else int(port),
                                  players=int(opts.get("players", 4)), side=opts.get("side", "sun"),
                                  setup=opts.get("setup", "beginner"), bots=int(bots or 0),
                                  reactor=reactor)
            return cls(t, "host")
        address = opts.get("address")
        if not address:
            raise ValueError(_("Give a table address (HOST:PORT), or pick one from the LAN list."))
        if command == "join":
            return cls(TableSession.join(so, address, code=opts.get("code"), reactor=reactor), "join")
        return cls(TableSession.watch(so, address, code=opts.get("code"), reactor=reactor), "watch")

    # -- callbacks from the table (reactor thread = our thread) ------------------------------
    def _status(self, text: str) -> None:
        self.status = text

    def _lobby(self, lobby: dict) -> None:
        self.lobby = dict(lobby)
        if not self.started:
            open_seats = sum(1 for s in lobby.get("seats", []) if s["kind"] == "open")
            self.status = (ngettext("Lobby: {n} open seat", "Lobby: {n} open seats", open_seats).format(
                               n=open_seats) if open_seats
                           else (_("Everyone is here — start the game") if self.role == "host"
                                 else _("Everyone is here — waiting for the host to start")))

    def _started(self, config, my_seat, state) -> None:
        self.config = config
        self.started = True
        self.status = ""

    def _events(self, events, state) -> None:
        self.batches += 1
        self.queue.append((list(events), state))

    def _refused(self, reason: str) -> None:
        self.refused = reason            # net's words (another peer's, maybe): said again when shown
        self.status = _("Refused: {reason}").format(reason=net_said(reason))

    # -- the scene's interface ---------------------------------------------------------------
    @property
    def state(self):
        return self.table.state

    @property
    def my_seats(self) -> tuple:
        seat = getattr(self.table, "my_seat", None)
        return () if seat is None or self.role == "watch" else (seat,)

    @property
    def decision(self):
        return self.table.decision

    @property
    def commands(self) -> list:
        return [None] * self.batches

    def step_key(self) -> int:
        return self.batches

    def waiting_for_me(self) -> bool:
        d = self.table.decision if self.started else None
        if d is None or d.kind in ("chance", "over") or self._submitted_at == self.batches:
            return False
        return any(s in self.my_seats for s in d.seats)

    def tick(self) -> None:
        if self.started and not self.status:
            waiting = self.table.waiting_for()
            if waiting and not self.waiting_for_me():
                from client.core.theme import seat_name
                self.status = ""  # shown by the scene's info panel
                self.waiting_text = _("Waiting for {who}").format(who=", ".join(seat_name(s) for s in waiting))

    def pump(self) -> bool:
        return False

    def submit(self, cmd) -> None:
        before = self._submitted_at
        self._submitted_at = self.batches      # set first: events may arrive during submit
        try:
            self.table.submit(cmd)
        except Exception:
            self._submitted_at = before
            raise

    def net_pump(self) -> None:
        reactor = _reactor()
        try:
            reactor.runUntilCurrent()
            reactor.doIteration(0)
        except Exception as exc:   # a network fault must not take the window down
            self.messages.append(f"network: {exc}")

    def labels(self) -> dict:
        """{seat: "Aiko (Blue)" / "Bot (Orange)" / "Blue"} from the lobby's seats."""
        from client.words.table_names import lobby_titles
        return lobby_titles(self.lobby, self.my_seats)

    def names(self) -> dict:
        """{seat: chosen name} of the people at the table (for log lines)."""
        return {int(s["seat"]): s.get("name") or "" for s in self.lobby.get("seats", [])
                if s.get("kind") == "human" and s.get("name") and s.get("name") != "Player"}

    def close(self) -> None:
        try:
            self.table.close()
        except Exception:
            pass
        self.net_pump()
