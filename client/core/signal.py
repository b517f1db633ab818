"""How a node tells its parent what happened ("signal up"): a list of callbacks the parent
connected, called in order. Past-tense names (`pressed`, `locked`) say what happened.

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations

from typing import Callable


class Signal:
    """A list of callbacks. `emit` calls them in connection order."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._slots: list[Callable[..., object]] = []

    def connect(self, fn: Callable[..., object]) -> Callable[..., object]:
        self._slots.append(fn)
        return fn

    def disconnect(self, fn: Callable[..., object]) -> None:
        self._slots.remove(fn)

    def emit(self, *args: object, **kwargs: object) -> None:
        for fn in list(self._slots):
            fn(*args, **kwargs)

    def __len__(self) -> int:
        return len(self._slots)
