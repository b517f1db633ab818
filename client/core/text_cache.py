"""Labels drawn in one batch and kept between frames (a label is made once and reused by
key), and the fonts they are drawn in: DejaVu Sans registered at import from matplotlib's
copy, so every letter of the three languages is there whatever the system has.

Tests: tests/client/core/test_nodes.py, tests/client/words/test_i18n_window.py.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Hashable, Mapping
from pathlib import Path
from types import MappingProxyType

import pyglet
from arcade.types import RGBA255, RGBOrA255

from client.core.crisp_text import CrispText, window_text_scale


class TextCache:
    """Keeps `arcade.Text` objects in one pyglet batch; `put` reuses a label by key.

    Call `begin()` before re-putting a frame's labels and `end()` after: labels not put
    since `begin()` are hidden. Drawing is a single batch draw.
    """

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self._labels: dict[Hashable, CrispText] = {}
        self._shapes: dict[Hashable, tuple[str, str, str]] = {}    # key -> anchors, alignment
        self._used: set[Hashable] = set()

    @property
    def labels(self) -> Mapping[Hashable, CrispText]:
        """Every label put so far by key, shown or hidden (tests read what is drawn)."""
        return MappingProxyType(self._labels)

    def begin(self) -> None:
        self._used = set()

    def put(self, key: Hashable, text: str, x: float, y: float, *, size: float = 11,
            color: RGBOrA255 = (20, 20, 20, 255), anchor_x: str = "left", anchor_y: str = "baseline",
            bold: bool = False, width: int | None = None, multiline: bool = False,
            align: str = "left") -> CrispText:
        self._used.add(key)
        t = self._labels.get(key)
        scale = window_text_scale()
        # a label put under the same key with other anchors or alignment is a new label
        # (reused, it kept the old corner: a name cut in the battle view was drawn from
        # its card's corner rather than its middle in the next round)
        shape = (anchor_x, anchor_y, align)
        if t is None or t.scale != scale or t.multiline != multiline \
                or (multiline and t.logical_width != width) or self._shapes.get(key) != shape:
            if t is not None:
                t.visible = False
            self._shapes[key] = shape
            # glyphs rasterised at the interface scale (crisp, not stretched)
            t = CrispText(text, x, y, color, size, width=width, anchor_x=anchor_x,
                          anchor_y=anchor_y, bold=bold, multiline=multiline, align=align,
                          batch=self.batch, font_name=FONT, scale=scale)
            self._labels[key] = t
            return t
        if t.text != text:
            t.text = text
        if t.x != x or t.y != y:
            t.position = (x, y)
        if t.font_size != size:
            t.font_size = size
        col: RGBA255 = color if len(color) == 4 else (*color, 255)
        if tuple(t.color) != col:
            t.color = col
        if t.bold != bold:
            t.bold = bold
        if not t.visible:
            t.visible = True
        return t

    def end(self, forget: bool = False) -> None:
        """Labels not put since `begin()` are hidden, or, `forget`, let go (a panel whose
        keys keep changing, the game log's lines, would otherwise keep every label)."""
        for k, t in list(self._labels.items()):
            if k in self._used:
                continue
            if forget:
                t.label.delete()
                del self._labels[k]
                self._shapes.pop(k, None)
            elif t.visible:
                t.visible = False

    def clear(self) -> None:
        for t in self._labels.values():
            t.visible = False
        self._labels.clear()
        self._shapes.clear()
        self.batch = pyglet.graphics.Batch()

    def draw(self) -> None:
        self.batch.draw()


FONT = ("DejaVu Sans", "Liberation Sans", "Arial", "sans-serif")


def register_fonts() -> list[str]:
    """Make "DejaVu Sans" available whatever the system has: matplotlib (a pinned dependency)
    ships it, and it has every letter the Dutch and Romanian words use (ă â î ș ț ô, and the
    ō of Nō). Returns the files registered (none when matplotlib's copy is missing)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        return []
    folder = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf"
    files = [folder / name for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]
    files = [f for f in files if f.is_file()]
    for f in files:
        pyglet.font.add_file(str(f))
    return [str(f) for f in files]


BUNDLED_FONTS = register_fonts()


def bold_font_files() -> tuple[str, ...]:
    """Where Pillow finds bold DejaVu Sans (the map's label widths, the cubes' letters):
    matplotlib's copy first, which every install and the download carry (Windows and
    macOS have no DejaVu of their own), then the system's by name and by Debian's path."""
    mine = tuple(f for f in BUNDLED_FONTS if f.endswith("DejaVuSans-Bold.ttf"))
    return mine + ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
