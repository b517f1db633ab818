"""`main.py host|join|watch --headless`: a peer without a window, played by a bot.

Why a separate runner: it is the one place that owns the Twisted reactor (`reactor.run`);
the window drives the reactor from its own clock instead. A headless peer plays to the
end, prints the final state hash and the standings, and returns an exit code.

Environment (for tests and benchmarks): `SHOGUN_NET_INTERFACE` (listen interface, e.g.
127.0.0.1), `SHOGUN_NET_DISCOVERY=off` (no zeroconf), `SHOGUN_NET_STATS=FILE` (write
bytes sent and command round trips as JSON at the end), `SHOGUN_NET_VERBOSE=1`.

Tests: tests/cli/test_runner_options.py, tests/cli/test_runner_names.py, tests/net/table/test_loopback.py
(peers as processes).
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import sys
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING, Any, Callable, Protocol, cast

from twisted.internet.error import CannotListenError
from twisted.internet.threads import deferToThread

from cli import by_code
from cli.net_stats import GameStats, WaitLog
from client.words.net_words import for_players
from lang.i18n import _
from lang.names import readable_name
from net.lockstep.engine import SimEngine
from net.reach import discovery
from net.reach.internet import StartGate, announce, default_interface   # issue 16: IPv6, router mapping
from net.reach.addresses import parse_address
from net.reach.invitations import Invitations
from net.reach.reach_settings import ReachSettings
from net.reach.rendezvous import is_invite
from net.reach.table_choice import choose_table
from net.table.chat import ChatLine
from net.table.options import TableOptions
from net.table.session import OwnerOf, SessionOptions, TableSession
from net.trust.peer_text import log_in_one_line, shown
from sim import events as ev
from sim.bots import BOT_NAMES
from sim.commands import from_wire
from sim.game import apply, new_game, state_hash
from store.game_log import GameLog
from store.game_save import SaveWriter    # the replay file's writer, loaded before strangers come

if TYPE_CHECKING:
    from net.lockstep.core import Lockstep
    from net.transport.reactor_types import ShutdownReactor

    class HeadlessReactor(ShutdownReactor, Protocol):
        """Twisted's reactor as the runner drives it (cast: its interfaces are zope's)."""
        running: bool

        def run(self) -> None: ...

        def stop(self) -> None: ...

log = logging.getLogger("cli.runner")


@dataclass
class Outcome:
    """How this peer's run ends: its exit code, and the final hash once the game ended."""
    code: int = 1
    hash: str | None = None
    stopping: bool = False           # the reactor is being stopped


def _setup_logging() -> None:
    level = logging.INFO if os.environ.get("SHOGUN_NET_VERBOSE") else logging.WARNING
    # every log line one line of shown text: a peer's string in it is data (issue 47)
    log_in_one_line(level, "%(asctime)s %(name)s %(levelname)s %(message)s", sys.stderr)


def session_options(options: TableOptions, interface: str = "") -> SessionOptions:
    """The peer's options; its name is `--name`, or a readable given name (every log line
    and the lobby show it: "Kenji (Orange)", never "join-normal-28346")."""
    return SessionOptions(name=options.name or readable_name(os.getpid()), code=options.code,
                          rejoin_timeout=options.rejoin_timeout, save_path=options.save,
                          interface=interface, bot=options.bot, turn_time=options.turn_time)


