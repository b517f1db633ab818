"""A Babel extractor for the card data file: the words a player reads on the cards (action
labels, short names and effects, event texts, special cards, building names) go into the
catalogue, so `client.core.card_facts` can translate them where it hands them to the window.

Tests: tests/client/words/test_i18n.py (the catalogues hold every card text).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO

# the fields of assets/cards.json a player reads, per list
READ = {"actions": ("label", "short", "effect"), "events": ("text", "short"),
        "specials": ("label", "text"), "buildings": ("label",)}


def extract(fileobj: IO[bytes], keywords: object, comment_tags: object,
            options: object) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor protocol: (line, function, message, comments) per string."""
    data = json.loads(fileobj.read().decode("utf-8"))
    seen: set[str] = set()
    for part, keys in READ.items():
        for row in data.get(part, []):
            for key in keys:
                text = row.get(key)
                if isinstance(text, str) and text and text not in seen:
                    seen.add(text)
                    yield 0, None, text, [f"cards.json {part}: {row.get('name', row.get('number'))} {key}"]
