"""`./shogun replay SAVE --film N --out FILE.gif`: the command line's side of a film.

Why apart from `battle_film`: the command line wants sentences and exit codes (2 for a
bad request), the viewer's button wants the `Film` record; both call `write_battle_film`.

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

import argparse
import sys

from lang.i18n import _


def run(args: argparse.Namespace) -> int:
    from client.film.battle_film import write_battle_film
    from client.film.virtual_display import NoDisplay
    from store.game_save import SaveError
    if not args.out:
        print(_("error: --film needs --out FILE.gif (where the film goes)"), file=sys.stderr)
        return 2
    try:
        film = write_battle_film(args.file, args.film, args.out)
    except (ValueError, SaveError, NoDisplay, OSError) as exc:
        print(_("error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
    print(_("{path}: {frames} frames, {width}x{height} — {title}").format(
        path=film.path, frames=film.frames, width=film.size[0], height=film.size[1], title=film.title))
    if film.result:
        print(film.result)
    return 0
