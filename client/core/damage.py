"""Whether the window's static part must be drawn again: one change counter for the whole
window, so a node that changes what it shows needs no path to the window to say so.

Tests: tests/client/core/test_nodes.py.
"""

from __future__ import annotations


class Damage:
    """A global change counter: anything that changes what the static part of the window
    shows bumps it. The window redraws everything when it moved since the last full
    frame, otherwise only the animated nodes (see `App.on_draw`)."""

    serial = 0


def damage() -> None:
    Damage.serial += 1
