"""How the window's sessions are built: a local game, a network table, a save played on,
a replay, the tutorial's scripted game, and the names their seats are shown with.

Why apart from `client.app`: the App switches scenes; what a session is made from (the
menu's options, a file, the command line's `TableOptions`) and what can go wrong on the
way (a refused address, a damaged save) is a separate question, answered here. A session
that cannot be built raises `NotStarted` with the sentence the menu shows.

Loaded when the first game starts, not before the menu shows (`client.app` imports it
there): it brings the table scene's sessions and the replay reader; the network only
when a table is opened (`table`).

Tests: tests/client/scenes/test_window.py, tests/client/sessions/test_net_window.py,
tests/client/sessions/test_replay_window.py.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from client.sessions.local import LocalSession
from client.sessions.replay import ReplaySession, resume_local
from client.tutorial.scripted_game import new_session as new_tutorial_session
from client.words.net_words import said
from client.words.sentences import problem_text
from client.words.table_names import seat_title
from lang.i18n import _
from net.table.options import TableOptions
from store.game_save import SavedGame
from store.save_error import SaveError

if TYPE_CHECKING:
    from client.sessions.network import NetSession


class NotStarted(Exception):
    """A session could not be built; the message is the sentence the menu shows."""


def local_game(opts: Mapping[str, Any], seed: int | None = None) -> LocalSession:
    """A local game from the menu's options ("humans": my seats, "bots": a level for every
    other seat or one per seat); without a seed, the clock's."""
    humans = tuple(opts.get("humans", (0,)))
    bots = opts.get("bots") or {}
    if isinstance(bots, str):
        bots = {s: bots for s in range(opts["players"]) if s not in humans}
    seed = seed if seed is not None else int(time.time() * 1000) % 2_000_000_000
    return LocalSession(opts["players"], opts["side"], opts["setup"], humans, bots, seed)


def seat_labels(players: int, humans: Sequence[int], name: str) -> dict[int, str]:
    """{seat: "Aiko (Blue)" / "You (Blue)" / "Bot (Orange)"} for a local game; the
    chosen name goes to my seat when I am the only person at this window."""
    name = name.strip() if len(humans) == 1 else ""
    return {s: seat_title(s, "human" if s in humans else "bot", name,
                          me=s in humans and len(humans) == 1) for s in range(players)}


def seat_names(humans: Sequence[int], name: str) -> dict[int, str]:
    """The player's chosen name by seat, when one person plays at this window."""
    name = name.strip()
    return {humans[0]: name} if name and len(humans) == 1 else {}


def table_options(command: str, menu: Mapping[str, Any]) -> TableOptions:
    """The menu's options for `host`, `join` or `watch` as the table's record (the menu
    gives its bot seats by seat; the table counts them)."""
    bots = menu.get("bots") or 0
    fields = {k: menu[k] for k in ("address", "code", "players", "side", "setup") if k in menu}
    return TableOptions(command="host" if command == "host" else
                        "join" if command == "join" else "watch",
                        bots=len(bots) if isinstance(bots, Mapping) else int(bots), **fields)


def table(options: TableOptions) -> NetSession:
    """A seat at a network table (or a spectator's chair), opened as the options say."""
    # the network (Twisted, magic-wormhole: ~3 s of imports on a busy machine) only for a
    # table: a replay or a local game opens without it (issue 49: a log's window was blank)
    from client.sessions.network import NetSession
    try:
        return NetSession.open(options)
    except Exception as exc:   # net missing or refused at once: said in the menu
        what = {"host": _("Could not host: {reason}"), "join": _("Could not join: {reason}"),
                "watch": _("Could not watch: {reason}")}.get(options.command,
                                                             _("Could not start: {reason}"))
        raise NotStarted(what.format(reason=said(str(exc)) or problem_text(exc))) from exc


def saved_game(path: str) -> tuple[LocalSession, SavedGame]:
    """A save played on (every state hash checked on the way)."""
    if not path:
        raise NotStarted(_("Type the save's file name in the box first."))
    try:
        return resume_local(path)
    except (SaveError, ValueError, OSError) as exc:      # the save's line and problem
        reason = exc.said() if isinstance(exc, SaveError) else str(exc)
        raise NotStarted(_("Cannot load {path}: {reason}").format(path=path, reason=reason)) from exc


def replay(path: str) -> ReplaySession:
    """A save or a JSON game log, in the viewer."""
    try:
        return ReplaySession(path)
    except Exception as exc:
        reason = exc.said() if isinstance(exc, SaveError) else str(exc)
        raise NotStarted(_("Cannot replay {path}: {reason}").format(
            path=path or _("(no file)"), reason=reason)) from exc


def tutorial() -> LocalSession:
    """The tutorial's scripted game on its fixed seed."""
    return new_tutorial_session()
