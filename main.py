"""Command line (the contract in DESIGN.md). Thin: parse, then hand over.

Each subcommand's module is imported only when used, so `headless` never loads Arcade
and `tower` never loads Twisted.

Tests: tests/test_main.py; the network tests start peers through it (tests/net/processes.py).
"""

from __future__ import annotations

import argparse
import os
import sys

from net.reach.addresses import DEFAULT_PORT
from net.table.options import BOT, REJOIN_TIMEOUT, TURN_TIME, TableOptions


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    p.add_argument("--side", default="sun", choices=("sun", "moon"))
    p.add_argument("--setup", default="beginner", choices=("beginner", "draft"))


def _peer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="no window (a bot peer)")
    p.add_argument("--name", default=None, help="the name others see for --headless (default: a given name)")
    p.add_argument("--bot", default=BOT, help="bot for --headless: easy, normal, hard (or random, heuristic, hard_2025, hard_2026)")
    p.add_argument("--log", metavar="FILE", help="write the JSON game log")
    p.add_argument("--save", metavar="FILE", help="keep a save of the command log")
    p.add_argument("--resume", metavar="FILE", help="resume from a save and rejoin")
    p.add_argument("--rejoin-timeout", type=float, default=REJOIN_TIMEOUT,
                   help="seconds a dropped peer may take to rejoin before a bot plays it")


def _rendezvous_options(p: argparse.ArgumentParser) -> None:
    """Join by code across the internet (issue 39, cli/by_code.py)."""
    p.add_argument("--rendezvous", metavar="URL", default=None,
                   help="the magic-wormhole mailbox that introduces players by code "
                        "(default: the public one, ws://relay.magic-wormhole.io:4000/v1)")
    p.add_argument("--relay", metavar="HOST:PORT", default=None,
                   help="the magic-wormhole transit relay, used only when no direct "
                        "connection works (default: the public one)")
    p.add_argument("--direct-only", action="store_true",
                   help="never use a relay: a friend who cannot connect directly cannot join")


def _folder_option(p: argparse.ArgumentParser, what: str) -> None:
    """Correspondence tables (issue 51, cli/correspondence.py)."""
    p.add_argument("--folder", metavar="FOLDER", default=None, help=what)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shogun", description="Networked Shogun")
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="window: a local game, you + bots")
    _game_options(play)
    play.add_argument("--bots", default="normal", help="bot level for the other seats: easy, normal, hard (or random, heuristic, hard_2025, hard_2026)")
    play.add_argument("--seat", type=int, default=0, help="your seat")
    play.add_argument("--seed", type=int, default=None)

    headless = sub.add_parser("headless", help="bots only, no window")
    _game_options(headless)
    headless.add_argument("--seed", type=int, default=1)
    headless.add_argument("--bot", action="append", default=None,
                          help="bot per seat (repeat, or once for all): easy, normal, hard, random, heuristic, hard_2025, hard_2026")
    headless.add_argument("--log", metavar="FILE", help="write the JSON game log")
    headless.add_argument("--save", metavar="FILE", help="write the command log as play goes")
    headless.add_argument("--resume", metavar="FILE", help="resume a saved game")
    headless.add_argument("--quiet", action="store_true", help="print only the final standings")

    host = sub.add_parser("host", help="open a table")
    host.add_argument("--port", type=int, default=DEFAULT_PORT)
    host.add_argument("--code", default=None)
    _game_options(host)
    host.add_argument("--bots", type=int, default=0, help="bot seats at the table")
    host.add_argument("--bot-level", action="append", default=None, metavar="LEVEL",
                      help="level of each bot seat (repeat, or once for all): easy, normal, hard")
    host.add_argument("--seed", type=int, default=None, help="(tests) fixed local entropy")
    host.add_argument("--turn-time", type=float, default=TURN_TIME, metavar="SECONDS",
                      help="seconds each player has for a decision before a bot may take "
                           "the seat (the table's timer, shown to everyone; 10 to 86400)")
    _peer_options(host)
    _rendezvous_options(host)
    _folder_option(host, "open a correspondence table in FOLDER, a folder every player's "
                         "machine shares through a file sync (Syncthing, a cloud folder)")
    host.add_argument("--turn-timer", metavar="TIME", default="0",
                      help="with --folder: how long a decision may wait (36h, 2d; 1 hour to "
                           "90 days) before the others may agree to hand the seat to a bot "
                           "(default: no timer)")

    join = sub.add_parser("join", help="join a table (lists LAN tables without ADDRESS)")
    join.add_argument("address", nargs="?", help="HOST:PORT, or the code the host shows "
                      "(7-guitarist-revenge) for a table anywhere")
    join.add_argument("--code", default=None)
    join.add_argument("--table", metavar="NAME", default=None,
                      help="without ADDRESS: the LAN table of this name (asked when several)")
    _peer_options(join)
    _rendezvous_options(join)
    _folder_option(join, "claim a seat at the correspondence table in FOLDER (the shared "
                         "folder on this machine); ADDRESS is then the table's code")

    sub.add_parser("tables", help="my correspondence tables: whose move each waits for")
    takeover = sub.add_parser("takeover", help="agree that a bot plays a correspondence seat "
                              "whose turn timer ran out")
    takeover.add_argument("seat", help="the seat: its number or its player's name, as "
                          "`tables` says it")
    takeover.add_argument("--folder", metavar="FOLDER", required=True,
                          help="the table's shared folder on this machine")

    watch = sub.add_parser("watch", help="spectate a table")
    watch.add_argument("address")
    watch.add_argument("--code", default=None)
    _peer_options(watch)

    replay = sub.add_parser("replay", help="watch a save or a JSON game log in the window")
    replay.add_argument("file")
    replay.add_argument("--verify", action="store_true", help="re-simulate and check every hash")
    replay.add_argument("--text", "--headless", dest="text", action="store_true",
                        help="print the game as text instead of opening the window")
    replay.add_argument("--film", type=int, metavar="N", default=None,
                        help="film battle N (1 = the first) as an MP4, WebM or GIF (needs --out)")
    replay.add_argument("--out", metavar="FILE.mp4", default=None,
                        help="where --film writes (.mp4, .webm or .gif)")
    replay.add_argument("--size", metavar="WxH", default="1280x720",
                        help="the film's size in pixels (default 1280x720)")

    netcheck = sub.add_parser("netcheck", help="which tables or players this machine reaches")
    netcheck.add_argument("addresses", nargs="*", metavar="ADDRESS", help="HOST:PORT to dial")
    netcheck.add_argument("--port", type=int, default=DEFAULT_PORT, help="the port a table here uses")
    netcheck.add_argument("--timeout", type=float, default=3.0, help="seconds per address")
    netcheck.add_argument("--no-router", action="store_true", help="do not ask the router")

    tower = sub.add_parser("tower", help="tower statistics")
    tower.add_argument("--drops", type=int, default=200)
    tower.add_argument("--plot", metavar="FILE")
    tower.add_argument("--seed", type=int, default=1)
    tower.add_argument("--selftest", action="store_true",
                       help="print the physics build in use (deterministic or platform) and its digest")
    smoke = sub.add_parser("smoke", help="open the window, draw the menu and a first plan, save a screenshot")
    smoke.add_argument("--out", metavar="FILE.png", required=True, help="where the screenshot goes")
    for p in (parser, *sub.choices.values()):   # before or after the subcommand
        p.add_argument("--lang", choices=("en", "nl", "ro"), default=argparse.SUPPRESS,
                       help="language of the words: en, nl or ro (default: settings, then system)")
    return parser


