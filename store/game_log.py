"""The JSON game log (one object per line, DESIGN.md's table): a writer that adds `seq`.

Tests: tests/cli/test_headless.py (the game-log contract).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any


class GameLog:
    """Appends events as JSON lines and flushes each batch, so a killed game keeps its log."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.seq = 0

    def write(self, events: Iterable[Mapping[str, Any]]) -> None:
        for event in events:
            record = {"seq": self.seq, **event}
            self._stream.write(json.dumps(record, separators=(",", ":")) + "\n")
            self.seq += 1
        self._stream.flush()
