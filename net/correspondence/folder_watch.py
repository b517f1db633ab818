"""Live play over a correspondence folder: the folder read again every few seconds.

Why a watcher: when several players have the table open at once, a move should appear
within seconds, without anyone reopening the program. `FolderWatch` runs one
`FolderLink.session` (read, play what can be played, write) every `every` seconds on the
reactor's clock (`twisted.internet.task.LoopingCall`), says when the game moved on, and
stops when it is over. A sync tool brings the other players' files; the watcher only reads
the folder (no file-system notifications: they differ between systems and miss what a
sync tool writes by rename on some of them).

Tests: tests/net/correspondence/test_folder_link.py (two watchers on one `Clock`).
"""

from __future__ import annotations

from typing import Callable

from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import LoopingCall

from net.correspondence.folder_link import FolderLink

EVERY = 2.0          # seconds between two readings of the folder


class FolderWatch:
    def __init__(self, link: FolderLink, clock: IReactorTime, every: float = EVERY,
                 moved: Callable[[int], None] | None = None) -> None:
        self.link = link
        self.every = every
        self.moved = moved                # called with the step the game reached
        self.readings = 0
        self._loop = LoopingCall(self._tick)
        self._loop.clock = clock

    def start(self) -> None:
        self._loop.start(self.every, now=True)

    def stop(self) -> None:
        if self._loop.running:
            self._loop.stop()

    def _tick(self) -> None:
        self.readings += 1
        ls = self.link.lockstep
        before = ls.step if ls is not None else -1
        over = self.link.session()
        ls = self.link.lockstep
        if ls is not None and ls.step != before and self.moved is not None:
            self.moved(ls.step)
        if over:
            self.stop()