def run(options: TableOptions, prepare: Callable[[TableSession], None] | None = None) -> int:
    """Play one headless peer to the end. `prepare(session)`, if given, is called once the
    runner has set its callbacks (test harnesses chain onto the session's public hooks)."""
    _setup_logging()
    # imported here: importing Twisted's reactor installs it, which only a peer that runs should do
    from twisted.internet import reactor as twisted_reactor
    if options.bot not in BOT_NAMES:
        print(_("error: there is no bot called {name}; choose from {names}").format(
            name=options.bot, names=", ".join(BOT_NAMES)), file=sys.stderr)
        return 2
    reactor = cast("HeadlessReactor", twisted_reactor)
    engine = SimEngine()
    interface = os.environ.get("SHOGUN_NET_INTERFACE") or default_interface()
    stats_path = os.environ.get("SHOGUN_NET_STATS")
    reach = ReachSettings.from_environment(os.environ)     # read once, here: net reads none
    # a code, also with --resume: a friend by code finds the table again through a new
    # tunnel (its old one died with its program; issue 39)
    invite = options.address if options.command == "join" else None
    try:                                                   # issue 39: friends anywhere
        rendezvous = by_code.options(options, interface, reach, needed=is_invite(invite))
    except ValueError as exc:
        print(_("error: {reason}").format(reason=for_players(str(exc))), file=sys.stderr)
        return 2
    out = Outcome()
    stats = GameStats(waits=WaitLog() if stats_path else None)
    peers: list[HeadlessPeer] = []
    invitations: list[Invitations] = []     # the host's codes for friends anywhere

    def stop() -> None:
        if reactor.running and not out.stopping:
            out.stopping = True
            reactor.stop()

    def own(session: TableSession) -> HeadlessPeer:
        """The table's owner, built as the table opens (`net.table.shared.TableOwner`)."""
        peer = HeadlessPeer(session, options, reactor, engine, stats, out,
                            on_finish=close_invitations, reach=reach)
        peers.append(peer)
        return peer

    def open_session(address: str | None, code: str | None) -> TableSession | int:
        """The table session (host, join, watch, resume), or the exit code of a bad start."""
        try:
            session = _open_table(replace(options, address=address, code=code), interface,
                                  reactor, engine, own,
                                  host_at=address if is_invite(invite) else None)
        except (OSError, ValueError, KeyError, CannotListenError) as exc:
            print(_("error: {reason}").format(reason=for_players(str(exc))), file=sys.stderr)
            return 2
        return 2 if session is None else session

    def close_invitations() -> None:
        for friends in invitations:
            friends.close()

    def drive(session: TableSession) -> None:
        """The peer's part once its table session exists: announced, invited, played."""
        if options.command != "watch":
            mapper = announce(reactor, session, options.command, interface, reach)
            if options.command == "host" and rendezvous is not None:
                invitations.append(by_code.invite_friends(reactor, session, rendezvous,
                                                          interface, mapper))
            else:
                # a friend by code may be asked for a wormhole to another (issue 39)
                session.pair_links.use_relay(rendezvous, say=by_code.say)
        if prepare is not None:
            prepare(session)

    if is_invite(invite):
        assert invite is not None and rendezvous is not None
        by_code.join_later(reactor, rendezvous, invite, open_session, drive, out, stop)
    else:
        made = open_session(options.address, options.code)
        if isinstance(made, int):
            return made
        drive(made)
    reactor.run()
    for peer in peers:
        peer.close_log()
    if stats_path and peers:
        session = peers[0].session
        stats.write(stats_path, session.bytes_sent, out.hash, len(session.offence_log))
    return out.code


def _open_table(options: TableOptions, interface: str, reactor: HeadlessReactor,
                engine: SimEngine, owner: OwnerOf,
                host_at: str | None = None) -> TableSession | None:
    """The table the options ask for: resumed (the host dialled at `host_at` when given:
    the end of a tunnel found by code), hosted (its bot levels set, announced on the
    LAN), joined or watched. None when it cannot be (said on stderr)."""
    opts = session_options(options, interface)
    if options.resume:
        session = TableSession.resume(opts, options.resume, reactor=reactor, engine=engine,
                                      host_at=parse_address(host_at) if host_at else None,
                                      owner=owner)
        print(_("resuming seat {seat} from {file}").format(seat=session.my_seat, file=options.resume),
              flush=True)
        return session
    if options.command == "host":
        session = TableSession.host(opts, port=options.port, players=options.players,
                                    side=options.side, setup=options.setup, bots=options.bots,
                                    reactor=reactor, engine=engine, owner=owner)
        print(_("table open on port {port}; join code {code}").format(
            port=session.listen_port, code=session.join_code), flush=True)
        problem = _set_bot_levels(session, list(options.bot_levels))
        if problem:
            print(_("error: {reason}").format(reason=problem), file=sys.stderr)
            return None
        if os.environ.get("SHOGUN_NET_DISCOVERY", "on") != "off":
            _advertise(session)
        return session
    address = options.address or _choose_table(options.table)
    if address is None:
        return None
    if options.command == "join":
        return TableSession.join(opts, address, code=options.code, reactor=reactor, engine=engine,
                                 owner=owner)
    return TableSession.watch(opts, address, code=options.code, reactor=reactor, engine=engine,
                              owner=owner)


