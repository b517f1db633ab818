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

import argparse
import gc
import hashlib
import logging
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from cli.net_stats import GameStats, WaitLog
from client.words.net_words import for_players
from lang.i18n import _

if TYPE_CHECKING:
    from net.lockstep.core import Lockstep
    from net.table.session import SessionOptions, TableSession
    from net.table.shared import TableReactor

    class HeadlessReactor(TableReactor, Protocol):
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
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")


def session_options(args: argparse.Namespace, bot: str, interface: str = "") -> SessionOptions:
    """The peer's options; its name is `--name`, or a readable given name (every log line
    and the lobby show it: "Kenji (Orange)", never "join-normal-28346")."""
    from lang.names import readable_name
    from net.table.session import SessionOptions
    name = (getattr(args, "name", None) or "").strip()[:40] or readable_name(os.getpid())
    return SessionOptions(name=name, code=args.code, rejoin_timeout=args.rejoin_timeout,
                          save_path=args.save, interface=interface, bot=bot,
                          turn_time=getattr(args, "turn_time", 300.0))


def run(args: argparse.Namespace,
        prepare: Callable[[TableSession], None] | None = None) -> int:
    """Play one headless peer to the end. `prepare(session)`, if given, is called once the
    runner has set its callbacks (test harnesses chain onto the session's public hooks)."""
    _setup_logging()
    from twisted.internet import reactor as twisted_reactor
    from twisted.internet.error import CannotListenError

    from net.lockstep.engine import SimEngine
    from net.table.session import TableSession
    from sim.bots import BOT_NAMES
    import store.game_save  # noqa: F401  (the replay file's writer, loaded before strangers come)

    bot = getattr(args, "bot", "heuristic") or "heuristic"
    if isinstance(bot, list):
        bot = bot[0]
    if bot not in BOT_NAMES:
        print(_("error: there is no bot called {name}; choose from {names}").format(
            name=bot, names=", ".join(BOT_NAMES)), file=sys.stderr)
        return 2
    reactor = cast("HeadlessReactor", twisted_reactor)
    engine = SimEngine()
    from net.reach.internet import StartGate, announce, default_interface   # issue 16: IPv6, router mapping
    from net.reach.rendezvous import Invitations, is_invite
    from cli import by_code
    interface = os.environ.get("SHOGUN_NET_INTERFACE") or default_interface()
    discovery = os.environ.get("SHOGUN_NET_DISCOVERY", "on") != "off"
    command = args.command
    opts = session_options(args, bot, interface)
    out = Outcome()
    game_seed = getattr(args, "seed", None)
    stats_path = os.environ.get("SHOGUN_NET_STATS")
    stats = GameStats(waits=WaitLog() if stats_path else None)
    invite = getattr(args, "address", None) if command == "join" and not args.resume else None
    try:                                                   # issue 39: friends anywhere
        rendezvous = by_code.options(args, interface, needed=is_invite(invite))
    except ValueError as exc:
        print(_("error: {reason}").format(reason=for_players(str(exc))), file=sys.stderr)
        return 2

    from store.game_log import GameLog
    game_log = None
    if args.log:
        game_log = GameLog(open(args.log, "w", encoding="utf-8"))

    def stop() -> None:
        if reactor.running and not out.stopping:
            out.stopping = True
            reactor.stop()

    def open_session(address: str | None, code: str | None) -> TableSession | int:
        """The table session (host, join, watch, resume), or the exit code of a bad start."""
        session: TableSession
        try:
            if args.resume:
                session = TableSession.resume(opts, args.resume, reactor=reactor, engine=engine)
                print(_("resuming seat {seat} from {file}").format(seat=session.my_seat, file=args.resume),
                      flush=True)
            elif command == "host":
                session = TableSession.host(opts, port=args.port, players=args.players,
                                            side=args.side, setup=args.setup, bots=args.bots,
                                            reactor=reactor, engine=engine)
                print(_("table open on port {port}; join code {code}").format(
                    port=session.listen_port, code=session.join_code), flush=True)
                problem = _set_bot_levels(session, getattr(args, "bot_level", None))
                if problem:
                    print(_("error: {reason}").format(reason=problem), file=sys.stderr)
                    return 2
                if discovery:
                    _advertise(session)
            else:
                if address is None:
                    address = _choose_table(getattr(args, "table", None))
                    if address is None:
                        return 2
                if command == "join":
                    session = TableSession.join(opts, address, code=code, reactor=reactor,
                                                engine=engine)
                else:
                    session = TableSession.watch(opts, address, code=code, reactor=reactor,
                                                 engine=engine)
        except (OSError, ValueError, KeyError, CannotListenError) as exc:
            print(_("error: {reason}").format(reason=for_players(str(exc))), file=sys.stderr)
            return 2
        return session

    opened: list[TableSession] = []
    invitations: list[Invitations] = []     # the host's codes for friends anywhere

    def drive(session: TableSession) -> None:
        """The peer's part once its table session exists: callbacks, the start, the end."""
        opened.append(session)
        if command != "watch":
            mapper = announce(reactor, session, command, interface)
            if command == "host" and rendezvous is not None:
                invitations.append(by_code.invite_friends(reactor, session, rendezvous,
                                                          interface, mapper))
        gate = StartGate(reactor, session)

        def on_lobby(lobby: dict) -> None:
            if command == "host" and not session.started and session.lobby_full():
                reactor.callLater(0, _start)

        def _start() -> None:
            if not session.started and session.lobby_full():
                gate.start(_start_now, _unreachable)

        def _start_now() -> None:
            print(_("all seats taken: the game starts"), flush=True)
            session.start_game()

        def _unreachable(failures: list[str]) -> None:   # issue 16: reported before the start
            for line in failures:
                print(_("cannot start: {reason}").format(reason=for_players(line)), file=sys.stderr, flush=True)
            out.code = 1
            session.close()
            reactor.callLater(0.2, stop)

        def on_events(events: list, state: Any) -> None:
            if game_log is not None:
                game_log.write(events)

        def on_decision(decision: Any, state: Any) -> None:
            assert session.lockstep is not None      # decisions come from the running game
            reactor.callLater(0, _act, session.lockstep.step)

        def _act(step: int) -> None:
            ls = session.lockstep
            if ls is None or ls.ended or ls.step != step:
                return
            d = ls.decision()
            seat = session.my_seat
            if seat is None or seat not in d.seats:
                return
            if game_seed is not None:
                seed = hashlib.sha256(f"net-bot/{game_seed}/{seat}/{step}".encode()).digest()
            else:
                seed = os.urandom(32)
            session.flush_sends()           # what I said goes out before my bot thinks
            try:
                session.submit(engine.choose(ls.state, seat, bot, seed))
            except ValueError as exc:
                log.error("my bot's command was refused: %s", exc)

        def on_step(entry: dict) -> None:
            ls = session.lockstep
            stats.step_applied(entry, session.my_seat, ls.bots if ls is not None else ())

        def on_ended(state: Any) -> None:
            h = engine.state_hash(state)
            print(f"final state hash {h}", flush=True)
            for seat, score, money in engine.standings(state):
                print("  " + _("seat {seat}: {points} points, {money} money").format(
                    seat=seat, points=score, money=money), flush=True)
            out.code = 0
            out.hash = h
            stats.game_ended()
            if session.save_path and session.lockstep is not None:
                reactor.callLater(0, _write_replay, session.save_path + ".replay",
                                  session.lockstep)
            reactor.callLater(0.2, _finish)

        def _finish() -> None:
            session.close()
            for friends in invitations:
                friends.close()
            reactor.callLater(0.2, stop)

        def on_refused(reason: str) -> None:
            print(_("refused: {reason}").format(reason=for_players(reason)), file=sys.stderr, flush=True)
            if not session.started or command == "watch":
                out.code = 1
                reactor.callLater(0, stop)

        def on_paused(reason: str) -> None:
            print(_("paused: {reason}").format(reason=for_players(reason)), file=sys.stderr, flush=True)

        def on_desync(report: dict) -> None:
            print(_("the games differ: {where}").format(where=report.get("path", report)), file=sys.stderr,
                  flush=True)

        def on_error(message: str) -> None:
            print(_("error: {reason}").format(reason=for_players(message)), file=sys.stderr, flush=True)
            if not session.started and not session.conns and session.source is None \
                    and session.pending_dials == 0 and command != "host":
                reactor.callLater(0, stop)

        session.on_lobby_changed = on_lobby
        session.on_events = on_events
        session.on_decision = on_decision
        session.on_ended = on_ended
        session.on_refused = on_refused
        session.on_paused = on_paused
        session.on_notice = lambda news: print(for_players(news), file=sys.stderr, flush=True)
        session.on_desync = on_desync
        session.on_error = on_error
        # the table's chat, so a headless player (and a test) sees what people say
        session.on_chat_received = lambda line: print(
            (_("chat: {name} (seat {seat}): {text}") if line.seat is not None else _("chat: {name}: {text}"))
            .format(name=line.sender, seat=line.seat, text=line.text), flush=True)
        def on_started(config: Any, seat: int | None, state: Any) -> None:
            nonlocal game_log
            if game_log is not None and game_log.seq > 0:
                # caught up again from the start (a rejoin after a desync): rewrite the log
                game_log._stream.close()
                game_log = GameLog(open(args.log, "w", encoding="utf-8"))
            # Everything made so far (modules, the lobby, the mesh) lives for the whole game:
            # moved out of the cyclic collector's reach, its full passes no longer walk it
            # (~0.03 s of a peer's CPU per game, BENCHMARKS.md). A local game does the same.
            # (Called again after a rejoin: what the first start froze is thawed and
            # collected first, so the history it dropped does not stay in memory.)
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            stats.game_started()
            print(_("game started: seat {seat}").format(seat=seat) if seat is not None
                  else _("watching the game"), flush=True)
        session.on_started = on_started
        seen_waiting: dict[tuple[int, int], int] = {}     # (step, seat) -> seconds seen waiting

        def say_countdowns() -> None:
            """What a window shows as a countdown (`input_countdown`), said once per awaited
            input that is late (seen for 3 s): whom the table waits for and how long."""
            ls = session.lockstep
            if session.closed or (ls is not None and ls.ended):
                return
            if ls is not None:
                for seat, left in sorted(session.input_countdown().items()):
                    key = (ls.step, seat)
                    seen_waiting[key] = seen_waiting.get(key, 0) + 1
                    if seen_waiting[key] == 3:
                        print(_("waiting for seat {seat}: {seconds} s left").format(seat=seat, seconds=f"{left:.0f}"),
                              flush=True)
            reactor.callLater(1.0, say_countdowns)
        reactor.callLater(1.0, say_countdowns)
        session.on_step_applied = on_step
        session.on_broadcast = stats.broadcast
        if prepare is not None:
            prepare(session)

    if is_invite(invite):
        assert invite is not None and rendezvous is not None
        by_code.join_later(reactor, rendezvous, invite,
                           open_session, drive, out, stop)
    else:
        made = open_session(getattr(args, "address", None), args.code)
        if isinstance(made, int):
            return made
        drive(made)
    reactor.run()
    if game_log is not None:
        game_log._stream.close()
    if stats_path and opened:
        stats.write(stats_path, opened[0].bytes_sent, out.hash, len(opened[0].offence_log))
    return out.code


def _write_replay(path: str, lockstep: Lockstep) -> None:
    """The finished game in `store.game_save`'s format, so `main.py replay FILE --verify`
    re-simulates a network game too (chance seeds are in the log as Chance commands)."""
    from store.game_save import SaveWriter
    from sim.commands import from_wire
    from sim.game import apply, new_game, state_hash
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
    from twisted.internet.threads import deferToThread

    from net.reach import discovery

    def done(advert: discovery.Advertisement) -> None:
        session.advert = advert

    d = deferToThread(discovery.advertise, session.listen_port, session.name,
                      session.lobby.get("players", 0))
    d.addCallbacks(done, lambda f: log.warning("no LAN announcement: %s", f.getErrorMessage()))


def _choose_table(wanted: str | None) -> str | None:
    """The LAN tables, and the one the user names or picks (never silently the first)."""
    from net.reach import discovery
    from net.reach.table_choice import choose_table
    ask = (lambda question: input(question)) if sys.stdin.isatty() else None
    choice = choose_table(discovery.browse(timeout=3.0), wanted, ask)
    print(choice.message if choice.address else _("error: {reason}").format(reason=choice.message),
          file=sys.stdout if choice.address else sys.stderr, flush=True)
    return choice.address