def table_options(args: argparse.Namespace) -> TableOptions:
    """`host`, `join` or `watch`'s options as the one record the window and the headless
    peer read (what a sub-command does not ask keeps the record's default)."""
    given = vars(args)
    fields = {name: given[name] for name in (
        "address", "code", "table", "port", "players", "side", "setup", "bots", "seed",
        "turn_time", "rejoin_timeout", "bot", "log", "save", "resume", "rendezvous", "relay",
        "direct_only") if name in given}
    return TableOptions(command=args.command, name=(args.name or "").strip()[:40],
                        bot_levels=tuple(given.get("bot_level") or ()), **fields)


def _no_window_here(explain: bool = True) -> bool:
    """On Linux a window needs an X (or Wayland) display; say so plainly instead of
    letting pyglet fail deep inside its import."""
    if not sys.platform.startswith("linux"):
        return False
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    if not explain:
        return True
    print("error: no display to open the game window on (DISPLAY is not set).\n"
          "Run it in a desktop session, under Xvfb (xvfb-run -a ./shogun), or without a\n"
          "window: ./shogun headless, ./shogun host --headless, ./shogun replay FILE --text",
          file=sys.stderr)
    return True


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from lang.i18n import use
    lang: str | None = getattr(args, "lang", None)       # absent unless given (SUPPRESS)
    use(lang)        # the window re-applies its settings' choice
    command = args.command or "play"
    if command == "headless":
        from cli.headless import run
        return run(args)
    if command == "replay" and args.film is not None:
        from client.film.command import run as film
        return film(args)
    if command == "replay" and (args.verify or args.text):
        from cli.replay import run
        return run(args)
    if command == "replay" and not os.path.isfile(args.file):
        print(f"error: no such file: {args.file}", file=sys.stderr)
        return 2
    if command == "netcheck":
        from cli.netcheck import run
        return run(args)
    if command == "tower":
        from cli.tower_report import run
        return run(args)
    if command == "smoke":
        if _no_window_here():
            return 2
        from client.smoke import run
        return run(args)
    if command in ("tables", "takeover") or (command in ("host", "join") and args.folder):
        from cli.correspondence import run as correspondence
        return correspondence(args)
    if command in ("host", "join", "watch"):
        if args.headless:
            from cli.runner import run as run_peer
            return run_peer(table_options(args))
        if _no_window_here():
            return 2
        from client.app import run as run_window
        return run_window(table_options(args), lang=lang)
    if _no_window_here():
        return 2
    from client.app import run as run_window
    from client.sessions.local_choice import LocalChoice
    if command == "replay":
        return run_window(args.file, lang=lang)
    if args.command is None:    # no sub-command: the window opens the menu, not a game
        return run_window(None, lang=lang)
    return run_window(LocalChoice.one_level(args.bots, players=args.players, side=args.side,
                                            setup=args.setup, humans=(args.seat,),
                                            seed=args.seed), lang=lang)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
