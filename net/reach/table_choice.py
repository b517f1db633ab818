"""Which advertised table `join` dials when no address is given.

Why never "the first one": anyone on the LAN can advertise a table, so a joiner that
silently dials the first announcement can be sent to a fake table. With the PAKE a fake
table learns nothing it could test code guesses against offline, but the player should
still choose: by name (`--table NAME`), by answering a numbered question, or — when
only one table is announced — by seeing its name printed before it is dialed.

Tests: tests/net/reach/test_table_choice.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from net.reach.discovery import Table


@dataclass(frozen=True)
class Choice:
    address: str | None      # None: nothing to dial; `message` says why
    message: str


def choose_table(tables: Sequence[Table], wanted: str | None,
                 ask: Callable[[str], str] | None) -> Choice:
    """`ask` shows a question and returns the answer (None: nobody to ask)."""
    if not tables:
        return Choice(None, "no table found on the LAN; give HOST:PORT")
    listing = "; ".join(f"{t.name} at {t.address} ({t.players} players)" for t in tables)
    if wanted is not None:
        named = [t for t in tables if t.name.casefold() == wanted.casefold()]
        if not named:
            return Choice(None, f"no table called {wanted!r} on the LAN (found: {listing})")
        if len(named) > 1:
            return Choice(None, f"{len(named)} tables are called {wanted!r} "
                                f"({listing}); give HOST:PORT")
        return Choice(named[0].address, f"joining table {named[0].name} at {named[0].address}")
    if len(tables) == 1:
        t = tables[0]
        return Choice(t.address, f"joining the only table on the LAN: {t.name} at {t.address}")
    if ask is None:
        return Choice(None, f"{len(tables)} tables on the LAN ({listing}); choose one with "
                            "--table NAME or give HOST:PORT")
    lines = [f"  {i}. {t.name} at {t.address} ({t.players} players)"
             for i, t in enumerate(tables, 1)]
    answer = ask("tables on the LAN:\n" + "\n".join(lines) + f"\nwhich table? (1-{len(tables)}) ")
    try:
        index = int(answer.strip())
    except (ValueError, AttributeError):
        return Choice(None, f"{answer!r:.20} is not a table number")
    if not 1 <= index <= len(tables):
        return Choice(None, f"there is no table {index}; choose 1-{len(tables)}")
    t = tables[index - 1]
    return Choice(t.address, f"joining table {t.name} at {t.address}")
