"""The Twisted reactor in the window: started once, never run as a loop, and driven from
Arcade's clock instead (`pump_reactor`, once a frame and between the steps of long work),
so nothing the client does blocks the window. A module of its own so that every part of
the client that needs the reactor (the network session, joining by code, the lobby's
router mapping) imports it from here, not from one another.

Tests: tests/client/core/test_reactor_threads.py, tests/client/sessions/test_net_window.py.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from client.core.beating import BEATING

_reactor_started = False


def window_reactor() -> Any:
    """The global reactor, started once and then driven by `net_pump` on every frame.
    It is never stopped, so its thread pool (port mapping, name lookups) gets daemon
    threads: a closed window must end the program, not wait for idle pool threads."""
    global _reactor_started
    # imported here: importing Twisted's reactor installs it, which only a table should do
    from twisted.internet import reactor
    if not _reactor_started:
        _reactor_started = True
        reactor.getThreadPool().threadFactory = functools.partial(threading.Thread, daemon=True)
        try:
            reactor.startRunning(installSignalHandlers=False)
        except Exception:
            pass
    return reactor


def pump_reactor(errors: list[str]) -> None:
    """Run what is due on the reactor, without blocking (once a frame, and between the
    steps of long work: `client.core.beating`); a network fault is kept in `errors`."""
    reactor = window_reactor()
    with BEATING.pumping() as free:
        if not free:
            return
        try:
            reactor.runUntilCurrent()
            reactor.doIteration(0)
        except Exception as exc:   # a network fault must not take the window down
            errors.append(f"network: {exc}")
