"""The error of a save that cannot be used, one class for both kinds of save.

Why one: the local game's save (`store.game_save`) and a network player's save journal
(`store.table_save`) fail for the same reasons a player must read (damaged, unreadable,
from another version), and a caller that handles one should not miss the other. Both
modules re-export it, so `from store.game_save import SaveError` and
`from store.table_save import SaveError` name this class.

Tests: tests/store/test_table_save.py, tests/cli/test_headless.py.
"""

from __future__ import annotations


class SaveError(ValueError):
    """A save that cannot be used or trusted; the message says which file and why."""
