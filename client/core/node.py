"""A tiny Godot-style scene tree on top of Arcade.

A `Node` has a rectangle (left, bottom, width, height in window pixels), children, and
`Signal`s (`client.core.signal`). The tree is driven from the window: `update(dt)`, `draw()` and input go *down*
(parents call children: "call down"), and a node tells its parent what happened by
emitting a signal the parent connected to ("signal up"). A node never reaches into
another node's internals; it only calls public methods of its own children.

Drawing is retained where it matters: nodes rebuild cached shapes/texts when their
inputs change (`mark_dirty`) and draw the cache every frame.

Tests: tests/client/core/test_nodes.py, tests/client/words/test_i18n_window.py.
"""

from __future__ import annotations

from typing import Iterator, TypeVar

from client.core.beating import beat
from client.core.damage import Damage


NodeT = TypeVar("NodeT", bound="Node")


class Node:
    """Base node: a rectangle with children. Override the `on_*` hooks."""

    def __init__(self, name: str = "") -> None:
        self.name = name or type(self).__name__
        self.parent: Node | None = None
        self.children: list[Node] = []
        self.visible = True
        self.enabled = True
        self.left = 0.0
        self.bottom = 0.0
        self.width = 0.0
        self.height = 0.0
        self._dirty = True

    # -- tree -----------------------------------------------------------------------------
    def add(self, child: NodeT) -> NodeT:
        if child.parent is not None:
            child.parent.remove(child)
        child.parent = self
        self.children.append(child)
        return child

    def remove(self, child: "Node") -> None:
        self.children.remove(child)
        child.parent = None

    def clear_children(self) -> None:
        for c in list(self.children):
            self.remove(c)

    def find(self, name: str) -> "Node | None":
        for c in self.children:
            if c.name == name:
                return c
            hit = c.find(name)
            if hit is not None:
                return hit
        return None

    def walk(self) -> Iterator[Node]:
        yield self
        for c in self.children:
            yield from c.walk()

    # -- geometry -------------------------------------------------------------------------
    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def top(self) -> float:
        return self.bottom + self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.bottom <= y < self.top

    def set_rect(self, left: float, bottom: float, width: float, height: float) -> None:
        changed = (left, bottom, width, height) != (self.left, self.bottom, self.width, self.height)
        self.left, self.bottom, self.width, self.height = left, bottom, width, height
        if changed:
            self.mark_dirty()
        self.on_layout()

    @property
    def dirty(self) -> bool:
        """Its cached drawing is rebuilt at the next draw."""
        return self._dirty

    def mark_dirty(self) -> None:
        self._dirty = True
        Damage.serial += 1

    # -- driving (call down) --------------------------------------------------------------
    def update(self, dt: float) -> None:
        if not self.enabled:
            return
        self.on_update(dt)
        for c in list(self.children):
            c.update(dt)

    def rebuild_if_dirty(self) -> None:
        """Rebuild now if marked dirty (what `draw` does first): a hidden node's cached
        picture made current, for a node that draws it elsewhere (the battle stage's
        opening zooms into the map's picture while the map itself is hidden under it)."""
        if self._dirty:
            self._dirty = False
            self.rebuild()
            beat()          # a scene's first frame rebuilds every node (client.core.beating)

    def draw(self) -> None:
        if not self.visible:
            return
        self.rebuild_if_dirty()
        self.on_draw()
        for c in self.children:
            c.draw()
        self.on_draw_over()

    def _live(self) -> list["Node"]:
        return [c for c in reversed(self.children) if c.visible and c.enabled]

    def mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        for c in self._live():
            if c.mouse_press(x, y, button, modifiers):
                return True
        return self.on_mouse_press(x, y, button, modifiers)

    def mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        for c in self._live():
            if c.mouse_release(x, y, button, modifiers):
                return True
        return self.on_mouse_release(x, y, button, modifiers)

    def mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        for c in self._live():
            c.mouse_motion(x, y, dx, dy)
        self.on_mouse_motion(x, y, dx, dy)

    def mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        for c in self._live():
            c.mouse_drag(x, y, dx, dy, buttons, modifiers)
        self.on_mouse_drag(x, y, dx, dy, buttons, modifiers)

    def mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> bool:
        for c in self._live():
            if c.mouse_scroll(x, y, sx, sy):
                return True
        return self.on_mouse_scroll(x, y, sx, sy)

    def key_press(self, symbol: int, modifiers: int) -> bool:
        for c in self._live():
            if c.key_press(symbol, modifiers):
                return True
        return self.on_key_press(symbol, modifiers)

    # -- hooks ----------------------------------------------------------------------------
    def on_layout(self) -> None: ...
    def rebuild(self) -> None: ...
    def on_update(self, dt: float) -> None: ...
    def on_draw(self) -> None: ...
    def on_draw_over(self) -> None: ...
    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool: return False
    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool: return False
    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None: ...
    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int,
                      modifiers: int) -> None: ...
    def on_mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> bool: return False
    def on_key_press(self, symbol: int, modifiers: int) -> bool: return False

    # -- what a scene (the tree's root) may answer ----------------------------------------
    def type_text(self, text: str) -> bool:
        """Typed text (not keys) for a focused field; True if taken."""
        return False

    def damage_rect(self) -> tuple[int, int, int, int]:
        """What a frame of its animation repaints (an animated node may repaint less
        than its box): its box."""
        return (int(self.left), int(self.bottom), int(self.width) + 1, int(self.height) + 1)

    # its `draw` begins with an opaque picture drawn through `dirty_union.each_rect`, so
    # the window draws it once over several `damage_rects` (not once per rectangle)
    covers_rects = False

    def damage_rects(self) -> list[tuple[int, int, int, int]]:
        """The rectangles a frame of its animation repaints: its `damage_rect`, or several
        small ones where their bounding box would be most of the window (a software
        renderer's cost is the pixels it fills)."""
        return [self.damage_rect()]

    def animated_nodes(self) -> list[Node]:
        """Nodes that change every frame on their own (the window repaints only these
        when nothing else changed)."""
        return []
