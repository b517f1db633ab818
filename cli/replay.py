"""`main.py replay FILE --text | --verify`: a save or a JSON game log as text, or a save
re-simulated with every hash checked. (Without either flag `replay FILE` opens the
window's viewer: main.py hands it to the client.)

Tests: tests/cli/test_headless.py (replay --verify), tests/test_main.py (--text, the viewer).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lang.i18n import _, translator
from sim.game import state_hash
from sim.local import LocalGame
from sim.narrate import describe
from store.game_save import SaveError, read_save, replay_into
from cli.headless import seat_colour


def _log_events(path: Path) -> list[dict] | None:
    """The events of a JSON game log (`headless --log`), or None when it is not one."""
    try:
        with path.open("rb") as f:
            first = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    if not isinstance(first, dict) or "event" not in first:
        return None
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except ValueError as exc:
        raise SaveError(f"game log {path}: a line is not JSON ({exc})") from exc


def run(args: argparse.Namespace) -> int:
    try:
        events = None if args.verify else _log_events(Path(args.file))
        if events is not None:
            for n, row in enumerate(events, 1):
                try:
                    line = describe(row, seat_colour, tr=translator()) if isinstance(row, dict) \
                        else None
                except (KeyError, TypeError, ValueError) as exc:
                    raise SaveError(f"game log {args.file} line {n}: not an event this "
                                    f"version knows ({exc!r})") from exc
                if line:
                    print(line)
            return 0
        saved = read_save(args.file)
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
        print(_("error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
