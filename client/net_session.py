"""A network table (`net.session.TableSession`) seen through the scene's session interface
(see `client/session.py`). The Twisted reactor is driven from Arcade's clock here, in
`net_pump` — the only place the client touches the reactor; it never blocks."""

from __future__ import annotations

import getpass
from collections import deque

_reactor_started = False


def _reactor():
    global _reactor_started
    from twisted.internet import reactor
    if not _reactor_started:
        _reactor_started = True
        try:
            reactor.startRunning(installSignalHandlers=False)
        except Exception:
            pass
    return reactor


class NetSession:
    kind = "net"

    def __init__(self, table, role: str) -> None:
        self.table = table
        self.role = role
        self.queue: deque = deque()
        self.config = None
        self.status = "Connecting…" if role != "host" else "Waiting for players to join"
        self.started = False
        self.ended = False
        self.refused: str | None = None
        self.lobby: dict = dict(getattr(table, "lobby", {}) or {})
        self.batches = 0
        self._submitted_at = None
        self.messages: list[str] = []
        table.on_lobby_changed = self._lobby
        table.on_started = self._started
        table.on_events = self._events
        table.on_paused = lambda reason: self._status(f"Paused: {reason}")
        table.on_resumed = lambda: self._status("")
        table.on_desync = lambda report: self._status(
            f"Desync at step {report.get('step')} — report written; recovering")
        table.on_refused = self._refused
        table.on_error = lambda message: self.messages.append(str(message))
        table.on_ended = lambda state: setattr(self, "ended", True)
        if self.lobby:
            self._lobby(self.lobby)

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, command: str, opts: dict) -> "NetSession":
        from net.session import SessionOptions, TableSession
        reactor = _reactor()
        try:
            name = getpass.getuser()
        except Exception:
            name = "player"
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
            raise ValueError("give a table address (HOST:PORT), or pick one from the LAN list")
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
            self.status = (f"Lobby: {open_seats} open seat(s)" if open_seats
                           else ("Everyone is here — start the game" if self.role == "host"
                                 else "Everyone is here — waiting for the host to start"))

    def _started(self, config, my_seat, state) -> None:
        self.config = config
        self.started = True
        self.status = ""

    def _events(self, events, state) -> None:
        self.batches += 1
        self.queue.append((list(events), state))

    def _refused(self, reason: str) -> None:
        self.refused = reason
        self.status = f"Refused: {reason}"

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
                from client.theme import seat_name
                self.status = ""  # shown by the scene's info panel
                self.waiting_text = "Waiting for " + ", ".join(seat_name(s) for s in waiting)

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
        out = {}
        for s in self.lobby.get("seats", []):
            out[s["seat"]] = ("you" if s["seat"] in self.my_seats else
                              (s.get("name") or s["kind"]))
        return out

    def close(self) -> None:
        try:
            self.table.close()
        except Exception:
            pass
        self.net_pump()