class HeadlessPeer:
    """A player at a table without a window: the table's callbacks, filled as the window's
    network session (`client.sessions.network.NetSession`) fills them, but answered in the
    terminal and by a bot. It starts the game when the host's lobby is full, plays its
    seat, writes the game log, and stops the reactor when the game (or the chance of one)
    is over; `out` is how the run ends."""

    def __init__(self, session: TableSession, options: TableOptions, reactor: HeadlessReactor,
                 engine: SimEngine, stats: GameStats, out: Outcome,
                 on_finish: Callable[[], None] = lambda: None,
                 reach: ReachSettings = ReachSettings()) -> None:
        self.session = session
        self.options = options
        self.command = options.command
        self.reactor = reactor
        self.engine = engine
        self.stats = stats
        self.out = out
        self.on_finish = on_finish      # what else ends with the table (a host's invitations)
        self.gate = StartGate(reactor, session, settings=reach)
        self.log_file: IO[str] | None = None
        self.game_log: GameLog | None = None
        self._open_log()
        self.seen_waiting: dict[tuple[int, int], int] = {}    # (step, seat) -> seconds seen waiting
        reactor.callLater(1.0, self.say_countdowns)

    def stop(self) -> None:
        if self.reactor.running and not self.out.stopping:
            self.out.stopping = True
            self.reactor.stop()

    def _open_log(self) -> None:
        """The JSON game log (`--log`), written from its start."""
        self.close_log()
        if self.options.log:
            self.log_file = open(self.options.log, "w", encoding="utf-8")
            self.game_log = GameLog(self.log_file)

    def close_log(self) -> None:
        if self.log_file is not None:
            self.log_file.close()
            self.log_file = None

    # -- the lobby and the start --------------------------------------------------------------
    def on_lobby_changed(self, lobby: dict[str, Any]) -> None:
        if self.command == "host" and not self.session.started and self.session.lobby_full():
            self.reactor.callLater(0, self.start)

    def start(self) -> None:
        if not self.session.started and self.session.lobby_full():
            self.gate.start(self.start_now, self.unreachable)

    def start_now(self) -> None:
        print(_("all seats taken: the game starts"), flush=True)
        self.session.start_game()

    def unreachable(self, failures: list[str]) -> None:   # issue 16: reported before the start
        for line in failures:
            print(_("cannot start: {reason}").format(reason=for_players(line)), file=sys.stderr, flush=True)
        self.out.code = 1
        self.session.close()
        self.reactor.callLater(0.2, self.stop)

    def on_started(self, config: Any, seat: int | None, state: Any) -> None:
        if self.game_log is not None and self.game_log.seq > 0:
            # caught up again from the start (a rejoin after a desync): rewrite the log
            self._open_log()
        # Everything made so far (modules, the lobby, the mesh) lives for the whole game:
        # moved out of the cyclic collector's reach, its full passes no longer walk it
        # (~0.03 s of a peer's CPU per game, BENCHMARKS.md). A local game does the same.
        # (Called again after a rejoin: what the first start froze is thawed and
        # collected first, so the history it dropped does not stay in memory.)
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.stats.game_started()
        print(_("game started: seat {seat}").format(seat=seat) if seat is not None
              else _("watching the game"), flush=True)

    # -- the game -----------------------------------------------------------------------------
    def on_events(self, events: list[ev.Event], state: Any) -> None:
        if self.game_log is not None:
            self.game_log.write(events)

    def on_decision(self, decision: Any, state: Any) -> None:
        assert self.session.lockstep is not None      # decisions come from the running game
        self.reactor.callLater(0, self.act, self.session.lockstep.step)

    def act(self, step: int) -> None:
        """My bot's command for my seat, if the table still waits for it at `step`."""
        session = self.session
        ls = session.lockstep
        if ls is None or ls.ended or ls.step != step:
            return
        d = ls.decision()
        seat = session.my_seat
        if seat is None or seat not in d.seats:
            return
        if self.options.seed is not None:
            seed = hashlib.sha256(f"net-bot/{self.options.seed}/{seat}/{step}".encode()).digest()
        else:
            seed = os.urandom(32)
        session.flush_sends()           # what I said goes out before my bot thinks
        try:
            session.submit(self.engine.choose(ls.state, seat, self.options.bot, seed))
        except ValueError as exc:
            log.error("my bot's command was refused: %s", exc)

    def on_step_applied(self, entry: dict[str, Any]) -> None:
        ls = self.session.lockstep
        self.stats.step_applied(entry, self.session.my_seat, ls.bots if ls is not None else ())

    def say_countdowns(self) -> None:
        """What a window shows as a countdown (`input_countdown`), said once per awaited
        input that is late (seen for 3 s): whom the table waits for and how long."""
        session = self.session
        ls = session.lockstep
        if session.closed or (ls is not None and ls.ended):
            return
        if ls is not None:
            for seat, left in sorted(session.input_countdown().items()):
                key = (ls.step, seat)
                self.seen_waiting[key] = self.seen_waiting.get(key, 0) + 1
                if self.seen_waiting[key] == 3:
                    print(_("waiting for seat {seat}: {seconds} s left").format(seat=seat, seconds=f"{left:.0f}"),
                          flush=True)
        self.reactor.callLater(1.0, self.say_countdowns)

    def on_ended(self, state: Any) -> None:
        h = self.engine.state_hash(state)
        print(f"final state hash {h}", flush=True)
        for seat, score, money in self.engine.standings(state):
            print("  " + _("seat {seat}: {points} points, {money} money").format(
                seat=seat, points=score, money=money), flush=True)
        self.out.code = 0
        self.out.hash = h
        self.stats.game_ended()
        session = self.session
        if session.save_path and session.lockstep is not None:
            self.reactor.callLater(0, _write_replay, session.save_path + ".replay",
                                   session.lockstep)
        self.reactor.callLater(0.2, self.finish)

    def finish(self) -> None:
        self.session.close()
        self.on_finish()
        self.reactor.callLater(0.2, self.stop)

    # -- what the table says ------------------------------------------------------------------
    def on_refused(self, reason: str) -> None:
        print(_("refused: {reason}").format(reason=for_players(reason)), file=sys.stderr, flush=True)
        if not self.session.started or self.command == "watch" or self.session.closed:
            # (closed: the table was left, e.g. a start the host gave me alone)
            self.out.code = 1
            self.reactor.callLater(0, self.stop)

    def on_paused(self, reason: str) -> None:
        print(_("paused: {reason}").format(reason=for_players(reason)), file=sys.stderr, flush=True)

    def on_notice(self, news: str) -> None:
        print(for_players(news), file=sys.stderr, flush=True)

    def on_desync(self, report: dict[str, Any]) -> None:
        print(_("the games differ: {where}").format(where=report.get("path", report)), file=sys.stderr,
              flush=True)

    def on_error(self, message: str) -> None:
        print(_("error: {reason}").format(reason=for_players(message)), file=sys.stderr, flush=True)
        s = self.session
        if not s.started and not s.conns and s.source is None \
                and s.pending_dials == 0 and self.command != "host":
            self.reactor.callLater(0, self.stop)

    def on_chat_received(self, line: ChatLine) -> None:
        """The table's chat, so a headless player (and a test) sees what people say."""
        print((_("chat: {name} (seat {seat}): {text}") if line.seat is not None
               else _("chat: {name}: {text}")).format(name=shown(line.sender), seat=line.seat,
                                                       text=shown(line.text)),
              flush=True)

    def on_resumed(self) -> None:
        """(the table said why it paused; the game going on again says itself)"""

    def on_broadcast(self, msg: dict[str, Any]) -> None:
        self.stats.broadcast(msg)


