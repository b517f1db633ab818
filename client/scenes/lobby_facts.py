"""The lobby's list of lines: one line per fact, said once, updated in place (issue 49).

The table says how things stand as sentences (net's log lines): the invitation code, how a
friend's link goes, a tunnel to a seat. Said again (a retry, a link that drops and comes
back), a fact replaces its own line where it stands instead of adding one; a line said
twice word for word is shown once. Chat lines are each their own fact.

Tests: tests/client/scenes/test_lobby_window.py.
"""

from __future__ import annotations

import re

# (net's English line, the fact it is about): the first pattern that matches names it
FACTS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I), key) for p, key in (
    (r"(friends anywhere join with|the next friend joins with|the invitation code|"
     r"friends outside this network cannot join by code|no invitation code)", "invitation"),
    (r"seat (?P<n>-?\d+) rejoins with", "rejoin {n}"),
    (r"friend (?P<n>\d+)(?:'s| is)", "friend {n}"),
    (r"(?:the tunnel to seat|seat) (?P<n>-?\d+) (?:is connected|could not|cannot)", "tunnel {n}"),
))


def fact_of(line: str) -> str:
    """The fact net's English `line` is about (the line itself when it is of no known kind)."""
    for pattern, key in FACTS:
        m = pattern.match(line)
        if m:
            return key.format(**m.groupdict())
    return line


class Facts:
    """The lines shown, oldest first (`lines`); `say` adds or updates one."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._where: dict[str, int] = {}    # fact -> its line's index

    def say(self, fact: str | None, line: str) -> bool:
        """Show `line` for `fact` (None: a line of its own, e.g. a chat line); True when
        what is shown changed."""
        if fact is None:
            self.lines.append(line)
            return True
        at = self._where.get(fact)
        if at is None:
            self._where[fact] = len(self.lines)
            self.lines.append(line)
            return True
        if self.lines[at] == line:
            return False
        self.lines[at] = line
        return True
