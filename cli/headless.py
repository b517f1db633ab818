"""`main.py headless`: bots play a whole game without a window, printed in plain words.

Tests: tests/cli/test_headless.py, tests/cli/test_headless_bots.py.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack

from lang.i18n import _, ngettext, translator
from sim.bots import BOT_NAMES
from sim.events import Events
from sim.game import GameConfig, state_hash
from sim.local import LocalGame
from sim.narrate import describe
from store.game_log import GameLog
from store.game_save import SaveError, SaveWriter, read_save, replay_into


def seat_colour(seat: object) -> str:
    """A seat as the window names it ("Blue", "Blauw"), not "P0": the console log reads
    like the game's."""
    from client.core.palette import SEATS
    if seat == "peasant" or seat is None:
        return translator().gettext("peasants")
    return translator().gettext(SEATS[int(str(seat))].name)


def seat_bots(names: list[str] | None, players: int) -> list[str]:
    names = names or ["heuristic"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"give --bot once, or once per seat ({players} times)")
    for n in names:
        if n not in BOT_NAMES:
            raise ValueError(f"unknown bot {n!r}; choose from {', '.join(BOT_NAMES)}")
    return names


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        if args.resume:
            saved = read_save(args.resume)
            config, seed, bots = saved.config, saved.seed, saved.bots
            game = LocalGame(config, seed, dict(enumerate(bots)))
            earlier = replay_into(game, saved)
        else:
            config = GameConfig(args.players, args.side, args.setup)
            config.check()
            seed, bots = args.seed, seat_bots(args.bot, args.players)
            game = LocalGame(config, seed, dict(enumerate(bots)))
            earlier = list(game.first_events)
    except SaveError as exc:
        print(_("error: {reason}").format(reason=exc.said()), file=sys.stderr)
        return 2
    except ValueError as exc:
        print(_("error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
    with ExitStack() as stack:
        log = None
        if args.log:
            log = GameLog(stack.enter_context(open(args.log, "w", encoding="utf-8")))
        save = None
        save_path = args.save or args.resume
        if save_path:
            if args.resume and save_path == args.resume:
                save = SaveWriter.append_to(save_path, saved)
            else:
                save = SaveWriter.create(save_path, config, seed, bots)
                if args.resume:  # a resumed game saved to a new file: copy what came before
                    for saved_cmd, _h in zip(saved.commands, saved.hashes):
                        save.command(saved_cmd, _h)
            stack.callback(save.close)

        def emit(events: Events) -> None:
            if log:
                log.write(events)
            if not args.quiet:
                for e in events:
                    line = describe(e, seat_colour, tr=translator())
                    if line:
                        print(line, file=out)

        if args.resume:
            n = len(game.commands)
            print(ngettext("(resumed after {n} command)", "(resumed after {n} commands)", n).format(n=n),
                  file=out)
        emit(earlier)
        events = earlier  # a resumed save may already hold the whole game
        while not game.over:
            cmd = game.automatic_command()
            assert cmd is not None               # every seat is a bot: nobody else to wait for
            events = game.submit(cmd)
            if save:
                save.command(cmd, state_hash(game.state))
            emit(events)
        if args.quiet:
            for e in events:
                if e["event"] == "GameEnded":
                    print(describe(e, seat_colour, tr=translator()), file=out)
    print(f"final state hash {state_hash(game.state)}", file=out)
    return 0
