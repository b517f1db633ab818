"""Engine events in plain words for the log panel: `sim.narrate` with the window's colour
names and the player's language, so the headless printout and the window tell the game the
same way (here without the rule ids the printout names, see `client.words.sentences`).

Tests: tests/client/words/test_sentences.py, tests/client/words/test_i18n.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from client.core.theme import seat_name
from client.words.sentences import for_players
from lang.i18n import translator
from sim.narrate import describe as narrate

if TYPE_CHECKING:
    from client.core.played import Played


def describe(e: Played) -> str | None:
    """One line (several for the final standings), or None for bookkeeping events (and
    for the client's own records: the table says a resumed game's line itself)."""
    line = narrate(e, who=seat_name, tr=translator())
    if line is None:
        return None
    return "\n".join(for_players(part) for part in line.splitlines())
