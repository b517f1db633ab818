"""`./shogun replay SAVE --film N --out FILE.mp4 [--size WxH]`: the command line's side of a film.

Why apart from `battle_film`: the command line wants sentences and exit codes (2 for a
bad request), the viewer's button wants the `Film` record; both call `write_battle_film`.

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

import argparse
import sys

from lang.i18n import _
from client.film.battle_film import parse_size, write_battle_film
from store.game_save import SaveError


def run(args: argparse.Namespace) -> int:
    from client.film.virtual_display import NoDisplay  # Xvfb: only for a film
    if not args.out:
        print(_("error: --film needs --out FILE.mp4 (where the film goes; .webm and .gif "
                "also do)"), file=sys.stderr)
        return 2
    try:
        size = parse_size(getattr(args, "size", None) or "1280x720")
        film = write_battle_film(args.file, args.film, args.out, size)
    except (ValueError, SaveError, NoDisplay, OSError) as exc:
        print(_("error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
    if film.note:
        print(film.note, file=sys.stderr)
    print(_("{path}: {frames} frames, {width}x{height} — {title}").format(
        path=film.path, frames=film.frames, width=film.size[0], height=film.size[1], title=film.title))
    if film.result:
        print(film.result)
    return 0
