"""A correspondence table in players' words: whose move it waits for and since when
("your move in 2 tables; Kenji's plan awaited since Tuesday 14:02"), said the same by
`./shogun tables` (cli/correspondence.py) and the window's list
(client/scenes/correspondence_scene.py), from `net.correspondence.table_list.TableStatus`.

Tests: tests/cli/test_correspondence.py, tests/client/scenes/test_correspondence_window.py.
"""

from __future__ import annotations

import time
from datetime import datetime

from client.words.net_words import for_players
from lang.i18n import _, current, ngettext
from net.correspondence.table_list import Stage, TableStatus
from net.trust.peer_text import shown

RECENT = 6 * 24 * 3600          # within this: the weekday; before: the date


def since_words(when: float, now: float | None = None) -> str:
    """A time as players say it: "Tuesday 14:02" in the last six days, else "3 March 14:02"."""
    from babel.dates import format_datetime
    moment = datetime.fromtimestamp(when)
    now = time.time() if now is None else now
    pattern = "EEEE HH:mm" if now - when < RECENT else "d MMMM HH:mm"
    return format_datetime(moment, pattern, locale=current())


def describe(status: TableStatus, now: float | None = None, window: bool = False) -> str:
    """One table in a sentence: whose move it waits for, and since when. `window`: the
    window's list, which has a button to hand an overdue seat to a bot (the terminal's
    sentence names the command instead)."""
    where = shown(status.table.folder.name or str(status.table.folder))
    since = since_words(status.since, now) if status.since else ""
    if status.stage is Stage.BROKEN or status.stage is Stage.REFUSED:
        return _("{table}: {problem}").format(table=where, problem=for_players(status.problem))
    if status.stage is Stage.OVER:
        return _("{table}: the game is over").format(table=where)
    if status.stage is Stage.SEATING:
        if status.table.host:
            return ngettext("{table}: waiting for {n} more player to join since {since}",
                            "{table}: waiting for {n} more players to join since {since}",
                            status.missing).format(table=where, n=status.missing, since=since)
        return _("{table}: waiting for {host} to seat the table since {since}").format(
            table=where, host=status.host_name, since=since)
    if status.mine:
        return (_("{table}: your plan") if status.plan else _("{table}: your move")).format(
            table=where)
    names = ", ".join(status.awaited)
    if status.plan:
        line = _("{table}: {names}'s plan awaited since {since}").format(
            table=where, names=names, since=since)
    else:
        line = _("{table}: {names}'s move awaited since {since}").format(
            table=where, names=names, since=since)
    for name, seat in zip(status.overdue, status.overdue_seats):
        if window:
            line += "; " + _("the turn timer ran out for {name}").format(name=name)
            continue
        line += "; " + _("the turn timer ran out for {name}: agree to hand the seat to a bot "
                         "with ./shogun takeover --folder {folder} {seat}").format(
            name=name, folder=shown(str(status.table.folder)), seat=seat)
    return line


def hand_label(name: str) -> str:
    """The window's button that agrees to hand an overdue seat to a bot."""
    return _("Hand {name}'s seat to a bot").format(name=name)


def hand_words(status: TableStatus, name: str) -> str:
    """What came of my agreement to hand `name`'s seat to a bot (`visit(hand=...)`)."""
    if status.hand_over is None:
        return _("Could not hand {name}'s seat to a bot: {reason}").format(
            name=name, reason=describe(status, window=True))
    if status.hand_over:
        return _("Could not hand {name}'s seat to a bot: {reason}").format(
            name=name, reason=for_players(status.hand_over))
    if status.hand_needed <= 0:
        return _("{name}'s seat was handed to a bot: a bot plays it from now on").format(
            name=name)
    return ngettext("You agreed to hand {name}'s seat to a bot; {n} more player must agree",
                    "You agreed to hand {name}'s seat to a bot; {n} more players must agree",
                    status.hand_needed).format(name=name, n=status.hand_needed)


def summary(statuses: list[TableStatus], now: float | None = None) -> str:
    """The list's first line: "your move in 2 tables; Kenji's plan awaited since ..."."""
    mine = sum(s.stage is Stage.PLAYING and s.mine for s in statuses)
    parts = []
    if mine:
        parts.append(ngettext("your move in {n} table", "your move in {n} tables", mine)
                     .format(n=mine))
    others = [s for s in statuses if s.stage is Stage.PLAYING and not s.mine and s.awaited]
    if others:
        oldest = min(others, key=lambda s: s.since)
        names = ", ".join(oldest.awaited)
        line = _("{names}'s plan awaited since {since}") if oldest.plan else \
            _("{names}'s move awaited since {since}")
        parts.append(line.format(names=names, since=since_words(oldest.since, now)))
    if not statuses:
        return _("no correspondence tables yet: open one with ./shogun host --folder FOLDER")
    if not parts:
        return ngettext("{n} correspondence table, none waiting for a move",
                        "{n} correspondence tables, none waiting for a move",
                        len(statuses)).format(n=len(statuses))
    return "; ".join(parts)
