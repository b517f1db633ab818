"""Text that keeps to its room: labels shrink (down to a readable minimum) and are then
cut short with "…", so a small window never lets words run into each other or out of
their panel. Used by every panel that puts words into a fixed box.

Tests: tests/client/words/test_i18n_layout.py.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Hashable
from typing import TypedDict, Unpack

import arcade

from arcade.types import RGBOrA255

from client.core.text_cache import TextCache


class BoxStyle(TypedDict, total=False):
    """What `put_boxed` passes on to `TextCache.put` as it is."""
    color: RGBOrA255
    anchor_x: str
    bold: bool
    align: str


class TextStyle(BoxStyle, total=False):
    """What `put_fitted` passes on to `TextCache.put` as it is."""
    anchor_y: str
    width: int | None
    multiline: bool


def put_fitted(text: TextCache, key: Hashable, label: str, x: float, y: float, room: float, size: float,
               min_size: float = 6.5, cut: bool = False, **kw: Unpack[TextStyle]) -> arcade.Text:
    """`text.put` at `size`, shrunk (down to `min_size`) until it is at most `room` wide;
    with `cut`, a label still too wide at `min_size` loses letters at its end ("…")."""
    t = text.put(key, label, x, y, size=size, **kw)
    for _ in range(4):      # drawn width is not quite proportional to the size
        if t.content_width <= room or size <= min_size or room <= 0:
            break
        size = max(min_size, int((size * room / t.content_width) * 2) / 2)
        t = text.put(key, label, x, y, size=size, **kw)
    if cut and room > 0 and t.content_width > room:
        keep = len(label)
        while keep > 1 and t.content_width > room:
            keep = max(1, min(keep - 1, int(keep * room / t.content_width)))
            t = text.put(key, label[:keep].rstrip() + "…", x, y, size=size, **kw)
    return t


def put_boxed(text: TextCache, key: Hashable, label: str, left: float, top: float, width: float,
              height: float, size: float, min_size: float = 7.0, **kw: Unpack[BoxStyle]) -> arcade.Text:
    """A wrapped paragraph at (left, top) inside width x height: smaller type first, then
    cut at a word with "…" until it fits."""
    words = label
    while True:
        t = text.put(key, words, left, top, size=size, width=max(10, int(width)),
                     multiline=True, anchor_y="top", **kw)
        if t.content_height <= height and t.content_width <= width + 0.5:
            return t
        if size > min_size:
            size = max(min_size, size - 0.5)
            continue
        cut = words.rstrip("…").rsplit(" ", 1)[0]
        if cut == words.rstrip("…") or not cut:
            # a single word too wide: a one-line label, cut by letters
            return put_fitted(text, key, words.split(" ")[0], left, top, width, size, min_size,
                              cut=True, anchor_y="top", **kw)
        words = cut + "…"


def abbreviated(label: str, size: float, room: float,
                measure: Callable[[str, float], float]) -> str:
    """`label` made to fit `room` at `size` by shortening its longest words with a dot
    ('Gevecht B' -> 'Gev. B'), for a name whose tooltip gives it whole; `label` itself
    when it fits, or when no word can lose more letters. `measure(text, size)` is the
    drawn width (the map's `client.board.map_geometry.text_width`: widgets sit below the
    board, so the caller passes it)."""
    words = label.split(" ")
    while measure(" ".join(words), size) > room:
        stems = [(len(w.rstrip(".")), i) for i, w in enumerate(words)]
        longest, i = max(stems)
        if longest <= 3:
            break
        words[i] = words[i].rstrip(".")[:longest - 1].rstrip("-/") + "."
    return " ".join(words)