def _write_replay(path: str, lockstep: Lockstep) -> None:
    """The finished game in `store.game_save`'s format, so `main.py replay FILE --verify`
    re-simulates a network game too (chance seeds are in the log as Chance commands)."""
    try:
        config = lockstep.config
        writer = SaveWriter.create(path, config, "net", ["heuristic"] * config.players,
                                   durable=False)
        try:
            state, _events = new_game(config)
            for entry in lockstep.log:
                for wire in entry["commands"]:
                    command = from_wire(wire)
                    state, _events = apply(state, command)
                    writer.command(command, state_hash(state))
        finally:
            writer.close()
        print(_("replay file {file}").format(file=path), flush=True)
    except Exception as exc:     # a record only: never fail the game for it
        log.error("could not write the replay file %s: %s", path, exc)


def _set_bot_levels(session: TableSession, levels: list[str] | None) -> str | None:
    """`host --bot-level`: one level for every bot seat, or one per bot seat in order.
    A sentence saying what is wrong, or None."""
    if not levels:
        return None
    seats = [s["seat"] for s in session.lobby["seats"] if s["kind"] == "bot"]
    if len(levels) == 1:
        levels = levels * len(seats)
    if len(levels) != len(seats):
        return _("{levels} bot levels given for {seats} bot seats; give one for all or one "
                 "per bot seat").format(levels=len(levels), seats=len(seats))
    try:
        for seat, level in zip(seats, levels):
            session.set_bot_level(seat, level)
    except ValueError as exc:
        return str(exc)
    return None


def _advertise(session: TableSession) -> None:
    """Announce the table on the LAN (zeroconf, in a thread: registering blocks)."""
    def done(advert: discovery.Advertisement) -> None:
        session.advert = advert

    d = deferToThread(discovery.advertise, session.listen_port, session.name,
                      session.lobby.get("players", 0))
    d.addCallbacks(done, lambda f: log.warning("no LAN announcement: %s", f.getErrorMessage()))


def _choose_table(wanted: str | None) -> str | None:
    """The LAN tables, and the one the user names or picks (never silently the first)."""
    ask = (lambda question: input(question)) if sys.stdin.isatty() else None
    choice = choose_table(discovery.browse(timeout=3.0), wanted, ask)
    print(choice.message if choice.address else _("error: {reason}").format(reason=choice.message),
          file=sys.stdout if choice.address else sys.stderr, flush=True)
    return choice.address
