"""Keeping the network beating while the window works for long at a stretch.

Why: the window drives the Twisted reactor once a frame (`NetSession.net_pump`), so a
frame that builds the game scene — triangulating 46 provinces, laying out hundreds of
labels, rendering the cached layers — sent no heartbeat and read nothing for all that
time. On a loaded machine that was longer than the players' silence limit: at the start
of a LAN game host and joiner each counted the other as dropped ("silent for 36 s")
though both were there (issue 34 item 2). The long loops of scene building call `beat()`;
while a network table is open the window has registered its pump here, and `beat()` runs
it when `EVERY` seconds have passed since the last run, so the reactor's longest stall is
one step of such a loop, not the whole build (benchmarks/start/bench_start_stall.py).

A pump only queues what the table says (the scene reads it on its next update), so it is
safe between two steps of a build; a beat inside the pump itself does nothing.

Tests: tests/client/core/test_beating.py.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

EVERY = 0.05      # seconds between two pumps at most, while the window is busy


class Beating:
    """The pump to run while the window is busy, and when it last ran."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.pump: Callable[[], None] | None = None
        self.last = 0.0
        self.inside = False

    def keep(self, pump: Callable[[], None] | None) -> None:
        """Run `pump` while the window is busy (None: nothing to keep beating)."""
        self.pump = pump
        self.last = self.clock()

    def beat(self) -> None:
        """A step of long work ended: pump the network if it is due."""
        pump = self.pump
        if pump is not None and not self.inside and self.clock() - self.last >= EVERY:
            pump()

    @contextmanager
    def pumping(self) -> Iterator[bool]:
        """Around the pump's body (the window's frame or a beat): False when a pump is
        running already (a beat from inside it), which must then do nothing."""
        if self.inside:
            yield False
            return
        self.inside = True
        try:
            yield True
        finally:
            self.inside = False
            self.last = self.clock()


BEATING = Beating()


def beat() -> None:
    BEATING.beat()
