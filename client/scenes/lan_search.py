"""Looking for tables on the LAN without freezing the window.

zeroconf browsing waits, so it runs in a thread; the window polls every frame and hands
the result (a list of tables, or the exception) to the menu once it is there.

Tests: none of its own (a browse needs a LAN); tests/net/reach/test_discovery.py covers
the browse it runs.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.reach.discovery import Table


class LanSearch:
    def __init__(self, seconds: float = 2.0) -> None:
        self.seconds = seconds
        self._thread: threading.Thread | None = None
        self._result: list[Table] | Exception | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> bool:
        """Begin a search; False if one is still running."""
        if self.running:
            return False
        self._result = None

        def work() -> None:
            try:
                from net.reach.discovery import browse  # zeroconf: only when the LAN is searched
                self._result = browse(self.seconds)
            except Exception as exc:       # shown to the player as "LAN search failed: …"
                self._result = exc
        self._thread = threading.Thread(target=work, daemon=True)
        self._thread.start()
        return True

    def poll(self) -> tuple[bool, list[Table] | Exception | None]:
        """(True, result) once a search has finished (then forgets it), else (False, None)."""
        if self._thread is None or self._thread.is_alive():
            return False, None
        self._thread = None
        return True, self._result
