"""A tiny Godot-style scene tree on top of Arcade.

A `Node` has a rectangle (left, bottom, width, height in window pixels), children, and
`Signal`s. The tree is driven from the window: `update(dt)`, `draw()` and input go *down*
(parents call children: "call down"), and a node tells its parent what happened by
emitting a signal the parent connected to ("signal up"). A node never reaches into
another node's internals; it only calls public methods of its own children.

Drawing is retained where it matters: nodes rebuild cached shapes/texts when their
inputs change (`mark_dirty`) and draw the cache every frame.

Tests: tests/client/core/test_nodes.py, tests/client/words/test_i18n_window.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

import arcade
import pyglet

from lang.i18n import _
from client.core.beating import beat
from client.core.crisp_text import CrispText, window_text_scale

if TYPE_CHECKING:
    from arcade.gui.surface import Surface


class Signal:
    """A list of callbacks. `emit` calls them in connection order."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._slots: list[Callable[..., Any]] = []

    def connect(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        self._slots.append(fn)
        return fn

    def disconnect(self, fn: Callable[..., Any]) -> None:
        self._slots.remove(fn)

    def emit(self, *args: Any, **kwargs: Any) -> None:
        for fn in list(self._slots):
            fn(*args, **kwargs)

    def __len__(self) -> int:
        return len(self._slots)


class Damage:
    """A global change counter: anything that changes what the static part of the window
    shows bumps it. The window redraws everything when it moved since the last full
    frame, otherwise only the animated nodes (see `App.on_draw`)."""

    serial = 0


def damage() -> None:
    Damage.serial += 1


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

    def draw(self) -> None:
        if not self.visible:
            return
        if self._dirty:
            self._dirty = False
            self.rebuild()
            beat()          # a scene's first frame rebuilds every node (client.core.beating)
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

    def animated_nodes(self) -> list[Node]:
        """Nodes that change every frame on their own (the window repaints only these
        when nothing else changed)."""
        return []


class TextCache:
    """Keeps `arcade.Text` objects in one pyglet batch; `put` reuses a label by key.

    Call `begin()` before re-putting a frame's labels and `end()` after: labels not put
    since `begin()` are hidden. Drawing is a single batch draw.
    """

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self._labels: dict[Any, CrispText] = {}
        self._shapes: dict[Any, tuple[str, str, str]] = {}    # key -> anchors, alignment
        self._used: set[Any] = set()

    @property
    def labels(self) -> Mapping[Any, CrispText]:
        """Every label put so far by key, shown or hidden (tests read what is drawn)."""
        return MappingProxyType(self._labels)

    def begin(self) -> None:
        self._used = set()

    def put(self, key: Any, text: str, x: float, y: float, *, size: float = 11,
            color=(20, 20, 20, 255), anchor_x: str = "left", anchor_y: str = "baseline",
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
        col = tuple(color) if len(color) == 4 else tuple(color) + (255,)
        if tuple(t.color) != col:
            t.color = col
        if t.bold != bold:
            t.bold = bold
        if not t.visible:
            t.visible = True
        return t

    def end(self) -> None:
        for k, t in self._labels.items():
            if k not in self._used and t.visible:
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
    import importlib.util
    from pathlib import Path
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


class Button(Node):
    """A clickable box with a label. Emits `pressed` (no arguments).

    The label is looked up in the player's language when drawn, so a fixed label is given
    as its marked English (`Button(N_("Start"))`) and follows a language switch."""

    def __init__(self, label: str, name: str = "", *, size: float = 12,
                 color=(235, 228, 210), hover=(250, 244, 225), text_color=(25, 25, 25),
                 key: int | None = None) -> None:
        super().__init__(name or f"button:{label}")
        self.label = label
        self.size = size
        self.color = color
        self.hover_color = hover
        self.text_color = text_color
        self.key = key           # keyboard shortcut (arcade.key.*) or None
        self.tip = ""            # a tooltip's marked English ("" for none)
        self.active = True       # drawn greyed and ignores clicks when False
        self.selected = False
        self.hover = False
        self.pressed = Signal("pressed")
        self.texts = TextCache()

    def set_label(self, label: str) -> None:
        if label != self.label:
            self.label = label
            self.mark_dirty()

    def rebuild(self) -> None:
        self.texts.begin()
        size = self.size
        while True:      # a longer translation shrinks (whole half-points) to stay on the button
            t = self.texts.put("l", _(self.label), self.left + self.width / 2,
                               self.bottom + self.height / 2, size=size, color=self.text_color,
                               anchor_x="center", anchor_y="center")
            if t.content_width <= self.width - 6 or size <= 7:
                break
            size -= 0.5
        self.texts.end()

    def on_draw(self) -> None:
        c = self.hover_color if (self.hover and self.active) else self.color
        if not self.active:
            c = (200, 200, 200)
        if self.selected:
            c = (250, 214, 120)
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, c)
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height,
                                           (90, 80, 70), 2 if self.selected else 1)
        self.texts.draw()

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        hover = self.contains(x, y)
        if hover != self.hover:
            self.hover = hover
            damage()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.contains(x, y):
            if self.active:
                self.pressed.emit()
            return True
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.key is not None and symbol == self.key and self.active and self.visible:
            self.pressed.emit()
            return True
        return False


def draw_panel(left: float, bottom: float, width: float, height: float,
               fill=(246, 240, 226), border=(120, 105, 85)) -> None:
    arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, fill)
    arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, border, 1)


class CachedLayer:
    """Renders a node's static drawing once into an offscreen texture; `draw` blits it.

    `render(rect, fn)` calls `fn()` with window coordinates mapped onto the texture, so a
    node draws the same way whether cached or not. Cheap frames on a software renderer.
    """

    def __init__(self) -> None:
        self.surface: Surface | None = None
        self.rect: tuple[int, int, int, int] | None = None

    def render(self, rect: tuple[float, float, float, float], fn: Callable[[], None]) -> None:
        from arcade.gui.surface import Surface
        from arcade.types import LBWH
        l, b, w, h = (int(round(v)) for v in rect)
        w, h = max(1, w), max(1, h)
        win = arcade.get_window()
        # drawn at the window's real resolution under an interface scale (crisp lines)
        ratio = win.get_pixel_ratio() * getattr(win, "ui_scale", 1.0)
        surface = self.surface
        if surface is None or surface.size != (w, h) or surface.pixel_ratio != ratio:
            self.surface = surface = Surface(size=(w, h), position=(l, b), pixel_ratio=ratio)
        surface.position = (l, b)
        self.rect = (l, b, w, h)
        with surface.activate():
            surface.clear()
            cam = surface._cam
            cam.projection.rect = LBWH(l, b, w, h)
            cam.use()
            fn()
        win.default_camera.use()

    def draw(self, opaque: bool = False) -> None:
        """`opaque`: the layer covers its rectangle, so it is copied without blending or
        filtering (pixel for pixel), which costs a software renderer about a third less."""
        if self.surface is None:
            return
        if not opaque:
            self.surface.draw()
            return
        ctx = self.surface.ctx
        self.surface._pixelated = True
        ctx.disable(ctx.BLEND)
        try:
            self.surface.draw()
        finally:
            ctx.enable(ctx.BLEND)
