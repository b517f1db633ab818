"""Readable names for players who chose none: a headless peer (`./shogun join
--headless`) or a window whose settings hold no name. Every log line and the lobby name a
player by it ("Kenji (Orange)"), so it must read as a name, not as "join-normal-28346".
Names are given names (the game is set in Japan), the same in every language.

Tests: tests/cli/test_runner_names.py.
"""

from __future__ import annotations

NAMES = ("Akira", "Aoi", "Daichi", "Emi", "Haru", "Hiro", "Kaito", "Kenji", "Mei", "Nao",
         "Ren", "Rin", "Sora", "Taro", "Yui", "Yuki")


def readable_name(key: int) -> str:
    """A name for this key (e.g. the process id: two peers started side by side differ)."""
    return NAMES[key % len(NAMES)]
