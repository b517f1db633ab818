"""A tooltip: a short sentence in a box beside the mouse, for whatever is under it.

The scene asks its parts what is under the mouse (`tooltip_at(x, y)` on a panel or the
board, or a `tip` attribute on a button) and calls `show(text, x, y, owner=node)` or
`hide()`. A tip belongs to one element, its `owner`, and dies with it (issue 49): when
that element is gone, hidden, covered or no longer under the pointer, the tip is hidden,
and another element's tip opens only when the mouse moves (a card vanishing under a
still pointer opened the log's tip over the decision text). It is
one node added last to the scene, so it is drawn over everything (the tower, the guide)
and never behind a panel; `place` keeps its box inside its parent's rectangle on every
side and off the pointer (issue 27, item 11). The scene hides it when a drag starts.

Tests: tests/client/widgets/test_tooltip.py, tests/client/game/test_overlays.py.
"""

from __future__ import annotations

import arcade

from client.core.damage import damage
from client.core.node import Node
from client.core.text_cache import TextCache
from lang.i18n import _

WIDTH = 300
GAP = 14          # from the pointer to the box


def place(x: float, y: float, w: float, h: float,
          bounds: tuple[float, float, float, float]) -> tuple[float, float]:
    """Where a w x h box goes for a pointer at (x, y) inside bounds (left, bottom, right,
    top): right of and above the pointer if it fits, else left of or below it; then moved
    inside the bounds on every side (a box taller or wider than them keeps its top-left
    corner inside)."""
    bl, bb, br, bt = bounds
    left = x + GAP if x + GAP + w <= br - 4 else x - GAP - w
    bottom = y + GAP if y + GAP + h <= bt - 4 else y - GAP - h
    left = max(bl + 4, min(left, br - 4 - w))
    bottom = min(bt - 4 - h, max(bottom, bb + 4))
    return left, bottom


class Tooltip(Node):
    def __init__(self) -> None:
        super().__init__("tooltip")
        self.visible = False
        self.text = ""
        self.owner: Node | None = None      # the element this tip is about (it dies with it)
        self.at = (0.0, 0.0)
        self.box_width = float(WIDTH)
        self._box = (0.0, 0.0, 0.0, 0.0)
        self._label = TextCache()

    def show(self, text: str, x: float, y: float, width: float = WIDTH,
             owner: Node | None = None) -> None:
        """`text`: a marked English sentence or words already in the player's language;
        `owner`: the element it is about."""
        if text == self.text and self.visible and (x, y) == self.at and width == self.box_width \
                and owner is self.owner:
            return
        self.text, self.at, self.box_width, self.owner = text, (x, y), float(width), owner
        self.visible = True
        self.mark_dirty()

    def hide(self) -> None:
        self.owner = None
        if self.visible:
            self.visible = False
            self.text = ""
            damage()

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The box drawn (left, bottom, width, height), for tests and the scene's repaints."""
        return self._box

    def rebuild(self) -> None:
        x, y = self.at
        p = self.parent
        bounds = (p.left, p.bottom, p.right, p.top) if p is not None and p.width > 0 \
            else (x - 2000, y - 2000, x + 2000, y + 2000)
        w = min(self.box_width, bounds[2] - bounds[0] - 8)
        self._label.begin()
        t = self._label.put("t", _(self.text), 0, 0, size=10, width=int(w - 16), multiline=True,
                            anchor_y="top", color=(250, 244, 230))
        h = t.content_height + 12
        left, bottom = place(x, y, w, h, bounds)
        t.position = (left + 8, bottom + h - 6)
        self._box = (left, bottom, w, h)
        self._label.end()

    def on_draw(self) -> None:
        l, b, w, h = self._box
        arcade.draw_lbwh_rectangle_filled(l, b, w, h, (45, 35, 30, 250))
        arcade.draw_lbwh_rectangle_outline(l, b, w, h, (240, 200, 120), 1)
        self._label.draw()
