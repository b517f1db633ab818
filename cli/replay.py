"""`main.py replay FILE [--verify]`: re-simulate a save; with --verify check every hash.

Tests: tests/cli/test_headless.py (replay --verify).
"""

from __future__ import annotations

import argparse
import sys

from lang.i18n import _, translator
from sim.game import state_hash
from sim.local import LocalGame
from sim.narrate import describe
from store.game_save import SaveError, read_save, replay_into


def run(args: argparse.Namespace) -> int:
    try:
        saved = read_save(args.file)
        game = LocalGame(saved.config, saved.seed, dict(enumerate(saved.bots)))
        if args.verify:
            replay_into(game, saved)
            print(f"verified {len(saved.commands)} commands: every state hash matches; "
                  f"final state hash {state_hash(game.state)}"
                  + (" (game over)" if game.over else " (game unfinished)"))
            return 0
        for e in replay_into(game, saved):
            line = describe(e, tr=translator())
            if line:
                print(line)
        return 0
    except SaveError as exc:
        print(_("error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
