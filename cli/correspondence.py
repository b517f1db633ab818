"""`main.py host --folder DIR`, `join --folder DIR CODE` and `tables`: correspondence tables
from the terminal (issue 51).

Why a command that visits and exits: a correspondence table is played whenever a player
opens the program. `host --folder` opens a table in the shared folder (once: it prints the
code to send to friends) and `join --folder` claims a seat with the code; then each visits
the table once (`net.correspondence.table_list.visit`): the host seals the seating when
every seat is claimed, the game plays on as far as the folder allows, and the command
says whose move it waits for and exits. With `--headless` a bot makes my own decisions
too; without it they wait for the window ("Play by correspondence"). `tables` visits
every table kept on this machine and says where each stands.

Tests: tests/cli/test_correspondence.py; real processes in
tests/net/correspondence/test_door_processes.py.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from client.words.correspondence_words import describe as describe
from client.words.correspondence_words import since_words as since_words
from client.words.correspondence_words import summary as summary
from client.words.net_words import for_players
from lang.i18n import _, ngettext
from lang.names import readable_name
from net.correspondence import my_tables
from net.correspondence.folder_link import Chooser
from net.correspondence.my_tables import MyTable
from net.correspondence.table_door import DoorError
from net.correspondence.table_entry import host_new, join_new
from net.correspondence.table_list import Stage, TableEngine, TableStatus, visit
from net.correspondence.table_start import CodeError, TableCode
from net.correspondence.turn_timer import TimerError, parse_timer
from net.lockstep.engine import EngineCommand, EngineState, PendingDecision, SimEngine
from net.trust.peer_text import shown
from net.trust.seat_keys import SeatKey

def bot_chooser(engine: TableEngine, bot: str, table: bytes) -> Chooser:
    """`--headless`: a bot makes my seat's decisions (seeded by the table and the state)."""
    def choose(state: EngineState, decision: PendingDecision, seat: int) -> EngineCommand:
        seed = hashlib.sha256(b"folder-bot/" + table + bytes([seat])
                              + engine.state_hash(state).encode()).digest()
        return engine.choose(state, seat, bot, seed)
    return choose


def _visit(table: MyTable, engine: TableEngine, headless: bool, bot: str) -> TableStatus:
    choose = bot_chooser(engine, bot, table.code.table) if headless else None
    return visit(table, engine, choose)


def _say(status: TableStatus) -> None:
    for sentence in status.refused:
        print(_("refused: {reason}").format(reason=for_players(sentence)), file=sys.stderr)
    if status.left:
        print(ngettext("{n} claim came after the table was full: left out",
                       "{n} claims came after the table was full: left out",
                       status.left).format(n=status.left), file=sys.stderr)
    for sentence in status.named:
        print(_("warning: {problem}").format(problem=for_players(sentence)), file=sys.stderr)
    print(describe(status), flush=True)
    if status.stage is Stage.OVER and status.hash:
        print(f"final state hash {status.hash}", flush=True)


def host(args: argparse.Namespace, engine: TableEngine | None = None) -> int:
    folder = Path(args.folder).expanduser()
    key = SeatKey(None)
    name = (args.name or "").strip()[:40] or readable_name(key.public[0])
    entry = next((t for t in my_tables.my_tables()[0]
                  if t.host and t.folder.resolve() == folder.resolve()), None)
    if entry is None:
        levels = args.bot_level or ["normal"]
        try:
            timer = parse_timer(getattr(args, "turn_timer", None) or "0")
            entry = host_new(folder, name, args.players, args.side, args.setup, args.bots,
                             levels[0], key, timer)
        except (DoorError, OSError, TimerError) as e:
            print(_("error: {reason}").format(reason=for_players(str(e))), file=sys.stderr)
            return 1
        code = entry.code
        print(_("A correspondence table is open in {folder}.").format(folder=shown(str(folder))))
        print(_("Send this code to the friends you play with (whoever has it can read the "
                "table and claim a seat):"))
        print(f"    {code.text}")
        print(_("They join with: ./shogun join --folder FOLDER CODE (FOLDER: the shared "
                "folder on their machine)"), flush=True)
    _say(_visit(entry, engine or SimEngine(), args.headless, args.bot))
    return 0


def join(args: argparse.Namespace, engine: TableEngine | None = None) -> int:
    folder = Path(args.folder).expanduser()
    if not args.address:
        print(_("error: join --folder needs the table's code"), file=sys.stderr)
        return 2
    try:
        code = TableCode.parse(args.address)
    except CodeError as e:
        print(_("error: {reason}").format(reason=for_players(str(e))), file=sys.stderr)
        return 2
    entry = my_tables.find(code.table)
    if entry is None:
        key = SeatKey(None)
        name = (args.name or "").strip()[:40] or readable_name(key.public[0])
        try:
            entry, start = join_new(folder, code, name, key)
        except (DoorError, OSError) as e:
            print(_("error: {reason}").format(reason=for_players(str(e))), file=sys.stderr)
            return 1
        print(_("You asked {host} for a seat at the table in {folder}.").format(
            host=start.host_name, folder=shown(str(folder))), flush=True)
    elif entry.folder.resolve() != folder.resolve():
        entry = MyTable(folder, entry.code, entry.seed, entry.name, entry.host)
        my_tables.remember(entry)            # the shared folder moved on this machine
    _say(_visit(entry, engine or SimEngine(), args.headless, args.bot))
    return 0


def tables(args: argparse.Namespace, engine: TableEngine | None = None) -> int:
    kept, problems = my_tables.my_tables()
    for problem in problems:
        print(_("warning: {problem}").format(problem=shown(problem)), file=sys.stderr)
    statuses = [_visit(t, engine or SimEngine(), False, "normal") for t in kept]
    print(summary(statuses), flush=True)
    for status in statuses:
        print("  " + describe(status))
    return 0


def takeover(args: argparse.Namespace, engine: TableEngine | None = None) -> int:
    """`takeover --folder DIR SEAT`: my claim that a bot plays SEAT, whose decision waited
    past the table's turn timer (it counts with the other players')."""
    folder = Path(args.folder).expanduser()
    entry = next((t for t in my_tables.my_tables()[0]
                  if t.folder.resolve() == folder.resolve()), None)
    if entry is None:
        print(_("error: no correspondence table of mine is in {folder}").format(
            folder=shown(str(folder))), file=sys.stderr)
        return 2
    engine = engine or SimEngine()
    text = str(args.seat).strip()
    seat = int(text) if text.isdigit() else None
    if seat is None:
        status = _visit(entry, engine, False, "normal")
        seat = next((s for s, n in enumerate(status.seat_names)
                     if n and n.casefold() == text.casefold()), None)
        if seat is None:
            print(_("error: nobody called {name} plays at this table")
                  .format(name=shown(text)), file=sys.stderr)
            return 1
    status = visit(entry, engine, None, hand=seat)
    if status.hand_over:
        print(_("error: {reason}").format(reason=for_players(status.hand_over)),
              file=sys.stderr)
        return 1
    if status.hand_over is None:
        _say(status)
        return 1
    print(_("You agreed that a bot plays seat {seat}: it does once more than half of the "
            "players agree.").format(seat=seat))
    _say(status)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.command == "tables":
        return tables(args)
    if args.command == "takeover":
        return takeover(args)
    if args.command == "host":
        return host(args)
    return join(args)
