"""`main.py replay FILE --text | --verify`: a save or a JSON game log as text, or a save
re-simulated with every hash checked. (Without either flag `replay FILE` opens the
window's viewer: main.py hands it to the client.)

A hostile file (issue 34 item 5) gives one line naming the file, the line and what is wrong.

Tests: tests/cli/test_headless.py (replay --verify), tests/test_main.py (--text, the viewer),
tests/cli/test_hostile_files.py (crafted files, as processes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lang.i18n import _, translator
from sim.game import state_hash
from sim.local import LocalGame
from sim.narrate import describe
from store.game_log import is_log, read_log
from store.game_save import SaveError, read_save, replay_into
from cli.headless import seat_colour


def run(args: argparse.Namespace) -> int:
    """0 when the file could be told or verified; 2, with one line naming the file, the
    line and what is wrong, for anything else (never a traceback: the readers in `store`
    refuse a hostile file with a `SaveError`)."""
    path = Path(args.file)
    try:
        if not args.verify and is_log(path):
            for row in read_log(path):
                line = describe(row.event, seat_colour, tr=translator())
                if line:
                    print(line)
            return 0
        saved = read_save(path)
        game = LocalGame(saved.config, saved.seed, dict(enumerate(saved.bots)))
        if args.verify:
            replay_into(game, saved)
            print(f"verified {len(saved.commands)} commands: every state hash matches; "
                  f"final state hash {state_hash(game.state)}"
                  + (" (game over)" if game.over else " (game unfinished)"))
            return 0
        for e in replay_into(game, saved):
            line = describe(e, seat_colour, tr=translator())
            if line:
                print(line)
        return 0
    except SaveError as exc:
        print(_("error: {reason}").format(reason=exc.said()), file=sys.stderr)
        return 2
